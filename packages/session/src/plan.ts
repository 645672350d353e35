/**
 * The pure decisions of session compaction: whether this turn triggers it, and which stored
 * messages a compaction folds into the summary.
 *
 * @module session/plan
 */
import { tokensReaching } from "@cc/tokens";
import { safeSplit } from "@cc/messages";
import type { StoredMessage } from "./store/store.js";

/** Why a compaction did nothing. */
export type SessionSkipReason =
  "Ephemeral" | "BelowThreshold" | "TooFewMessages" | "EmptySummary" | "ConcurrentCompaction";

/** Where the token figure that drove the trigger came from. */
export type TokenSource = "reported" | "estimated";

/**
 * The trigger's verdict.
 *
 * @example decideTrigger({ lastInputTokens: 100, ephemeral: false, maxTokens: 32000, threshold: 0.8, estimate: () => 0 }) // { _tag: "Hold", reason: "BelowThreshold", … }
 */
export type TriggerDecision =
  | { readonly _tag: "Trigger"; readonly effectiveTokens: number; readonly source: TokenSource }
  | {
      readonly _tag: "Hold";
      readonly reason: "Ephemeral" | "BelowThreshold";
      readonly effectiveTokens: number;
      readonly source: TokenSource;
    };

/** Inputs of {@link decideTrigger}. */
export interface TriggerInput {
  /** Input tokens the provider reported for the previous turn; 0 when it reported none. */
  readonly lastInputTokens: number;
  /** Short-lived sessions (cron jobs, one-shot tasks) are never compacted. */
  readonly ephemeral: boolean;
  /** The input budget of the model, in tokens. */
  readonly maxTokens: number;
  /** Share of `maxTokens` at which compaction starts, in [0, 1] (0 = always). */
  readonly threshold: number;
  /** Weighted estimate of what the next prompt would hold; used when nothing was reported. */
  readonly estimate: () => number;
}

/**
 * Trigger on the previous turn's reported input tokens (the estimate when that is 0): compact
 * when they reach `threshold × maxTokens`. Ephemeral sessions always hold. Pure.
 *
 * @example decideTrigger({ lastInputTokens: 26000, ephemeral: false, maxTokens: 32000, threshold: 0.8, estimate: () => 0 })._tag // "Trigger"
 */
export function decideTrigger(input: TriggerInput): TriggerDecision {
  if (input.ephemeral) return { _tag: "Hold", reason: "Ephemeral", effectiveTokens: 0, source: "reported" };
  const source: TokenSource = input.lastInputTokens > 0 ? "reported" : "estimated";
  const effectiveTokens = source === "reported" ? input.lastInputTokens : input.estimate();
  return effectiveTokens >= tokensReaching(input.threshold, input.maxTokens)
    ? { _tag: "Trigger", effectiveTokens, source }
    : { _tag: "Hold", reason: "BelowThreshold", effectiveTokens, source };
}

/**
 * Which messages a compaction folds in (`summarise`) and which stay verbatim (`keep`).
 *
 * @example const plan = planCompaction(stored, 6); if (plan._tag === "Fold") console.log(plan.coversUpTo);
 */
export type CompactionPlan =
  | {
      readonly _tag: "Fold";
      readonly summarise: readonly StoredMessage[];
      readonly keep: readonly StoredMessage[];
      /** The new watermark: the id of the last folded message. */
      readonly coversUpTo: number;
    }
  | { readonly _tag: "Nothing"; readonly reason: "TooFewMessages" };

/**
 * Splits the messages after the current watermark: all but the newest `preserveLast` are folded,
 * and the boundary moves back so a tool result is never separated from the assistant message
 * that called it. Nothing to do when at most `preserveLast` messages lie past the watermark. Pure.
 *
 * @example
 * planCompaction(stored.slice(0, 8), 6) // Fold (of eight stored messages): summarise 2, keep 6
 */
export function planCompaction(afterWatermark: readonly StoredMessage[], preserveLast: number): CompactionPlan {
  if (afterWatermark.length <= preserveLast) return { _tag: "Nothing", reason: "TooFewMessages" };
  // Stored system messages are history like any other here: the live system prompt is passed to
  // buildContext separately, so the split may fold them.
  const split = safeSplitIgnoringSystem(afterWatermark, preserveLast);
  if (split <= 0) return { _tag: "Nothing", reason: "TooFewMessages" };
  const summarise = afterWatermark.slice(0, split);
  return {
    _tag: "Fold",
    summarise,
    keep: afterWatermark.slice(split),
    coversUpTo: summarise[summarise.length - 1]!.id,
  };
}

/** `safeSplit` with leading system messages treated as ordinary history. */
function safeSplitIgnoringSystem(afterWatermark: readonly StoredMessage[], preserveLast: number): number {
  const asUser = afterWatermark.map((m) =>
    m.message.role === "system" ? { role: "user" as const, content: m.message.content } : m.message,
  );
  return safeSplit(asUser, preserveLast);
}
