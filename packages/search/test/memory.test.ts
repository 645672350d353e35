import { memoryIndex } from "../src/memory.js";
import { indexContract } from "./support/contract.js";

indexContract("memory", async () => memoryIndex());
