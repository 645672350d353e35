/**
 * @cc/lcm — lossless context management: when usage crosses a soft or hard threshold, summarise
 * the older part of a conversation by escalation (detailed → bullets → deterministic truncation
 * that always converges), keeping leading system messages and a verbatim tail with every tool
 * call paired with its results.
 *
 * @example
 * import { createLcmCompactor, nextContext, offlineProvider } from "@cc/lcm";
 * const lcm = createLcmCompactor({ provider: offlineProvider() });
 * const r = await lcm.compact(history, { maxTokens: 8000, preserveLast: 6 })();
 * if (r._tag === "Right") console.log(nextContext(r.right).length); // the messages of the next request
 *
 * @module @cc/lcm
 */
export {
  createLcmCompactor,
  nextContext,
  type CompactError,
  type CompactionResult,
  type LcmCompactor,
  type LcmCompactorOptions,
  type TailDecision,
} from "./compactor.js";
export { decodeCompactOptions, defaultCompactOptions, type CompactOptions } from "./options.js";
export { describeWarnings, type CompactionWarning } from "./warnings.js";
export { pressureOf, type ContextUsage, type Pressure } from "./pressure.js";
export type { Attempt, Level } from "./escalation.js";
export { truncateToBudget, type TruncateOptions, type Truncation } from "./truncate.js";
export {
  memoryAlertSink,
  type AlertSink,
  type BudgetExceededAlert,
  type CompactionAlert,
  type CompactionSkipAlert,
  type MemoryAlertSink,
} from "./alerts.js";
export { offlineProvider, type OfflineProviderOptions, type SummaryStyle } from "./providers/offline.js";
export { decodeHttpProviderOptions, openAICompatibleProvider, type HttpProviderOptions } from "./providers/http.js";
export { createRedactor, redactSecrets } from "./providers/redact.js";
export { guardProvider } from "./providers/guard.js";
export { serialiseTranscript, type TranscriptLimits } from "./transcript.js";
export { chooseCompactionModel, type ModelChoiceError } from "./model-choice.js";
export type { CompactionAborted } from "./escalation.js";
export type { HttpProviderConfig } from "./providers/http-options.js";
