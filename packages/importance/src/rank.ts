/**
 * The eviction order: ascending score, stable on input position, pinned last.
 */
import { resolveOptions } from "./options.js";
import { sortByScore } from "./order.js";
import { scoreResolved } from "./score.js";
import type { ScoringOptions, Segment } from "./segment.js";

/**
 * Segments ordered lowest score first (the order in which they would be evicted). Equal scores
 * keep their input order; pinned segments come last, in input order. Returns the caller's own
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
  const scores = new Float64Array(n);
  let pinned = 0;
  for (let i = 0; i < n; i++) {
    const s = scoreResolved(segments[i] as S, r);
    scores[i] = s;
    if (s === Number.POSITIVE_INFINITY) pinned++;
  }
  const free = new Uint32Array(n - pinned);
  const pins = new Uint32Array(pinned);
  for (let i = 0, f = 0, p = 0; i < n; i++) {
    if (scores[i] === Number.POSITIVE_INFINITY) pins[p++] = i;
    else free[f++] = i;
  }
  const order = sortByScore(scores, free);
  const out = new Array<S>(n);
  for (let k = 0; k < order.length; k++) out[k] = segments[order[k]!] as S;
  for (let k = 0; k < pinned; k++) out[order.length + k] = segments[pins[k]!] as S;
  return out;
}
