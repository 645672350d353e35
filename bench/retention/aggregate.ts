/**
 * Pure aggregation of replay outcomes into the published table: per source, policy and budget,
 * the share of re-accesses kept and the share kept or recovered from the index.
 */
import type { ReplayOutcome } from "./evaluate.js";

/** One row of the retention table. */
export interface RetentionRow {
  readonly source: string;
  readonly policy: string;
  readonly fraction: number;
  readonly sessions: number;
  readonly evaluated: number;
  readonly kept: number;
  readonly recovered: number;
  /** `kept / evaluated` (NaN when nothing was evaluated). */
  readonly keptShare: number;
  /** `(kept + recovered) / evaluated`. */
  readonly withIndexShare: number;
  readonly evictedMessages: number;
}

const share = (a: number, b: number): number => (b === 0 ? Number.NaN : a / b);

/**
 * Sums outcomes by (source, policy, fraction), plus an "all" source over every session, in the
 * order policies and fractions first appear.
 *
 * @example aggregate(outcomes).find((r) => r.source === "all" && r.policy === "fifo" && r.fraction === 0.5)?.keptShare
 */
export function aggregate(outcomes: readonly ReplayOutcome[]): RetentionRow[] {
  const groups = new Map<string, ReplayOutcome[]>();
  const sources = [...new Set(outcomes.map((o) => o.source))];
  const add = (source: string, o: ReplayOutcome): void => {
    const key = JSON.stringify([source, o.policy, o.fraction]);
    groups.set(key, [...(groups.get(key) ?? []), o]);
  };
  for (const o of outcomes) {
    if (sources.length > 1) add(o.source, o);
    add("all", o);
  }
  return [...groups.entries()].map(([key, os]) => {
    const [source, policy, fraction] = JSON.parse(key) as [string, string, number];
    const evaluated = os.reduce((s, o) => s + o.evaluated, 0);
    const kept = os.reduce((s, o) => s + o.kept, 0);
    const recovered = os.reduce((s, o) => s + o.recovered, 0);
    return {
      source,
      policy,
      fraction,
      sessions: os.length,
      evaluated,
      kept,
      recovered,
      keptShare: share(kept, evaluated),
      withIndexShare: share(kept + recovered, evaluated),
      evictedMessages: os.reduce((s, o) => s + o.evictedMessages, 0),
    };
  });
}

/** Percentage with one decimal ("n/a" when undefined). */
export function percent(x: number): string {
  return Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "n/a";
}
