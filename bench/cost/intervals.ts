/**
 * Session-bootstrap intervals of the cost benchmark, pure: the relative difference of two
 * policies' total input cost over the same sessions, with its 95% interval from the session
 * resamples of the retention benchmark (`resamples` of bench/retention/stats.ts, paired: both
 * totals are taken over the same draw).
 */
import type { Estimate } from "../retention/stats.js";

/**
 * `sum(a) / sum(b) − 1` over the sessions of `a` (each weighted by how often a draw holds it),
 * the point estimate on every session once; `b` must hold the same sessions.
 *
 * @example relativeDifference(new Map([["s", 9]]), new Map([["s", 10]]), resamples(["s"], 100, 7)) // { value: -0.1, lo: -0.1, hi: -0.1 }
 */
export function relativeDifference(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  draws: readonly ReadonlyMap<string, number>[],
): Estimate {
  const ratio = (w?: ReadonlyMap<string, number>): number => {
    let sa = 0;
    let sb = 0;
    for (const [s, x] of a) {
      const k = w === undefined ? 1 : (w.get(s) ?? 0);
      sa += k * x;
      sb += k * (b.get(s) ?? Number.NaN);
    }
    return sb > 0 ? sa / sb - 1 : Number.NaN;
  };
  const values = draws
    .map((w) => ratio(w))
    .filter(Number.isFinite)
    .sort((x, y) => x - y);
  const at = (q: number): number =>
    values.length === 0
      ? Number.NaN
      : values[Math.min(values.length - 1, Math.max(0, Math.round(q * (values.length - 1))))]!;
  return { value: ratio(), lo: at(0.025), hi: at(0.975) };
}
