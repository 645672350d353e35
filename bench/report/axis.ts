/**
 * Logarithmic axes: the decade range that covers the data, readable tick values and labels
 * ("1k", "10M", "0.01").
 */

/** Inclusive log10 range of an axis, in whole decades. */
export interface LogRange {
  readonly minExp: number;
  readonly maxExp: number;
}

/** The whole decades covering every finite positive value; `undefined` when there is none. */
export function logRange(values: readonly number[]): LogRange | undefined {
  const ok = values.filter((v) => Number.isFinite(v) && v > 0);
  if (ok.length === 0) return undefined;
  const minExp = Math.floor(Math.log10(Math.min(...ok)) + 1e-9);
  let maxExp = Math.ceil(Math.log10(Math.max(...ok)) - 1e-9);
  if (maxExp <= minExp) maxExp = minExp + 1;
  return { minExp, maxExp };
}

/**
 * Tick values of a log axis: every decade, plus 2 and 5 within each decade when the axis spans
 * at most three decades (so a narrow axis still has several labels).
 *
 * @example logTicks({ minExp: 3, maxExp: 6 }) // [1000, 10000, 100000, 1000000]
 */
export function logTicks(range: LogRange): number[] {
  const span = range.maxExp - range.minExp;
  const out: number[] = [];
  for (let e = range.minExp; e <= range.maxExp; e++) {
    const base = 10 ** e;
    out.push(base);
    if (span <= 3 && e < range.maxExp) out.push(2 * base, 5 * base);
  }
  return out.map((v) => Number(v.toPrecision(12)));
}

const SUFFIXES: readonly (readonly [number, string])[] = [
  [1e12, "T"],
  [1e9, "G"],
  [1e6, "M"],
  [1e3, "k"],
];

/**
 * Short label of a tick value: SI suffixes from 1k up, plain decimals below.
 *
 * @example formatTick(2_000_000) // "2M"
 */
export function formatTick(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  for (const [scale, suffix] of SUFFIXES) {
    if (abs >= scale) return `${Number((v / scale).toPrecision(3))}${suffix}`;
  }
  return String(Number(v.toPrecision(3)));
}
