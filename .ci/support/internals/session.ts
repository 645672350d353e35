/**
 * What the tests and benchmarks reach inside @cc/session: its building blocks, imported from its sources.
 * Private (this package is never published); `@cc/session/internal` holds only what sibling packages import.
 *
 * @module @cc/test-support/session
 */
export { type StackId } from "../../../packages/session/src/store/store.js";
export { SQLITE_MIGRATIONS } from "../../../packages/session/src/store/sqlite.js";

export { limitHistory } from "../../../packages/session/src/context.js";
export type { CompactionDone, CompactionFailed, CompactionWarning } from "../../../packages/session/src/events.js";

export { TRUNCATED_SUMMARY_HEADING, truncatedSummary } from "../../../packages/session/src/fallback.js";
export {
  SUMMARY_SECTIONS,
  SUMMARY_TEMPLATE,
  sessionSummaryMessage,
  NEW_MESSAGES_HEADING,
  PREVIOUS_SUMMARY_HEADING,
} from "../../../packages/session/src/template.js";
export { describeToolResult } from "../../../packages/session/src/prune.js";
export {
  planSummary,
  saveSummary,
  summarise,
  type Loaded,
  type Pass,
  type Skipped,
  type SummaryDecision,
  type SummaryJob,
} from "../../../packages/session/src/compactor.js";

export {
  checkDraft,
  checkId,
  checkMessages,
  checkNow,
  checkStackId,
  decodeContent,
  decodeMessage,
  encodeContent,
  encodeMessage,
  watermarkProblem,
} from "../../../packages/session/src/store/validate.js";

export {
  decideTrigger,
  planCompaction,
  type CompactionPlan,
  type TriggerDecision,
} from "../../../packages/session/src/plan.js";
