/**
 * What the tests and benchmarks reach inside @cc/lcm: its building blocks, imported from its sources.
 * Private (this package is never published); `@cc/lcm/internal` holds only what sibling packages import.
 *
 * @module @cc/test-support/lcm
 */
export { describeRejection, minSummaryBudget } from "../../../packages/lcm/src/compactor.js";
export { deliverAlert } from "../../../packages/lcm/src/alerts.js";
export { escalate, judge } from "../../../packages/lcm/src/escalation.js";
export { clipHeadTail, headOf } from "../../../packages/lcm/src/clip.js";
export { strengthTiers, cheapestModel } from "../../../packages/lcm/src/model-choice.js";

export { summaryPrompt } from "../../../packages/lcm/src/prompts.js";
export { type InvalidProviderOptions } from "../../../packages/lcm/src/providers/http.js";
export { createRunRemover, displayUrl, urlSecrets } from "../../../packages/lcm/src/providers/redact.js";
export { extractiveSummary } from "../../../packages/lcm/src/providers/offline.js";

export { type Step } from "../../../packages/lcm/src/providers/offline/facts.js";
export {
  defaultTranscriptLimits,
  TRANSCRIPT_CLOSE,
  TRANSCRIPT_OPEN,
  wrapTranscript,
} from "../../../packages/lcm/src/transcript.js";
export type { CompactionAborted } from "../../../packages/lcm/src/escalation.js";
