/**
 * The eviction order: ascending score, stable on input position; then the newest `keepNewest`
 * non-pinned segments, oldest first; pinned last.
 */
import { ageContext, newestMask } from "./age.js";
import { resolveOptions } from "./options.js";
import { sortByScore } from "./order.js";
import { measure } from "./score.js";
import type { ScoringOptions, Segment } from "./segment.js";

/**
 * Segments ordered lowest score first (the order in which they would be evicted). Equal scores
 * keep their input order; the newest `keepNewest` non-pinned segments follow in input order
 * (oldest first), whatever their score; pinned segments come last, in input order. Returns the caller's own
 * objects; the input array is not modified. Reads the clock once; a missing, throwing or
 * non-finite clock leaves the recency axis out (use `readClock` to be told). Never throws, also not
 * on sparse arrays (a hole ranks as an empty segment).
 *
 * @example
 * const order = rank(segments, { now: () => Date.now() });
 * order[0]; // the first segment `compact` would evict
 */
export function rank<S extends Segment>(segments: readonly S[], options: ScoringOptions): S[] {
  const n = segments.length;
  const r = resolveOptions(options);
  const age = ageContext(segments, r);
  const scores = new Float64Array(n);
  let pinned = 0;
  for (let i = 0; i < n; i++) {
    const s = measure(segments[i], r, age, i).score;
    scores[i] = s;
    if (s === Number.POSITIVE_INFINITY) pinned++;
  }
  const newest = newestMask(scores, r.keepNewest);
  const free = new Uint32Array(n - pinned - newest.count);
  const tail = new Uint32Array(newest.count + pinned);
  for (let i = 0, f = 0, p = 0; i < n; i++) {
    if (newest.mask[i] === 1) tail[p++] = i;
    else if (scores[i] !== Number.POSITIVE_INFINITY) free[f++] = i;
  }
  for (let i = 0, p = newest.count; i < n; i++) if (scores[i] === Number.POSITIVE_INFINITY) tail[p++] = i;
  const order = sortByScore(scores, free);
  const out = new Array<S>(n);
  for (let k = 0; k < order.length; k++) out[k] = segments[order[k]!] as S;
  for (let k = 0; k < tail.length; k++) out[order.length + k] = segments[tail[k]!] as S;
  return out;
}
