/**
 * Sums of replays per (split, corpus, policy, sheet) and the rows and goals the cost benchmark
 * reports from them, pure.
 */
import type { ReplayFigures } from "./replay.js";

/** Running sums of the replays in one cell. */
export interface Totals {
  cost: number;
  compactions: number;
  tokensSent: number;
  cachedTokens: number;
  kept: number;
  reaccesses: number;
  neededKept: number;
  needed: number;
  budgetMisses: number;
  turns: number;
  sessions: number;
  decisions: Record<string, number>;
}

/** A cell with nothing in it. */
export const emptyTotals = (): Totals => ({
  cost: 0,
  compactions: 0,
  tokensSent: 0,
  cachedTokens: 0,
  kept: 0,
  reaccesses: 0,
  neededKept: 0,
  needed: 0,
  budgetMisses: 0,
  turns: 0,
  sessions: 0,
  decisions: {},
});

/**
 * Adds one replay, billed under `sheet`, to `t`.
 *
 * @example addReplay(cell, figures, "with caching")
 */
export function addReplay(t: Totals, f: ReplayFigures, sheet: string): void {
  t.cost += f.cost[sheet] ?? 0;
  t.compactions += f.compactions;
  t.tokensSent += f.tokensSent;
  t.cachedTokens += f.cachedTokens;
  t.kept += f.reaccessKept;
  t.reaccesses += f.reaccessTotal;
  t.neededKept += f.neededKept;
  t.needed += f.neededTotal;
  t.budgetMisses += f.budgetMisses;
  t.turns += f.turns;
  t.sessions++;
  for (const [k, v] of Object.entries(f.decisions)) t.decisions[k] = (t.decisions[k] ?? 0) + v;
}

/** The split a row is on: development, evaluation, or both pooled. */
export type RowSplit = "dev" | "eval" | "all";

/** One reported row (cost.json `rows`). */
export interface CostRow {
  readonly split: RowSplit;
  readonly corpus: string;
  readonly sheet: string;
  readonly policy: string;
  readonly sessions: number;
  readonly turns: number;
  readonly inputCostUsd: number;
  readonly cutVsThresholdPct: number;
  readonly compactions: number;
  readonly cacheHitPct: number;
  readonly tokensSent: number;
  readonly retentionPct: number;
  readonly reaccesses: number;
  /** Share of needed facts held by the prompt the agent saw (bench/retention/needed.ts), %. */
  readonly neededKeptPct: number;
  readonly budgetMisses: number;
  readonly decisions: Readonly<Record<string, number>>;
}

/**
 * The row of one cell; `thresholdCost` is the `threshold` policy's cost in the same split, corpus and sheet.
 *
 * @example rowOf(totals, "eval", "all", "with caching", "cost", 63.07)
 */
export function rowOf(
  t: Totals,
  split: RowSplit,
  corpus: string,
  sheet: string,
  policy: string,
  thresholdCost: number,
): CostRow {
  return {
    split,
    corpus,
    sheet,
    policy,
    sessions: t.sessions,
    turns: t.turns,
    inputCostUsd: Number(t.cost.toFixed(4)),
    cutVsThresholdPct: thresholdCost > 0 ? Number((100 * (1 - t.cost / thresholdCost)).toFixed(1)) : 0,
    compactions: t.compactions,
    cacheHitPct: t.tokensSent > 0 ? Number(((100 * t.cachedTokens) / t.tokensSent).toFixed(1)) : 0,
    tokensSent: t.tokensSent,
    retentionPct: t.reaccesses > 0 ? Number(((100 * t.kept) / t.reaccesses).toFixed(2)) : 0,
    reaccesses: t.reaccesses,
    neededKeptPct: t.needed > 0 ? Number(((100 * t.neededKept) / t.needed).toFixed(2)) : 0,
    budgetMisses: t.budgetMisses,
    decisions: t.decisions,
  };
}

/** How the cost model (`cost`, its defaults) fares against the other policies of one split and sheet. */
export interface Goal {
  readonly split: RowSplit;
  readonly sheet: string;
  readonly costModelCheapest: boolean;
  readonly cheapestPolicy: string;
  readonly cheapestRetentionPct: number;
  /** The best retention of any policy minus the cost model's, in points. */
  readonly retentionGapPts: number;
  readonly bestRetentionPolicy: string;
  readonly cutVsThresholdPct: number;
}

/**
 * The goals of the pooled rows (`corpus` "all") of one split and sheet, against the policies
 * other than the sweep (`cost@<c>`); ties count as cheapest. Undefined without a `cost` row.
 *
 * @example goalOf(rows, "eval", "with caching")?.costModelCheapest
 */
export function goalOf(rows: readonly CostRow[], split: RowSplit, sheet: string): Goal | undefined {
  const here = rows.filter(
    (r) => r.split === split && r.corpus === "all" && r.sheet === sheet && !r.policy.startsWith("cost@"),
  );
  const cost = here.find((r) => r.policy === "cost");
  if (cost === undefined) return undefined;
  const cheapest = here.reduce((m, r) => (r.inputCostUsd < m.inputCostUsd ? r : m));
  const keeper = here.reduce((m, r) => (r.retentionPct > m.retentionPct ? r : m));
  return {
    split,
    sheet,
    costModelCheapest: cost.inputCostUsd <= cheapest.inputCostUsd,
    cheapestPolicy: cheapest.policy,
    cheapestRetentionPct: cheapest.retentionPct,
    retentionGapPts: Number((keeper.retentionPct - cost.retentionPct).toFixed(2)),
    bestRetentionPolicy: keeper.policy,
    cutVsThresholdPct: cost.cutVsThresholdPct,
  };
}
