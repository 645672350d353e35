/**
 * Session-layer internals shared with tests and sibling @cc packages. Not part of the public API.
 *
 * @module @cc/session/internal
 */
export { MAX_STACK_ID_LENGTH, type StackId, type StoreBackend } from "../store/store.js";
export { SQLITE_MIGRATIONS } from "../store/sqlite.js";
export { POSTGRES_MIGRATIONS } from "../store/postgres.js";
export { SessionCompactionConfigCodec, type InvalidSessionConfig } from "../config.js";
export { limitHistory, type BuildContextInput, type InvalidContextOptions } from "../context.js";
export type { CompactionDone, CompactionFailed, CompactionTrigger, CompactionWarning, EventBusOptions } from "../events.js";
export type { SessionSkipReason, TokenSource, TriggerInput } from "../plan.js";
export { TRUNCATED_CHECKPOINT_HEADING, truncatedCheckpoint, type SummaryLevel, type TruncatedCheckpoint, type TruncatedCheckpointInput } from "../fallback.js";
export { CHECKPOINT_SECTIONS, CHECKPOINT_TEMPLATE, checkpointMessage, checkpointSource, NEW_MESSAGES_HEADING, PREVIOUS_SUMMARY_HEADING, type CheckpointInput } from "../template.js";
export { countLines, defaultPruneSettings, describeToolResult, exitCodeOf, oneLine, type InvalidPruneOptions, type PrunedResult } from "../prune.js";
export type { ForceCompactInput, TryCompactInput } from "../compactor.js";
