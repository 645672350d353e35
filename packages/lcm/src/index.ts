export * from "./message.js";
export * from "./providers/provider.js";
export * from "./session/index.js";
