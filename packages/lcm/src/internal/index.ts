/**
 * Building blocks other @cc packages share with @cc/lcm (the session layer, the orchestration
 * entry). Not part of the public API: no stability promise, not documented for applications.
 *
 * @module @cc/lcm/internal
 */
export { describeRejection, minSummaryBudget } from "../compactor.js";
export { deliverAlert } from "../alerts.js";
export { escalate, judge } from "../escalation.js";
export { clipHeadTail, headOf } from "../clip.js";
export { strengthTiers, cheapestModel } from "../model-choice.js";

export { summaryPrompt } from "../prompts.js";
export { type InvalidProviderOptions } from "../providers/http.js";
export { createRunRemover, displayUrl, urlSecrets } from "../providers/redact.js";
export { extractiveSummary } from "../providers/offline.js";

export { type Step } from "../providers/offline/facts.js";
export { defaultTranscriptLimits, TRANSCRIPT_CLOSE, TRANSCRIPT_OPEN, wrapTranscript } from "../transcript.js";
export type { CompactionAborted } from "../escalation.js";
