/**
 * The BM25 every backend ranks with: SQLite FTS5's `bm25()` over the distinct indexed terms of
 * two weighted fields (summary, content). For a query term t and an entry d:
 *
 *   f     = summaryWeight·[t ∈ summary(d)] + contentWeight·[t ∈ content(d)]
 *   len   = |summary terms(d)| + |content terms(d)|          (distinct, capped: see `indexedTerms`)
 *   idf   = ln((N − df + 0.5) / (df + 0.5)), or 1e-6 when that is ≤ 0 (a term in half the entries or more)
 *   score = Σ_t idf · f·(k1 + 1) / (f + k1·(1 − b + b·len / avgLen))      k1 = 1.2, b = 0.75
 *
 * N, df and avgLen are over the whole index (every namespace), as FTS5 counts them.
 *
 * @module search/ranking/bm25
 */

/** BM25 term-frequency saturation. */
export const BM25_K1 = 1.2;
/** BM25 length normalisation. */
export const BM25_B = 0.75;
/** The idf of a term present in half the entries or more (FTS5's floor): it still matches, and barely ranks. */
export const MIN_IDF = 1e-6;

/**
 * Inverse document frequency of a term in `df` of `n` entries.
 *
 * @example idf(100, 1) // ≈ 4.2; idf(100, 90) // 1e-6
 */
export function idf(n: number, df: number): number {
  const x = Math.log((n - df + 0.5) / (df + 0.5));
  return x > 0 ? x : MIN_IDF;
}

/**
 * The term-frequency part of one term's score for an entry of `len` terms, with weighted
 * frequency `f`. Non-decreasing in `f`, non-increasing in `len`, also in floating point (every
 * operation is monotone in the operand that varies), which the pruning bounds rely on.
 *
 * @example tfPart(2, 10, 10) // 2·2.2 / (2 + 1.2) = 1.375
 */
export function tfPart(f: number, len: number, avgLen: number): number {
  return (f * (BM25_K1 + 1)) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * len) / avgLen));
}

/** Field bits of a posting: the term is in the summary (1), in the content (2), or both (3). */
export type FieldMask = 0 | 1 | 2 | 3;

/** Weighted frequency of a posting's field mask. */
export function weightOf(mask: number, summaryWeight: number, contentWeight: number): number {
  return ((mask & 1) === 0 ? 0 : summaryWeight) + ((mask & 2) === 0 ? 0 : contentWeight);
}
