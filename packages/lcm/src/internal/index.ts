/**
 * Building blocks other @cc packages share with @cc/lcm (the session layer, the orchestration
 * entry). Not part of the public API: no stability promise, not documented for applications.
 *
 * @module @cc/lcm/internal
 */
export { describeRejection, minSummaryBudget } from "../compactor.js";
export { deliverAlert, type AlertDeliveryFailure } from "../alerts.js";
export { escalate, judge, type Escalated, type EscalationInput } from "../escalation.js";
export { clipHeadTail, headOf, omissionMarker, safeIndex, tailOf } from "../clip.js";
export { strengthRank, strengthTiers, cheapestModel } from "../model-choice.js";
export { CompactOptionsInputCodec } from "../options.js";
export { summaryPrompt, type PromptLevel } from "../prompts.js";
export { classifyStatus, httpProviderDefaults, HttpProviderOptionsCodec, retryAfterMs, type HttpProviderConfig, type InvalidProviderOptions } from "../providers/http.js";
export { createRunRemover, displayUrl, MIN_LITERAL_SECRET_LENGTH, REDACTED, SECRET_RUN_LENGTH, urlSecrets } from "../providers/redact.js";
export { extractiveSummary, OFFLINE_MIN_BUDGET, OFFLINE_MODEL, summaryBudget } from "../providers/offline.js";
export { renderSummary } from "../providers/offline/render.js";
export { ERROR_LINE, isErrorLine, type Step } from "../providers/offline/facts.js";
export { defaultTranscriptLimits, serialiseMessage, TRANSCRIPT_CLOSE, TRANSCRIPT_OPEN, wrapTranscript } from "../transcript.js";
export type { CompactionAborted, Rejection } from "../escalation.js";
