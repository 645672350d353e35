/**
 * A straightforward reference of rank and compact: decide the age measure of the call (written
 * out again here, from the README's rule), score every segment with the public `score`, full
 * comparator sort by (score, position) with the newest `keepNewest` non-pinned segments moved
 * after the others (oldest first), greedy walk, a Set of evicted positions. The fast
 * implementation must agree with it exactly; the benchmark measures both in the same run.
 */
import {
  DEFAULT_AGE,
  estimatedTokens,
  score,
  type EvictionTarget,
  type ImportanceOptions,
  type ScoringOptions,
  type Segment,
} from "../src/index.js";

interface Entry<S> {
  readonly seg: S;
  readonly pos: number;
  readonly score: number;
  readonly tokens: number;
  newest: boolean;
}

const fixedClock = (options: ImportanceOptions | undefined): ScoringOptions => {
  const t = options?.now === undefined ? Date.now() : options.now();
  return { ...options, now: () => t };
};

const num = (x: unknown): number | undefined => (typeof x === "number" && Number.isFinite(x) ? x : undefined);

/** "turns" or "clock" for the whole call, as the README states the rule. */
function mode(segments: readonly Segment[], options: ScoringOptions): "turns" | "clock" {
  const age = options.age ?? DEFAULT_AGE;
  if (age !== "auto") return age;
  const t = options.now();
  if (!Number.isFinite(t)) return "turns";
  const times = segments
    .map((s) => num(s.createdAt) ?? num(s.lastAccessed))
    .filter((x): x is number => x !== undefined);
  if (times.length < 2) return "turns";
  const steps = times.slice(1).map((x, i) => x - times[i]!);
  return steps.every((d) => d === steps[0]) && (times.length > 2 || steps[0] === 0) ? "turns" : "clock";
}

function entries<S extends Segment>(segments: readonly S[], options: ScoringOptions): Entry<S>[] {
  const m = mode(segments, options);
  const withTurns = segments.map((seg, pos) => ({ ...seg, turn: num(seg.turn) ?? pos }));
  const current =
    options.currentTurn ?? Math.max(0, ...withTurns.map((s) => Math.max(s.turn, num(s.lastAccessedTurn) ?? s.turn)));
  const opts: ScoringOptions =
    m === "turns" ? { ...options, age: "turns", currentTurn: current } : { ...options, age: "clock" };
  const all = segments.map((seg, pos) => ({
    seg,
    pos,
    score: score(m === "turns" ? withTurns[pos]! : seg, opts),
    tokens: estimatedTokens(seg, options),
    newest: false,
  }));
  const keep = options.keepNewest ?? 0;
  let marked = 0;
  for (let i = all.length - 1; i >= 0 && marked < keep; i--) {
    if (all[i]!.seg.pinned === true) continue;
    all[i]!.newest = true;
    marked++;
  }
  return all;
}

/** Older non-pinned by (score, position), then the newest by position, then pinned by position. */
const byScore = <S>(a: Entry<S>, b: Entry<S>): number => {
  const tier = (e: Entry<S>): number => (e.score === Number.POSITIVE_INFINITY ? 2 : e.newest ? 1 : 0);
  if (tier(a) !== tier(b)) return tier(a) - tier(b);
  if (tier(a) === 1) return a.pos - b.pos;
  return a.score < b.score ? -1 : a.score > b.score ? 1 : a.pos - b.pos;
};

/** Reference rank: full comparator sort by (score, position); pinned (+Infinity) land last. */
export function referenceRank<S extends Segment>(segments: readonly S[], options?: ImportanceOptions): S[] {
  return entries(segments, fixedClock(options))
    .sort(byScore)
    .map((e) => e.seg);
}

/** Reference compact: full sort, greedy lowest-first walk, Set of evicted positions. */
export function referenceCompact<S extends Segment>(
  segments: readonly S[],
  target: EvictionTarget,
  options?: ImportanceOptions,
): { keep: S[]; evict: S[]; tokensBefore: number; tokensAfter: number; budgetMet: boolean } {
  const all = entries(segments, fixedClock(options));
  const before = all.reduce((sum, e) => sum + e.tokens, 0);
  const budget = target.maxTokens;
  if (!(budget > 0) || before <= budget) {
    return { keep: [...segments], evict: [], tokensBefore: before, tokensAfter: before, budgetMet: true };
  }
  const minKeep = typeof target.minKeep === "number" && target.minKeep > 0 ? Math.ceil(target.minKeep) : 0;
  const gone = new Set<number>();
  let total = before;
  for (const e of [...all].sort(byScore)) {
    if (total <= budget || segments.length - gone.size <= minKeep) break;
    if (e.seg.pinned === true) break;
    gone.add(e.pos);
    total -= e.tokens;
  }
  return {
    keep: segments.filter((_, i) => !gone.has(i)),
    evict: segments.filter((_, i) => gone.has(i)),
    tokensBefore: before,
    tokensAfter: total,
    budgetMet: total <= budget,
  };
}
