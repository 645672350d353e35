/**
 * Fast exact-to-rounding exponential decay: `halvings(x) = 2^(−x)` for x ≥ 0.
 *
 * `Math.pow` costs ~65 ns a call here and is the bulk of a scoring pass; `Math.exp` is ~4× faster
 * but `exp(−x·ln 2)` loses accuracy as x grows (the rounding of x·ln 2 is amplified: 8 ulps at
 * x = 60). Splitting x = n + f keeps both: `2^(−n)` is an exact power of two from a table and
 * `exp(−f·ln 2)` with f ∈ [0, 1) is within about one ulp. Integer x are exact.
 */

/** 2^(−n) for n = 0 … 1074 (the last is the smallest subnormal); exact. */
const POW2_NEG: Float64Array = (() => {
  const t = new Float64Array(1075);
  let v = 1;
  for (let n = 0; n < t.length; n++) {
    t[n] = v;
    v /= 2;
  }
  return t;
})();

/**
 * 2^(−x) for x ≥ 0 (x ≤ 0 gives 1; x beyond the double range gives 0; NaN gives 0).
 *
 * @example
 * halvings(1); // 0.5
 * halvings(0.47); // 0.7219645977612481
 */
export function halvings(x: number): number {
  if (!(x > 0)) return x === x ? 1 : 0;
  if (x >= 1075) return 0;
  const n = Math.floor(x);
  const f = x - n;
  const whole = POW2_NEG[n]!;
  return f === 0 ? whole : whole * Math.exp(-f * Math.LN2);
}
