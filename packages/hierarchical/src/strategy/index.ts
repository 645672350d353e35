/**
 * History strategies chosen by configuration: `lcm` (summarise the older prefix) or
 * `hierarchical` (evict low-importance units into a searchable index).
 *
 * @module strategy
 */
export * from "./config.js";
export * from "./hierarchical.js";
export * from "./factory.js";
