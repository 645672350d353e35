/**
 * Medians of fresh-process samples with a distribution-free interval (order statistics), pure.
 *
 * @module bench/namespaces/stats
 */

/** The median of `xs` (NaN when empty). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
function binomialCdfHalf(n: number, k: number): number {
  let term = 0.5 ** n;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

/** A median with the order-statistic interval around it and the interval's exact coverage. */
export interface MedianInterval {
  readonly median: number;
  readonly lo: number;
  readonly hi: number;
  /** Coverage of [lo, hi] for the population median (≥ 0.95 when n ≥ 6; lower below). */
  readonly coverage: number;
}

/**
 * The median of `xs` and the widest-needed order-statistic interval [x₍ⱼ₎, x₍ₙ₊₁₋ⱼ₎] that covers
 * the population median with probability ≥ 95 % (for any continuous distribution); with fewer
 * than 6 samples, [min, max] and its lower coverage.
 *
 * @example medianInterval([...20 samples]) // lo = 6th smallest, hi = 15th smallest, coverage 0.959
 */
export function medianInterval(xs: readonly number[]): MedianInterval {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return { median: Number.NaN, lo: Number.NaN, hi: Number.NaN, coverage: 0 };
  let j = 1;
  while (j + 1 <= n / 2 && 1 - 2 * binomialCdfHalf(n, j) >= 0.95) j++;
  return { median: median(s), lo: s[j - 1]!, hi: s[n - j]!, coverage: 1 - 2 * binomialCdfHalf(n, j - 1) };
}
