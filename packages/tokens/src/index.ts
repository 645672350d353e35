export * from "./counter.js";
