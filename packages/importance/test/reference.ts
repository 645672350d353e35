/**
 * A straightforward reference of rank and compact: score every segment with the public `score`,
 * full comparator sort by (score, position), greedy walk, a Set of evicted positions. The fast
 * implementation must agree with it exactly; the benchmark measures both in the same run.
 */
import { estimatedTokens, score, type EvictionTarget, type ImportanceOptions, type ScoringOptions, type Segment } from "../src/index.js";

interface Entry<S> {
  readonly seg: S;
  readonly pos: number;
  readonly score: number;
  readonly tokens: number;
}

const fixedClock = (options: ImportanceOptions | undefined): ScoringOptions => {
  const t = options?.now === undefined ? Date.now() : options.now();
  return { ...options, now: () => t };
};

function entries<S extends Segment>(segments: readonly S[], options: ScoringOptions): Entry<S>[] {
  return segments.map((seg, pos) => ({ seg, pos, score: score(seg, options), tokens: estimatedTokens(seg, options) }));
}

const byScore = <S>(a: Entry<S>, b: Entry<S>): number =>
  a.score < b.score ? -1 : a.score > b.score ? 1 : a.pos - b.pos;

/** Reference rank: full comparator sort by (score, position); pinned (+Infinity) land last. */
export function referenceRank<S extends Segment>(segments: readonly S[], options?: ImportanceOptions): S[] {
  return entries(segments, fixedClock(options)).sort(byScore).map((e) => e.seg);
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
