/**
 * From messages to importance segments: units that keep tool calls with their results, token
 * costs, and re-access statistics from paths and identifiers mentioned later.
 *
 * @module segments
 */
export { messageUnits, unitText, unitKind, type MessageUnit } from "./units.js";
export { references, reaccesses, MAX_REFERENCES, SCAN_CHARS } from "./references.js";
export { buildSegments, type BuildOptions, type MessageSegment } from "./build.js";
