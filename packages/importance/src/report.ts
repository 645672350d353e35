/**
 * One-line, human-readable summary of an eviction pass for logs and UI toasts.
 */

const isCount = (x: number): boolean => Number.isSafeInteger(x) && x >= 0;
const fmt = (x: number): string => x.toLocaleString("en-US");

/**
 * "compacted N segments (M → K tokens; S saved)", or "no compaction needed" when neither the
 * count nor the tokens changed. N is `originalCount − finalCount`; a token change alone is still
 * reported. Arguments that are not non-negative integers, or a final state larger than the
 * original, give an "invalid eviction report" line that shows the values.
 *
 * @example
 * formatEvictionReport(5, 1000, 3, 400); // "compacted 2 segments (1,000 → 400 tokens; 600 saved)"
 * formatEvictionReport(5, 1000, 5, 400); // "compacted 0 segments (1,000 → 400 tokens; 600 saved)"
 */
export function formatEvictionReport(
  originalCount: number,
  originalTokens: number,
  finalCount: number,
  finalTokens: number,
): string {
  const args = [originalCount, originalTokens, finalCount, finalTokens];
  if (!args.every(isCount) || finalCount > originalCount || finalTokens > originalTokens) {
    return `invalid eviction report (counts ${originalCount} → ${finalCount}, tokens ${originalTokens} → ${finalTokens})`;
  }
  if (finalCount === originalCount && finalTokens === originalTokens) return "no compaction needed";
  const n = originalCount - finalCount;
  return `compacted ${fmt(n)} segment${n === 1 ? "" : "s"} (${fmt(originalTokens)} → ${fmt(finalTokens)} tokens; ${fmt(originalTokens - finalTokens)} saved)`;
}
