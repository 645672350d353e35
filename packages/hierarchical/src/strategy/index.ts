/**
 * History strategies chosen by configuration: `lcm` (summarise the older prefix) or
 * `hierarchical` (evict low-importance units into a searchable index), and the one eviction pass
 * and message grouping they and the `cc-compact` command share.
 *
 * @module strategy
 */
export * from "./config.js";
export * from "./units.js";
export * from "./references.js";
export * from "./segments.js";
export * from "./evict.js";
export * from "./hierarchical.js";
export * from "./factory.js";
