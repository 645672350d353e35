/**
 * Process entry of `cc-compact`: runs {@link main} with the real effects and sets the exit code.
 *
 * @module cli
 */
import { main, processIo } from "./main.js";

process.exitCode = await main(process.argv.slice(2), processIo());
