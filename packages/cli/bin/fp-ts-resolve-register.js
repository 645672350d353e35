// Registers ./fp-ts-resolve.js (passed to node with --import).
import { register } from "node:module";

register(new URL("./fp-ts-resolve.js", import.meta.url));
