/**
 * Counting internals shared with tests and benchmarks. Not part of the public API.
 *
 * @module @cc/tokens/internal
 */
export { classCounts, estimateWeights, weighTokens, type ClassCounts, type ClassWeights } from "../estimate.js";
export { liveEncoders, rawTiktoken, type RawTiktoken } from "../tiktoken.js";
export { tokensPerMessage, tokensPerName, tokensPerReply, tokensPerToolCall } from "../messages.js";
export { chunksOf, defaultChunkLimits, planChunks, type ChunkLimits, type ChunkPlan } from "../chunking/plan.js";
export { countChunked, hasLongRun, type ChunkEncoder } from "../chunking/count.js";
export { decodeMemoOptions, entryOverheadBytes, inlineKeyChars, memoEntryBytes, memoKey } from "../memo.js";
export { MemoOptionsCodec, PositiveInt } from "../options.js";
