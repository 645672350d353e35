/**
 * The one place a share of a token budget becomes a token count. Two roundings, each with a
 * meaning: the most tokens that stay within a share (a compaction's target, a hard ceiling), and
 * the first count that reaches it (a trigger). Both are at least 1.
 *
 * @module share
 */

/**
 * The most tokens within `share` of `maxTokens`: `⌊share × maxTokens⌋`, at least 1 — what a
 * compaction aims at.
 *
 * @example tokensWithin(0.8, 8001) // 6400
 */
export const tokensWithin = (share: number, maxTokens: number): number => Math.max(1, Math.floor(share * maxTokens));

/**
 * The first token count that reaches `share` of `maxTokens`: `⌈share × maxTokens⌉`, at least 1 —
 * where a trigger fires (a count `n` reaches the share exactly when `n ≥ tokensReaching(…)`).
 *
 * @example tokensReaching(0.8, 8001) // 6401
 */
export const tokensReaching = (share: number, maxTokens: number): number => Math.max(1, Math.ceil(share * maxTokens));
