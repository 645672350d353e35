/**
 * Pure aggregation of replay outcomes into the published tables: per source, configuration and
 * budget, the share of re-accesses kept and the share kept or recovered from the index. A
 * configuration replayed with several seeds (random) is pooled over its seeds, and the spread of
 * the per-seed shares is reported beside the pooled share.
 */
import type { ReplayOutcome } from "./evaluate.js";

/** One row of the retention table. */
export interface RetentionRow {
  readonly source: string;
  readonly policy: string;
  readonly fraction: number;
  readonly sessions: number;
  /** Seeds the configuration was replayed with (1 for deterministic policies). */
  readonly seeds: number;
  /** Re-accesses scored, per seed. */
  readonly evaluated: number;
  /** Kept in context, mean per seed. */
  readonly kept: number;
  /** Recovered from the index, mean per seed. */
  readonly recovered: number;
  /** `kept / evaluated` pooled over seeds (NaN when nothing was evaluated). */
  readonly keptShare: number;
  /** `(kept + recovered) / evaluated` pooled over seeds. */
  readonly withIndexShare: number;
  /** Lowest and highest per-seed `keptShare`. */
  readonly keptRange: readonly [number, number];
  /** Lowest and highest per-seed `withIndexShare`. */
  readonly withIndexRange: readonly [number, number];
  /** Messages evicted, mean per seed. */
  readonly evictedMessages: number;
}

interface Sums {
  evaluated: number;
  kept: number;
  recovered: number;
  evicted: number;
}

const share = (a: number, b: number): number => (b === 0 ? Number.NaN : a / b);

function range(xs: readonly number[]): readonly [number, number] {
  const finite = xs.filter(Number.isFinite);
  return finite.length === 0 ? [Number.NaN, Number.NaN] : [Math.min(...finite), Math.max(...finite)];
}

/**
 * Sums outcomes by (source, configuration, fraction), plus an "all" source over every session
 * when there is more than one source, in the order configurations and fractions first appear.
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
    const bySeed = new Map<number, Sums>();
    for (const o of os) {
      const s = bySeed.get(o.seed) ?? { evaluated: 0, kept: 0, recovered: 0, evicted: 0 };
      s.evaluated += o.evaluated;
      s.kept += o.kept;
      s.recovered += o.recovered;
      s.evicted += o.evictedMessages;
      bySeed.set(o.seed, s);
    }
    const seeds = [...bySeed.values()];
    const total = (f: (s: Sums) => number): number => seeds.reduce((a, s) => a + f(s), 0);
    const evaluated = total((s) => s.evaluated);
    const kept = total((s) => s.kept);
    const recovered = total((s) => s.recovered);
    return {
      source,
      policy,
      fraction,
      sessions: new Set(os.map((o) => o.session)).size,
      seeds: seeds.length,
      evaluated: evaluated / seeds.length,
      kept: kept / seeds.length,
      recovered: recovered / seeds.length,
      keptShare: share(kept, evaluated),
      withIndexShare: share(kept + recovered, evaluated),
      keptRange: range(seeds.map((s) => share(s.kept, s.evaluated))),
      withIndexRange: range(seeds.map((s) => share(s.kept + s.recovered, s.evaluated))),
      evictedMessages: total((s) => s.evicted) / seeds.length,
    };
  });
}

/** Percentage with one decimal ("n/a" when undefined). */
export function percent(x: number): string {
  return Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "n/a";
}

/**
 * A share with its per-seed spread when there is one: "73.2% (70.1–75.0)".
 *
 * @example percentWithRange(0.5, [0.5, 0.5]) // "50.0%"
 */
export function percentWithRange(x: number, [lo, hi]: readonly [number, number]): string {
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi - lo < 0.0005) return percent(x);
  return `${percent(x)} (${(100 * lo).toFixed(1)}–${(100 * hi).toFixed(1)})`;
}
