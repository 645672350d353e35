/**
 * Session-layer internals shared with tests and sibling @cc packages. Not part of the public API.
 *
 * @module @cc/session/internal
 */
export { MAX_STACK_ID_LENGTH, type StackId, type StoreBackend } from "../store/store.js";
export { SQLITE_MIGRATIONS } from "../store/sqlite.js";
export { POSTGRES_MIGRATIONS } from "../store/postgres.js";
export { SessionCompactionConfigCodec, triggerTokens, type InvalidSessionConfig } from "../config.js";
export { limitHistory, type BuildContextInput, type InvalidContextOptions } from "../context.js";
export type { CompactionDone, CompactionFailed, CompactionTrigger, CompactionWarning, EventBusOptions } from "../events.js";
export type { SessionSkipReason, TokenSource, TriggerInput } from "../plan.js";
export { TRUNCATED_SUMMARY_HEADING, truncatedSummary, type SummaryLevel, type TruncatedSummary, type TruncatedSummaryInput } from "../fallback.js";
export { SUMMARY_SECTIONS, SUMMARY_TEMPLATE, sessionSummaryMessage, summarySource, NEW_MESSAGES_HEADING, PREVIOUS_SUMMARY_HEADING, type SummaryPromptInput } from "../template.js";
export { countLines, defaultPruneSettings, describeToolResult, exitCodeOf, oneLine, type InvalidPruneOptions, type PrunedResult } from "../prune.js";
export {
  planSummary,
  saveSummary,
  summarise,
  type ForceCompactInput,
  type Loaded,
  type Pass,
  type Skipped,
  type SummariseDeps,
  type SummaryDecision,
  type SummaryJob,
  type TryCompactInput,
} from "../compactor.js";
export { PruneOptionsCodec, PruneSettingsCodec } from "../prune.js";
export { STORE_INPUT } from "../store/validate.js";
export { checkDraft, checkId, checkMessages, checkNow, checkStackId, decodeContent, decodeMessage, encodeContent, encodeMessage, watermarkProblem } from "../store/validate.js";
export { ChatSessionOptionsCodec } from "../chat-session.js";
export { ForceCompactInputCodec, SessionCompactorOptionsCodec, TryCompactInputCodec } from "../compactor.js";
export { decideTrigger, planCompaction, type CompactionPlan, type TriggerDecision } from "../plan.js";
