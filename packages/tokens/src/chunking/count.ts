/**
 * Counting a text through a chunk plan with any encoder that counts one chunk.
 *
 * @module chunking/count
 */
import { defaultChunkLimits, planChunks, type ChunkLimits } from "./plan.js";

/** Counts the tokens of one chunk exactly (e.g. `encode_ordinary(chunk).length`). */
export type ChunkEncoder = (chunk: string) => number;

/**
 * Tokens of `text`, encoding it chunk by chunk under `limits` (see `planChunks`). Exact when the
 * plan forces no cut; bounded near-linear time on any input.
 */
export function countChunked(encode: ChunkEncoder, text: string, limits: ChunkLimits = defaultChunkLimits): number {
  if (text.length <= limits.maxPieceChars) return text.length === 0 ? 0 : encode(text);
  const { bounds } = planChunks(text, limits);
  let total = 0;
  for (let k = 1; k < bounds.length; k++) total += encode(text.slice(bounds[k - 1], bounds[k]));
  return total;
}
