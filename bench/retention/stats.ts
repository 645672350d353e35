/**
 * Pure statistics of the retention tables: per contender and budget, the pooled share (sum kept /
 * sum scored over the sessions), with a session-clustered bootstrap 95% interval (sessions
 * resampled with replacement, the share recomputed); paired differences of two contenders use the
 * same resamples. A mean over budgets exists for the selection objective only; the tables report
 * each budget on its own.
 */
import { seededRandom } from "./policies.js";
import type { FactCounts, ReplayScore } from "./replay.js";

/**
 * The metrics reported: needed facts kept / available / recoverable, the same for the distant
 * ones, re-access kept and action grounding.
 */
export type MetricName =
  | "needed.kept"
  | "needed.available"
  | "needed.recoverable"
  | "distant.kept"
  | "distant.available"
  | "distant.recoverable"
  | "reaccess"
  | "grounding";

/** All metrics, in column order. */
export const METRICS: readonly MetricName[] = [
  "needed.kept",
  "needed.available",
  "needed.recoverable",
  "distant.kept",
  "distant.available",
  "distant.recoverable",
  "reaccess",
  "grounding",
];

/**
 * Numerator and denominator of a metric in one replay (a recoverable share is of every needed
 * fact, so kept ≤ available and available + recoverable ≤ 1).
 *
 * @example counts(score, "needed.available") // [score.needed.available, score.needed.n]
 */
export function counts(r: ReplayScore, metric: MetricName): readonly [number, number] {
  if (metric === "reaccess") return [r.reaccess.kept, r.reaccess.n];
  if (metric === "grounding") return [r.grounding.kept, r.grounding.n];
  const [group, field] = metric.split(".") as ["needed" | "distant", keyof Omit<FactCounts, "n">];
  const c = r[group];
  return [c[field], c.n];
}

/** Per session and budget share: numerator and denominator (averaged over repeated replays). */
export interface Cell {
  readonly session: string;
  readonly budget: number;
  readonly num: number;
  readonly den: number;
}

/**
 * Cells of one contender and metric, one per (session, budget share).
 *
 * @example cells(scores.filter((r) => r.policy === "lru"), "needed.available")
 */
export function cells(scores: readonly ReplayScore[], metric: MetricName): Cell[] {
  const groups = new Map<string, { session: string; budget: number; num: number; den: number; runs: number }>();
  for (const r of scores) {
    const key = `${r.session}\u0000${r.share}`;
    const g = groups.get(key) ?? { session: r.session, budget: r.share, num: 0, den: 0, runs: 0 };
    const [a, b] = counts(r, metric);
    g.num += a;
    g.den += b;
    g.runs++;
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => ({
    session: g.session,
    budget: g.budget,
    num: g.num / g.runs,
    den: g.den / g.runs,
  }));
}

/**
 * Mean over budgets of the pooled share; budgets where nothing was scored are left out (NaN when none is left).
 *
 * @example meanOverBudgets([{ session: "a", budget: 1, num: 1, den: 2 }, { session: "a", budget: 2, num: 1, den: 1 }]) // 0.75
 */
export function meanOverBudgets(cs: readonly Cell[], weights?: ReadonlyMap<string, number>): number {
  const byBudget = new Map<number, [number, number]>();
  for (const c of cs) {
    const w = weights?.get(c.session) ?? 1;
    if (w === 0) continue;
    const s = byBudget.get(c.budget) ?? [0, 0];
    s[0] += w * c.num;
    s[1] += w * c.den;
    byBudget.set(c.budget, s);
  }
  const shares = [...byBudget.values()].filter(([, d]) => d > 0).map(([a, d]) => a / d);
  return shares.length === 0 ? Number.NaN : shares.reduce((x, y) => x + y, 0) / shares.length;
}

/**
 * Session resamples: for each replicate, how often each session was drawn — every session has an
 * entry, 0 when it was not drawn (an absent entry would weigh 1 in {@link meanOverBudgets}).
 */
export function resamples(sessions: readonly string[], reps: number, seed: number): ReadonlyMap<string, number>[] {
  const rnd = seededRandom(seed);
  const out: Map<string, number>[] = [];
  for (let r = 0; r < reps; r++) {
    const w = new Map<string, number>(sessions.map((s) => [s, 0]));
    for (let i = 0; i < sessions.length; i++) {
      const s = sessions[Math.floor(rnd() * sessions.length)]!;
      w.set(s, (w.get(s) ?? 0) + 1);
    }
    out.push(w);
  }
  return out;
}

/** A value with its 95% interval. */
export interface Estimate {
  readonly value: number;
  readonly lo: number;
  readonly hi: number;
}

function percentile(xs: readonly number[], p: number): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const at = Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))));
  return s[at]!;
}

/**
 * The mean over budgets with its session-clustered bootstrap 95% interval (percentile method).
 *
 * @example estimate(cells(lru, "reaccess"), resamples(names, 1000, 7))
 */
export function estimate(cs: readonly Cell[], draws: readonly ReadonlyMap<string, number>[]): Estimate {
  const values = draws.map((w) => meanOverBudgets(cs, w));
  return { value: meanOverBudgets(cs), lo: percentile(values, 0.025), hi: percentile(values, 0.975) };
}

/**
 * The difference a − b of two policies' means over budgets, with the interval from the same
 * session resamples (paired).
 *
 * @example difference(cells(imp, "grounding"), cells(lru, "grounding"), draws)
 */
export function difference(
  a: readonly Cell[],
  b: readonly Cell[],
  draws: readonly ReadonlyMap<string, number>[],
): Estimate {
  const values = draws.map((w) => meanOverBudgets(a, w) - meanOverBudgets(b, w));
  return {
    value: meanOverBudgets(a) - meanOverBudgets(b),
    lo: percentile(values, 0.025),
    hi: percentile(values, 0.975),
  };
}

/**
 * "62.3 (55.1–70.2)" in percent, or "n/a".
 *
 * @example formatEstimate({ value: 0.5, lo: 0.4, hi: 0.6 }) // "50.0 (40.0–60.0)"
 */
export function formatEstimate(e: Estimate): string {
  if (!Number.isFinite(e.value)) return "n/a";
  const p = (x: number): string => (Number.isFinite(x) ? (100 * x).toFixed(1) : "n/a");
  return `${p(e.value)} (${p(e.lo)}–${p(e.hi)})`;
}
