/**
 * @cc/importance — pure importance scoring, ranking and budgeted eviction of context segments.
 *
 * @example
 * import { compact, formatEvictionReport } from "@cc/importance";
 * const r = compact(segments, { maxTokens: 8000 }, { now: () => Date.now() });
 * console.log(formatEvictionReport(segments.length, r.tokensBefore, r.keep.length, r.tokensAfter));
 */
export type { AgeMode, EvictionTarget, ImportanceOptions, ScoringOptions, Segment } from "./segment.js";
export { readClock, type ClockProblem } from "./options.js";
export {
  AGENT_PRESET,
  DEFAULT_AGE,
  DEFAULT_HALF_LIFE_TURNS,
  DEFAULT_KEEP_NEWEST,
  DEFAULT_COST_WEIGHT,
  DEFAULT_HALF_LIFE_MS,
  DEFAULT_RECENCY_WEIGHT,
  DEFAULT_REUSE_WEIGHT,
  MAX_WEIGHT,
} from "./segment.js";
export { estimatedTokens, score } from "./score.js";
export { rank } from "./rank.js";
export { compact, type CompactResult } from "./compact.js";
export { compactChecked, rankChecked } from "./checked.js";
export { formatEvictionReport } from "./report.js";
export {
  decodeSegmentsJson,
  ensureSegmentsValid,
  validateEvictionTarget,
  validateImportanceOptions,
  type MalformedJson,
} from "./validate.js";
export type { InvalidInput, InvalidOptions, Problem } from "@cc/validate";
export { EvictionTargetCodec, ImportanceOptionsCodec, SegmentCodec, SegmentsCodec } from "./codec/codecs.js";
