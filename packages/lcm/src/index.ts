export * from "./message.js";
export * from "./openai.js";
export * from "./clip.js";
export * from "./transcript.js";
export * from "./providers/provider.js";
export * from "./providers/offline.js";
export * from "./prune.js";
export * from "./session/index.js";
