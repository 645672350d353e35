import { memoryIndex } from "../../src/search/memory.js";
import { indexContract } from "../support/contract.js";

indexContract("memory", async () => memoryIndex());
