/**
 * Session-layer internals shared with tests and sibling @cc packages. Not part of the public API.
 *
 * @module @cc/session/internal
 */
export { type StackId } from "../store/store.js";
export { SQLITE_MIGRATIONS } from "../store/sqlite.js";

export { limitHistory } from "../context.js";
export type { CompactionDone, CompactionFailed, CompactionWarning } from "../events.js";

export { TRUNCATED_SUMMARY_HEADING, truncatedSummary } from "../fallback.js";
export { SUMMARY_SECTIONS, SUMMARY_TEMPLATE, sessionSummaryMessage, NEW_MESSAGES_HEADING, PREVIOUS_SUMMARY_HEADING } from "../template.js";
export { describeToolResult } from "../prune.js";
export { planSummary, saveSummary, summarise, type Loaded, type Pass, type Skipped, type SummaryDecision, type SummaryJob } from "../compactor.js";

export { checkDraft, checkId, checkMessages, checkNow, checkStackId, decodeContent, decodeMessage, encodeContent, encodeMessage, watermarkProblem } from "../store/validate.js";

export { decideTrigger, planCompaction, type CompactionPlan, type TriggerDecision } from "../plan.js";
