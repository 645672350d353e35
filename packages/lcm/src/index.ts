export * from "./message.js";
export * from "./providers/provider.js";
export * from "./transcript.js";
export * from "./prune.js";
export * from "./session/index.js";
