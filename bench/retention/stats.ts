/**
 * Pure statistics of the retention tables: per policy, the mean over budgets of a pooled share
 * (sum kept / sum scored over the sessions, per budget), with a session-clustered bootstrap 95%
 * interval (sessions resampled with replacement, the share recomputed; seeds of one session are
 * averaged first, so a random policy's seeds are not independent sessions).
 */
import { seededRandom } from "./policies.js";
import type { ReplayScore } from "./replay.js";

/** The metrics reported: re-access kept, kept or recovered by the index, by grep; grounding likewise. */
export type MetricName = "reaccess" | "reaccess+index" | "reaccess+grep" | "grounding" | "grounding+index";

/** All metrics, in column order. */
export const METRICS: readonly MetricName[] = ["reaccess", "reaccess+index", "reaccess+grep", "grounding", "grounding+index"];

/** Numerator and denominator of a metric in one replay. */
export function counts(r: ReplayScore, metric: MetricName): readonly [number, number] {
  const c = metric.startsWith("reaccess") ? r.reaccess : r.grounding;
  const extra = metric.endsWith("+index") ? c.index : metric.endsWith("+grep") ? c.grep : 0;
  return [c.kept + extra, c.n];
}

/** Per session and budget: numerator and denominator averaged over seeds. */
export interface Cell {
  readonly session: string;
  readonly budget: number;
  readonly num: number;
  readonly den: number;
}

/**
 * Cells of one policy and metric (seeds averaged).
 *
 * @example cells(scores.filter((r) => r.policy === "lru"), "reaccess")
 */
export function cells(scores: readonly ReplayScore[], metric: MetricName): Cell[] {
  const groups = new Map<string, { session: string; budget: number; num: number; den: number; seeds: number }>();
  for (const r of scores) {
    const key = `${r.session}\u0000${r.budget}`;
    const g = groups.get(key) ?? { session: r.session, budget: r.budget, num: 0, den: 0, seeds: 0 };
    const [a, b] = counts(r, metric);
    g.num += a;
    g.den += b;
    g.seeds++;
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => ({ session: g.session, budget: g.budget, num: g.num / g.seeds, den: g.den / g.seeds }));
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
export function difference(a: readonly Cell[], b: readonly Cell[], draws: readonly ReadonlyMap<string, number>[]): Estimate {
  const values = draws.map((w) => meanOverBudgets(a, w) - meanOverBudgets(b, w));
  return { value: meanOverBudgets(a) - meanOverBudgets(b), lo: percentile(values, 0.025), hi: percentile(values, 0.975) };
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
