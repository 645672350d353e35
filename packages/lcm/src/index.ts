export * from "./message.js";
export * from "./providers/provider.js";
