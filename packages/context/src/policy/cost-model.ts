/**
 * The cost model: when to compact, and how far down, so that the prompt cache pays.
 *
 * A compaction rewrites the prompt prefix, so the next call pays the cache-write price for the
 * whole compacted prompt instead of the cached price (the "rewrite cost" K, plus the summariser's
 * call when an LLM writes the summary). In exchange every later turn sends `saved` fewer tokens,
 * each at the cached price (the "saving per turn" S). The decision, pure:
 *
 * 1. *Cycle* (the economic order quantity): a prompt that grows by `g` tokens a turn and is
 *    compacted from `T` back to `A` costs, per turn, `K·g/(T−A) + c·(A+T)/2` (c = cached price),
 *    least when `T − A = Δ = √(2·K·g/c)`. The cycle is centred on the trigger — compact at
 *    `min(hard, trigger + Δ/2)` down to `max(floor, that − Δ)` — so the prompt holds about as much
 *    as with compact-at-threshold. With caching on, Δ is large: wait up to the hard threshold, then
 *    cut to the floor, one rewrite instead of one per turn. With caching off and no LLM summary,
 *    K = 0 and Δ = 0: compact at the trigger to just under it, as often as needed.
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
  /** The trigger (tokens): the cycle is centred on it. */
  readonly triggerTokens: number;
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
 * The figures of {@link CostEstimate} for one turn (pure).
 *
 * @example
 * estimateCost({ promptTokens: 90_000, triggerTokens: 80_000, floorTokens: 50_000, hardTokens: 95_000, summaryInputTokens: 0,
 *   summaryOutputTokens: 0, growthPerTurn: 2_000, remainingTurns: 30, prices: PRICE_SHEETS["anthropic/claude-sonnet-4"] })
 */
export function estimateCost(i: CostInput): CostEstimate {
  const c = perToken(i.prices.cachedInput);
  const w = perToken(i.prices.cacheWrite);
  const summary = i.summaryInputTokens * perToken(i.prices.input) + i.summaryOutputTokens * perToken(i.prices.output);
  const rewrite = (a: number): number => a * Math.max(0, w - c) + summary;
  const g = Math.max(1, i.growthPerTurn);
  const gap = (k: number): number => (c > 0 ? Math.sqrt((2 * k * g) / c) : k > 0 ? Number.MAX_SAFE_INTEGER : 0);
  const cycle = (delta: number): { top: number; target: number } => {
    const top = Math.min(i.hardTokens, i.triggerTokens + delta / 2);
    return { top, target: Math.max(i.floorTokens, Math.min(i.triggerTokens, top - delta)) };
  };
  // K depends on the target and the target on K: one refinement from the trigger is enough.
  const first = cycle(gap(rewrite(i.triggerTokens)));
  const rewriteCost = rewrite(first.target);
  const { top, target } = cycle(gap(rewriteCost));
  const savingPerTurn = Math.max(0, i.promptTokens - target) * c;
  const hardWithinHorizon = i.promptTokens + g * i.remainingTurns >= i.hardTokens;
  return { rewriteCost, savingPerTurn, horizonSaving: savingPerTurn * (1 + i.remainingTurns), breakEvenTokens: Math.ceil(top), targetTokens: Math.floor(target), hardWithinHorizon };
}

/**
 * Decides whether compacting now pays (pure): the prompt must be at or above the break-even
 * size, and the saving over the remaining turns must repay the rewrite unless the hard threshold
 * would be reached first. With caching off the saving is counted at the input price.
 *
 * @example
 * const v = costVerdict(input);
 * if (v._tag === "Pays") compactTo(v.estimate.targetTokens);
 */
export function costVerdict(i: CostInput): CostVerdict {
  const estimate = estimateCost(i);
  if (i.promptTokens < estimate.breakEvenTokens) return { _tag: "BelowBreakEven", estimate };
  if (!estimate.hardWithinHorizon && estimate.horizonSaving < estimate.rewriteCost) return { _tag: "HorizonTooShort", estimate };
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
