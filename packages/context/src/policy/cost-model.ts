/**
 * The cost model: when to compact, and how far down, so that the prompt cache pays.
 *
 * A compaction rewrites the prompt from its first changed message on, so the next call pays the
 * cache-write price instead of the cached price for that suffix of the compacted prompt (the
 * "rewrite cost" K, plus the summariser's call when an LLM writes the summary). The messages
 * before it — the leading system messages, which no compaction touches — stay cached and are not
 * charged ({@link rewriteCharge}). In exchange every later turn sends `saved` fewer tokens, each
 * at the cached price (the "saving per turn" S). The decision, pure:
 *
 * 1. *Cycle* (the economic order quantity): a prompt that grows by `g` tokens a turn and is
 *    compacted from `T` back to `A` costs, per turn, `K·g/(T−A) + c·(A+T)/2` (c = cached price).
 *    The mean prompt `(A+T)/2` is what the prompt holds — the retention side of the trade-off — so
 *    it is fixed at the *centre* (a setting, `cycleCentre`; default the trigger), and the rewrites
 *    are minimised around it: `T − A = Δ = √(2·K·g/c)`, compact at `T = centre + h` down to
 *    `A = centre − h`, `h = min(Δ/2, hard − centre, centre − floor)`: a clamp at the hard
 *    threshold or the floor narrows the cycle instead of shifting its mean. With caching on, Δ is
 *    large: wait as long as the clamps allow, then cut as far below the centre — one rewrite
 *    instead of one per turn; a lower centre is cheaper and keeps less. With caching off and no LLM summary, K = 0
 *    and Δ = 0: keep the prompt at the centre, compacting whenever it grows past it (a flat
 *    prompt keeps more of what is re-accessed than a saw-tooth of the same mean).
 * 2. *Horizon*: over the turns left, the saving `S·turns` must repay `K` — unless the prompt
 *    would reach the hard threshold before the session ends (a compaction is then due anyway).
 *
 * @module policy/cost-model
 */
import type { PriceSheet } from "./prices.js";

/** What the cost model is told about one turn. All token figures are integers ≥ 0. */
export interface CostInput {
  /** Tokens of the prompt as it would be sent without compacting. */
  readonly promptTokens: number;
  /** The trigger (tokens): the manager's threshold. */
  readonly triggerTokens: number;
  /** The mean prompt (tokens) the cycle keeps (`floorTokens` ≤ it ≤ `hardTokens`). Absent: the trigger. */
  readonly centreTokens?: number;
  /**
   * Leading tokens of the prompt a compaction leaves byte-identical (the leading system
   * messages): they stay cached, so the rewrite is charged from after them. Absent: 0.
   */
  readonly stablePrefixTokens?: number;
  /** The lowest target (tokens) a compaction may cut to. */
  readonly floorTokens: number;
  /** The hard threshold (tokens): at or above it a compaction is due whatever it costs. */
  readonly hardTokens: number;
  /** Tokens the summariser reads and writes for this compaction (0, 0 when no LLM is called). */
  readonly summaryInputTokens: number;
  readonly summaryOutputTokens: number;
  /** Tokens the prompt grows by per turn (measured so far). */
  readonly growthPerTurn: number;
  /** Turns expected after this one (a setting, or estimated from the session so far). */
  readonly remainingTurns: number;
  readonly prices: PriceSheet;
}

/** The figures behind a cost decision (USD, tokens), reported with it. */
export interface CostEstimate {
  /** What compacting now costs on top of not compacting: rewrite of the prefix + summariser. */
  readonly rewriteCost: number;
  /** What every later turn saves. */
  readonly savingPerTurn: number;
  /** `savingPerTurn ×` the turns it is counted over. */
  readonly horizonSaving: number;
  /** The prompt size at which compacting pays (the top of the cycle), in tokens. */
  readonly breakEvenTokens: number;
  /** What a compaction cuts to (the bottom of the cycle), in tokens. */
  readonly targetTokens: number;
  /** True when waiting would reach the hard threshold before the session ends. */
  readonly hardWithinHorizon: boolean;
}

/** The verdict of {@link costVerdict}. */
export type CostVerdict =
  | { readonly _tag: "Pays"; readonly estimate: CostEstimate }
  /** The prompt is below the break-even size: a rewrite would cost more than it saves per cycle. */
  | { readonly _tag: "BelowBreakEven"; readonly estimate: CostEstimate }
  /** Too few turns remain for the saving to repay the rewrite. */
  | { readonly _tag: "HorizonTooShort"; readonly estimate: CostEstimate };

const perToken = (usdPerMtok: number): number => usdPerMtok / 1_000_000;

/**
 * What rewriting the prompt costs on top of sending it cached (USD, pure): the compacted prompt of
 * `targetTokens` tokens, of which the first `stablePrefixTokens` (before the first changed
 * message) are still a cache hit, pays the cache-write price for the rest instead of the cached
 * one. Never negative; at most the whole-prompt charge `targetTokens × (write − cached)`, equal to
 * it when the first message changes (`stablePrefixTokens = 0`).
 *
 * @example rewriteCharge(50_000, 2_000, PRICE_SHEETS["anthropic/claude-sonnet-4"]) // 48_000 × (3.75 − 0.3) / 1e6
 */
export function rewriteCharge(targetTokens: number, stablePrefixTokens: number, prices: PriceSheet): number {
  const changed = Math.max(0, targetTokens - Math.max(0, stablePrefixTokens));
  return changed * Math.max(0, perToken(prices.cacheWrite) - perToken(prices.cachedInput));
}

/**
 * The figures of {@link CostEstimate} for one turn (pure).
 *
 * @example
 * estimateCost({ promptTokens: 90_000, triggerTokens: 80_000, floorTokens: 50_000, hardTokens: 95_000, summaryInputTokens: 0,
 *   summaryOutputTokens: 0, growthPerTurn: 2_000, remainingTurns: 30, prices: PRICE_SHEETS["anthropic/claude-sonnet-4"] })
 */
export function estimateCost(i: CostInput): CostEstimate {
  const c = perToken(i.prices.cachedInput);
  const summary = i.summaryInputTokens * perToken(i.prices.input) + i.summaryOutputTokens * perToken(i.prices.output);
  const rewrite = (a: number): number => rewriteCharge(a, i.stablePrefixTokens ?? 0, i.prices) + summary;
  const g = Math.max(1, i.growthPerTurn);
  const centre = Math.min(i.hardTokens, Math.max(i.floorTokens, i.centreTokens ?? i.triggerTokens));
  const gap = (k: number): number => (c > 0 ? Math.sqrt((2 * k * g) / c) : k > 0 ? Number.MAX_SAFE_INTEGER : 0);
  const cycle = (delta: number): { top: number; target: number } => {
    const half = Math.max(0, Math.min(delta / 2, i.hardTokens - centre, centre - i.floorTokens));
    return { top: centre + half, target: centre - half };
  };
  // K depends on the target and the target on K: one refinement from the centre is enough.
  const first = cycle(gap(rewrite(centre)));
  const rewriteCost = rewrite(first.target);
  const { top, target } = cycle(gap(rewriteCost));
  const savingPerTurn = Math.max(0, i.promptTokens - target) * c;
  const hardWithinHorizon = i.promptTokens + g * i.remainingTurns >= i.hardTokens;
  return {
    rewriteCost,
    savingPerTurn,
    horizonSaving: savingPerTurn * (1 + i.remainingTurns),
    breakEvenTokens: Math.ceil(top),
    targetTokens: Math.floor(target),
    hardWithinHorizon,
  };
}

/**
 * Decides whether compacting now pays (pure): the prompt must be at or above the break-even
 * size, and the saving over the remaining turns must repay the rewrite unless the hard threshold
 * would be reached first. With caching off the saving is counted at the input price.
 *
 * @example
 * const v = costVerdict(input);
 * if (v._tag === "Pays") console.log(`compact to ${v.estimate.targetTokens} tokens`);
 */
export function costVerdict(i: CostInput): CostVerdict {
  const estimate = estimateCost(i);
  if (i.promptTokens < estimate.breakEvenTokens) return { _tag: "BelowBreakEven", estimate };
  if (!estimate.hardWithinHorizon && estimate.horizonSaving < estimate.rewriteCost)
    return { _tag: "HorizonTooShort", estimate };
  return { _tag: "Pays", estimate };
}

/** Tokens of one request split by how they are billed. */
export interface InputBill {
  readonly cachedTokens: number;
  readonly uncachedTokens: number;
}

/**
 * The input cost (USD) of one request: the cached prefix at the cached price, the rest at the
 * cache-write price (with caching off the sheet makes both the input price).
 *
 * @example inputCost({ cachedTokens: 9_000, uncachedTokens: 1_000 }, PRICE_SHEETS["openai/gpt-4.1"])
 */
export function inputCost(bill: InputBill, prices: PriceSheet): number {
  return bill.cachedTokens * perToken(prices.cachedInput) + bill.uncachedTokens * perToken(prices.cacheWrite);
}
