/**
 * Budgeted eviction: drop the lowest-scoring segments until the token budget holds.
 *
 * Identity is the position in the input (never the id), pinned segments are never evicted,
 * `minKeep` counts surviving segments (pinned included), and keep/evict preserve input order.
 * What is evicted is exactly the shortest prefix of the non-pinned rank (score ascending, ties by
 * position, the newest `keepNewest` last, oldest first) that brings the total to ≤ maxTokens, cut
 * short when `minKeep` would be violated.
 *
 * Speed: one scoring pass into a Float64Array, one bucket histogram of tokens per score range,
 * and an exact (score, position) sort of the single boundary bucket only — no full sort.
 */
import { ageContext, newestMask } from "./age.js";
import { resolveOptions, type ClockProblem } from "./options.js";
import { bucketOf, bucketing, sortRange } from "./order.js";
import { measure } from "./score.js";
import type { EvictionTarget, ScoringOptions, Segment } from "./segment.js";

/**
 * Outcome of {@link compact}: the caller's own objects, split by position, in input order.
 *
 * @example
 * const r: CompactResult<Segment> = compact(segments, { maxTokens: 8000 }, { now: () => Date.now() });
 * if (r.clock !== undefined) console.warn(r.clock.message);
 */
export interface CompactResult<S extends Segment> {
  /** Survivors, in input order. */
  readonly keep: readonly S[];
  /** Evicted segments, in input order. */
  readonly evict: readonly S[];
  /** Total tokens of the input. */
  readonly tokensBefore: number;
  /** Total tokens of `keep`. */
  readonly tokensAfter: number;
  /**
   * True when `tokensAfter <= maxTokens` (or there is no budget: `maxTokens <= 0`, NaN or empty
   * input). False when pins or `minKeep` stop the eviction above the budget.
   */
  readonly budgetMet: boolean;
  /**
   * Present when the clock could not be read (missing, threw, not finite): the pass ran with the
   * recency axis left out, so the order follows reuse and cost only.
   */
  readonly clock?: ClockProblem;
}

/** A field of the target, or `undefined` when the target is not an object or the read throws. */
const field = (target: unknown, key: "maxTokens" | "minKeep"): unknown => {
  if (typeof target !== "object" || target === null) return undefined;
  try {
    return (target as Readonly<Record<string, unknown>>)[key];
  } catch {
    return undefined;
  }
};

/** `minKeep` as a whole count ≥ 0 (invalid values count as 0, fractions round up). */
const minKeepOf = (m: unknown): number => (typeof m === "number" && m > 0 ? Math.ceil(m) : 0);

/**
 * Evicts lowest-score-first until the total is at most `target.maxTokens`. Pinned segments are
 * never evicted and at least `target.minKeep` segments survive. `maxTokens <= 0` (or NaN) or an
 * empty input evicts nothing. Reads the clock once — a missing, throwing or non-finite clock is
 * reported as `clock` and the recency axis is left out; never throws on bad option values (see
 * `resolveOptions`); token sums are exact while the total stays below 2^53.
 *
 * @example
 * const { keep, evict, budgetMet } = compact(segments, { maxTokens: 8000, minKeep: 4 }, { now: () => Date.now() });
 */
export function compact<S extends Segment>(
  segments: readonly S[],
  target: EvictionTarget,
  options: ScoringOptions,
): CompactResult<S> {
  const n = segments.length;
  const r = resolveOptions(options);
  const age = ageContext(segments, r);
  const tokens = new Float64Array(n);
  const scores = new Float64Array(n);
  let total = 0;
  let free = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const m = measure(segments[i], r, age, i);
    tokens[i] = m.tokens;
    total += m.tokens;
    if (m.score === Number.POSITIVE_INFINITY) {
      scores[i] = Number.POSITIVE_INFINITY;
    } else {
      const s = m.score;
      scores[i] = s;
      free++;
      if (s < min) min = s;
      if (s > max) max = s;
    }
  }
  const read = field(target, "maxTokens");
  const maxTokens = typeof read === "number" && read > 0 ? read : 0;
  const noBudget = maxTokens === 0;
  const maxEvict = Math.min(free, n - Math.min(n, minKeepOf(field(target, "minKeep"))));
  if (noBudget || total <= maxTokens || maxEvict <= 0) {
    return {
      keep: segments.slice(),
      evict: [],
      tokensBefore: total,
      tokensAfter: total,
      budgetMet: noBudget || total <= maxTokens,
      ...(r.clock === undefined ? {} : { clock: r.clock }),
    };
  }
  const evicted = new Uint8Array(n);
  const gone = selectTiered(
    scores,
    tokens,
    { need: total - maxTokens, maxEvict, free, min, max },
    r.keepNewest,
    evicted,
  );
  // Exact-size outputs: no growth copies of million-element arrays.
  const keep = new Array<S>(n - gone.count);
  const evict = new Array<S>(gone.count);
  for (let i = 0, k = 0, e = 0; i < n; i++) {
    if (evicted[i] === 1) evict[e++] = segments[i] as S;
    else keep[k++] = segments[i] as S;
  }
  const after = total - gone.tokens;
  return {
    keep,
    evict,
    tokensBefore: total,
    tokensAfter: after,
    budgetMet: after <= maxTokens,
    ...(r.clock === undefined ? {} : { clock: r.clock }),
  };
}

/**
 * Evicts among the non-pinned segments outside the newest `keepNewest` first (by score); only
 * when they are all gone and more must leave, the newest ones go, oldest first.
 */
function selectTiered(
  scores: Float64Array,
  tokens: Float64Array,
  sel: Selection,
  keepNewest: number,
  evicted: Uint8Array,
): { readonly count: number; readonly tokens: number } {
  const newest = newestMask(scores, keepNewest);
  if (newest.count === 0) return selectEvictions(scores, tokens, sel, evicted);
  const older = new Float64Array(scores);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < older.length; i++) {
    if (newest.mask[i] === 1) {
      older[i] = Number.POSITIVE_INFINITY;
      continue;
    }
    const s = older[i]!;
    if (s === Number.POSITIVE_INFINITY) continue;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  const free = sel.free - newest.count;
  let count = 0;
  let goneTokens = 0;
  if (free > 0) {
    const first = selectEvictions(
      older,
      tokens,
      { ...sel, maxEvict: Math.min(sel.maxEvict, free), free, min, max },
      evicted,
    );
    count = first.count;
    goneTokens = first.tokens;
  }
  for (let i = 0; i < scores.length && goneTokens < sel.need && count < sel.maxEvict; i++) {
    if (newest.mask[i] !== 1) continue;
    evicted[i] = 1;
    goneTokens += tokens[i]!;
    count++;
  }
  return { count, tokens: goneTokens };
}

interface Selection {
  /** Tokens that must leave: total − maxTokens (> 0). */
  readonly need: number;
  /** Most segments that may leave (≥ 1). */
  readonly maxEvict: number;
  /** Number of non-pinned segments and their score range. */
  readonly free: number;
  readonly min: number;
  readonly max: number;
}

/**
 * Marks in `evicted` the shortest (score, position)-prefix of the finite-score positions whose
 * tokens reach `need`, capped at `maxEvict` segments. Returns how many segments and tokens go.
 */
function selectEvictions(
  scores: Float64Array,
  tokens: Float64Array,
  sel: Selection,
  evicted: Uint8Array,
): { readonly count: number; readonly tokens: number } {
  const n = scores.length;
  const { min, scale, count } = bucketing(sel.min, sel.max, Math.min(sel.free >>> 3, 1 << 16));
  const cnt = new Uint32Array(count);
  const tok = new Float64Array(count);
  for (let i = 0; i < n; i++) {
    const s = scores[i]!;
    if (s === Number.POSITIVE_INFINITY) continue;
    const b = bucketOf(s, min, scale, count);
    cnt[b]!++;
    tok[b]! += tokens[i]!;
  }
  let goneTokens = 0;
  let goneCount = 0;
  let boundary = count - 1;
  for (let b = 0; b < count; b++) {
    if (goneTokens + tok[b]! >= sel.need || goneCount + cnt[b]! >= sel.maxEvict) {
      boundary = b;
      break;
    }
    goneTokens += tok[b]!;
    goneCount += cnt[b]!;
  }
  const members = new Uint32Array(cnt[boundary]!);
  for (let i = 0, j = 0; i < n; i++) {
    const s = scores[i]!;
    if (s === Number.POSITIVE_INFINITY) continue;
    const b = bucketOf(s, min, scale, count);
    if (b < boundary) evicted[i] = 1;
    else if (b === boundary) members[j++] = i;
  }
  sortRange(scores, members, 0, members.length);
  for (let k = 0; k < members.length && goneTokens < sel.need && goneCount < sel.maxEvict; k++) {
    const i = members[k]!;
    evicted[i] = 1;
    goneTokens += tokens[i]!;
    goneCount++;
  }
  return { count: goneCount, tokens: goneTokens };
}
