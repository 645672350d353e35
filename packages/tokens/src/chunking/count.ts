/**
 * Counting a text through a chunk plan with any encoder that counts one chunk.
 *
 * @module chunking/count
 */
import { assertChunkLimits, defaultChunkLimits, planChunks, type ChunkLimits } from "./plan.js";

const longRunPatterns = new Map<number, RegExp>();

/** Unicode White_Space as the tokenizer's Rust regex sees it (JS `\s` differs on U+FEFF and U+0085). */
const ws = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/**
 * Whether `text` may hold a pre-tokenised piece longer than `maxPieceChars`. A piece is at most one
 * prefix character, one run of non-whitespace and one tail of `[\r\n/]` (o200k's punctuation
 * pieces), or one run of whitespace; so when no such run reaches half the limit, no piece exceeds
 * it and the text can go to the encoder whole, exactly, after one native regex scan instead of
 * the planner's walk.
 */
export function hasLongRun(text: string, maxPieceChars: number): boolean {
  const half = Math.max(1, Math.floor(maxPieceChars / 2));
  let re = longRunPatterns.get(half);
  if (re === undefined) {
    re = new RegExp(`[^${ws}]{${half}}|[${ws}]{${half}}|[\\r\\n/]{${half}}`);
    longRunPatterns.set(half, re);
  }
  return re.test(text);
}

/** Counts the tokens of one chunk exactly (e.g. `encode_ordinary(chunk).length`). */
export type ChunkEncoder = (chunk: string) => number;

/**
 * Tokens of `text`, encoding it chunk by chunk under `limits` (see `planChunks`). Exact when the
 * plan forces no cut; bounded near-linear time on any input. Invalid limits throw a `RangeError`.
 */
export function countChunked(encode: ChunkEncoder, text: string, limits: ChunkLimits = defaultChunkLimits): number {
  assertChunkLimits(limits);
  if (text.length <= limits.maxPieceChars) return text.length === 0 ? 0 : encode(text);
  if (text.length <= limits.maxChunkChars && !hasLongRun(text, limits.maxPieceChars)) return encode(text);
  const { bounds } = planChunks(text, limits);
  let total = 0;
  for (let k = 1; k < bounds.length; k++) total += encode(text.slice(bounds[k - 1], bounds[k]));
  return total;
}
