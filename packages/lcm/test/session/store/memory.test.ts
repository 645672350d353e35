import { memoryStore } from "@cc/lcm";
import { storeContract } from "./contract.js";

storeContract("memory", () => Promise.resolve({ store: memoryStore(), cleanup: () => Promise.resolve() }));
