/**
 * The importance score of one segment: higher means "keep".
 *
 *   pinned                → +Infinity
 *   otherwise             → recencyWeight · 2^(-age/halfLife)
 *                         + reuseWeight   · (1 − 1/(1+accessCount))
 *                         + relevanceWeight · relevance (in [0, 1]; default weight 0)
 *                         + costWeight    · 100/(100+tokens)
 *                         + kindWeights[kind] (0 when the kind is not weighted)
 *
 * On the clock: age = now − (lastAccessed ?? createdAt) over recencyHalfLifeMs, clamped at 0 (a
 * future timestamp counts as "now"); an unknown age — or an unreadable clock — gives recency 0.
 * In turns: age = currentTurn − (lastAccessedTurn ?? turn ?? position) over recencyHalfLifeTurns
 * (see age.ts for which measure a call uses). Each axis lies in [0, 1], weights in [0, MAX_WEIGHT], so a
 * non-pinned score is always finite and never NaN.
 */
import { ageContext, lastTurnOf, type AgeContext } from "./age.js";
import { halvings } from "./decay.js";
import { resolveOptions, type ResolvedOptions } from "./options.js";
import type { ImportanceOptions, ScoringOptions, Segment } from "./segment.js";

const MAX_TOKENS = Number.MAX_SAFE_INTEGER;

/** A token count as used in sums: rounded up and capped at 2^53 − 1 (a huge cost stays huge). */
const asCount = (x: number): number => (x < MAX_TOKENS ? Math.ceil(x) : MAX_TOKENS);

/** Tokens of a segment under resolved options (see {@link estimatedTokens}). */
export function tokensOf(segment: Segment, estimate: ((content: string) => number) | undefined): number {
  const cost = segment.tokenCost;
  if (typeof cost === "number" && cost >= 0) return asCount(cost);
  const content = typeof segment.content === "string" ? segment.content : "";
  if (estimate !== undefined) {
    try {
      const e = estimate(content);
      if (typeof e === "number" && e >= 0 && e < Number.POSITIVE_INFINITY) return asCount(e);
    } catch {
      // A failing estimator falls back to the built-in estimate for this segment.
    }
  }
  return Math.ceil(content.length / 4);
}

/** Recency in turns: 2^(−(currentTurn − last-used turn)/halfLife), 1 for a future turn. */
function turnRecency(segment: Segment, position: number, r: ResolvedOptions, age: AgeContext): number {
  const elapsed = age.currentTurn - lastTurnOf(segment, position);
  return elapsed > 0 ? halvings(elapsed / r.halfLifeTurns) : 1;
}

/** Score added by the segment's kind (0 when its kind is not weighted). */
function kindScore(segment: Segment, r: ResolvedOptions): number {
  const kind = segment.kind;
  return typeof kind === "string" && r.kindWeights.size > 0 ? (r.kindWeights.get(kind) ?? 0) : 0;
}

/** Score of a non-pinned segment at `position` whose tokens are already known. */
export function scoreWithTokens(
  segment: Segment,
  tokens: number,
  r: ResolvedOptions,
  age: AgeContext,
  position: number,
): number {
  const acc = segment.accessCount;
  const reuse = typeof acc === "number" && acc > 0 ? 1 - 1 / (1 + acc) : 0;
  const cost = 100 / (100 + tokens);
  const recency = age.mode === "turns" ? turnRecency(segment, position, r, age) : clockRecency(segment, r);
  const rel = segment.relevance;
  const relevance = typeof rel === "number" && rel > 0 ? Math.min(1, rel) : 0;
  return (
    r.recencyWeight * recency +
    r.reuseWeight * reuse +
    r.relevanceWeight * relevance +
    r.costWeight * cost +
    kindScore(segment, r)
  );
}

/** Recency on the wall clock (0 when the age or the clock is unknown). */
function clockRecency(segment: Segment, r: ResolvedOptions): number {
  const last = segment.lastAccessed;
  const created = segment.createdAt;
  const ref =
    typeof last === "number" && Number.isFinite(last)
      ? last
      : typeof created === "number" && Number.isFinite(created)
        ? created
        : Number.NaN;
  let recency = 0;
  if (ref === ref && r.now !== undefined) {
    const age = r.now - ref;
    recency = age > 0 ? halvings(age / r.halfLifeMs) : 1;
  }
  return recency;
}

const EMPTY: Segment = { id: "", content: "" };

/**
 * Tokens and score of the segment at one position, never throwing: a hole in a sparse array, a
 * non-object, or a segment whose getters throw counts as an empty, unpinned segment (the codecs
 * reject all of these; the pure functions only must not throw on them).
 */
export function measure(
  segment: unknown,
  r: ResolvedOptions,
  age: AgeContext,
  position: number,
): { readonly tokens: number; readonly score: number } {
  const seg = typeof segment === "object" && segment !== null ? (segment as Segment) : EMPTY;
  try {
    const tokens = tokensOf(seg, r.estimate);
    return {
      tokens,
      score: seg.pinned === true ? Number.POSITIVE_INFINITY : scoreWithTokens(seg, tokens, r, age, position),
    };
  } catch {
    return { tokens: 0, score: scoreWithTokens(EMPTY, 0, r, age, position) };
  }
}

/**
 * Importance of one segment (higher = keep). Pinned → `+Infinity`; otherwise a finite number ≥ 0.
 * Alone, a segment is at position 0 of its call: in turns its age is `currentTurn` (an option)
 * minus its `lastAccessedTurn ?? turn`, 0 when neither is known. Reads the clock once; a missing, throwing or non-finite clock leaves the recency axis out (use
 * `readClock` to be told). Invalid option values fall back to their defaults (see `resolveOptions`).
 *
 * @example
 * score({ id: "a", content: "", tokenCost: 100, lastAccessed: 0 }, { now: () => 0 }); // 1 + 0 + 0.25 = 1.25
 */
export function score(segment: Segment, options: ScoringOptions): number {
  const r = resolveOptions(options);
  return measure(segment, r, ageContext([segment], r), 0).score;
}

/**
 * Tokens a segment occupies: `tokenCost` when it is a number ≥ 0, else the injected estimator's
 * answer (when it returns a finite number ≥ 0 and does not throw), else `ceil(content.length / 4)`
 * (UTF-16 code units, so "ééé" is 1 token, not 2 as a byte count would give). Counts are rounded
 * up and capped at 2^53 − 1, so a huge cost stays huge and sums never wrap. A negative or NaN
 * `tokenCost` is ignored (the codecs reject it).
 *
 * @example
 * estimatedTokens({ id: "a", content: "abcdefgh" }); // 2
 */
export function estimatedTokens(segment: Segment, options?: ImportanceOptions): number {
  const estimate = options?.estimateTokens;
  return tokensOf(segment, typeof estimate === "function" ? estimate : undefined);
}
