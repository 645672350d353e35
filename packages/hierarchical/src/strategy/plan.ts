/**
 * The eviction plan of one pass when the newest units are protected (`keepNewest`): they leave
 * only when evicting every older unpinned unit would not be enough — and when they must leave,
 * the older units evicted before them come back as far as the budget allows, so protecting a
 * fresh observation never costs a unit that did not need to go (the task statement, say).
 *
 * @module strategy/plan
 */
import { compact, estimatedTokens, rank, type ScoringOptions, type Segment } from "@cc/importance";

/**
 * `segments` with the units that must stay marked `pinned` for the real pass (pure): when
 * importance `compact` evicts one of the newest `keepNewest` unpinned units, the older evicted
 * units are taken back, highest score first, while the total stays within `maxTokens`.
 * Unchanged (the same array) when nothing protected is evicted.
 *
 * @example
 * const scoring = { ...AGENT_PRESET, now: () => now };
 * const planned = protectNewest(segments, 4000, scoring);
 * await hierarchicalCompact(planned, { target: { maxTokens: 4000 }, scoring, summarize: extractiveSummarizer(), writer })();
 */
export function protectNewest<S extends Segment>(
  segments: readonly S[],
  maxTokens: number,
  scoring: ScoringOptions,
): readonly S[] {
  const keepNewest = scoring.keepNewest ?? 0;
  if (keepNewest <= 0 || maxTokens <= 0) return segments;
  const plan = compact(segments, { maxTokens }, scoring);
  if (plan.evict.length === 0) return segments;
  const protectedSet = new Set<S>();
  for (let i = segments.length - 1; i >= 0 && protectedSet.size < keepNewest; i--)
    if (segments[i]!.pinned !== true) protectedSet.add(segments[i]!);
  const evicted = new Set(plan.evict);
  if (![...protectedSet].some((s) => evicted.has(s))) return segments;
  const back = new Set<S>();
  let total = plan.tokensAfter;
  const order = rank(segments, scoring);
  for (let i = order.length - 1; i >= 0; i--) {
    const s = order[i]!;
    if (!evicted.has(s) || protectedSet.has(s)) continue;
    const cost = estimatedTokens(s, scoring);
    if (total + cost <= maxTokens) {
      back.add(s);
      total += cost;
    }
  }
  return back.size === 0 ? segments : segments.map((s) => (back.has(s) ? { ...s, pinned: true } : s));
}
