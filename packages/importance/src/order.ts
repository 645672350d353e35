/**
 * Ordering of segments by score without a full comparator sort.
 *
 * Scores are finite (pinned ones are `+Infinity` and handled by the callers). The score range
 * [min, max] is cut into equal-width buckets; `bucket(s) = min(nb − 1, floor((s − min) · scale))`
 * is monotone in `s` (IEEE subtraction, multiplication by a positive constant and floor are all
 * monotone), so bucket order agrees with score order. A stable counting pass by bucket keeps the
 * input order inside each bucket; only within a bucket do we compare scores (ties by position).
 * The result is identical to a stable sort by (score, position), in expected linear time.
 */

/** Order of two positions by (score ascending, position ascending); NaN-free for finite and ±Infinity scores. */
export function compareByScore(scores: Float64Array, a: number, b: number): number {
  const sa = scores[a]!;
  const sb = scores[b]!;
  return sa < sb ? -1 : sa > sb ? 1 : a - b;
}

/** Sorts `out[lo, hi)` (positions in ascending order) by (score, position). */
export function sortRange(scores: Float64Array, out: Uint32Array, lo: number, hi: number): void {
  if (hi - lo <= 24) {
    for (let k = lo + 1; k < hi; k++) {
      const v = out[k]!;
      const s = scores[v]!;
      let j = k - 1;
      // Strict comparison: equal scores never move, so the position order is kept.
      while (j >= lo && scores[out[j]!]! > s) {
        out[j + 1] = out[j]!;
        j--;
      }
      out[j + 1] = v;
    }
    return;
  }
  out.subarray(lo, hi).sort((a, b) => compareByScore(scores, a, b));
}

/** Equal-width bucketing of the finite score range [min, max]. */
export interface Bucketing {
  readonly min: number;
  readonly scale: number;
  readonly count: number;
}

/** Bucketing of [min, max] into at most `wanted` buckets (one bucket when the range is degenerate). */
export function bucketing(min: number, max: number, wanted: number): Bucketing {
  const count = Math.max(1, wanted | 0);
  const scale = max > min ? count / (max - min) : 0;
  return Number.isFinite(scale) ? { min, scale, count } : { min, scale: 0, count: 1 };
}

/** Bucket of a finite score; monotone non-decreasing in `s`. */
export function bucketOf(s: number, min: number, scale: number, count: number): number {
  const b = Math.floor((s - min) * scale);
  return b < count ? b : count - 1;
}

/**
 * Positions `idx` (ascending, finite scores) reordered by (score, position).
 *
 * @example
 * sortByScore(new Float64Array([0.5, 0.1, 0.5]), Uint32Array.of(0, 1, 2)); // [1, 0, 2]
 */
export function sortByScore(scores: Float64Array, idx: Uint32Array): Uint32Array {
  const m = idx.length;
  if (m < 2) return idx.slice();
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < m; k++) {
    const s = scores[idx[k]!]!;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  if (min === max) return idx.slice();
  const { scale, count } = bucketing(min, max, Math.min(m >>> 1, 1 << 20));
  const start = new Uint32Array(count + 1);
  for (let k = 0; k < m; k++) start[bucketOf(scores[idx[k]!]!, min, scale, count) + 1]!++;
  for (let b = 0; b < count; b++) start[b + 1]! += start[b]!;
  const fill = start.slice(0, count);
  const out = new Uint32Array(m);
  for (let k = 0; k < m; k++) {
    const i = idx[k]!;
    out[fill[bucketOf(scores[i]!, min, scale, count)]!++] = i;
  }
  for (let b = 0; b < count; b++) {
    const lo = start[b]!;
    const hi = start[b + 1]!;
    if (hi - lo > 1) sortRange(scores, out, lo, hi);
  }
  return out;
}
