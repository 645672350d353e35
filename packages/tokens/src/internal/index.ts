/**
 * Counting internals shared with tests and benchmarks. Not part of the public API.
 *
 * @module @cc/tokens/internal
 */
export { classCounts, estimateWeights, weighTokens } from "../estimate.js";
export { liveEncoders, rawTiktoken } from "../tiktoken.js";

export { chunksOf, defaultChunkLimits, planChunks, type ChunkLimits } from "../chunking/plan.js";
export { countChunked, hasLongRun } from "../chunking/count.js";
export { decodeMemoOptions, memoEntryBytes, memoKey } from "../memo.js";

export { decodeChunkLimits, decodeCountAsyncOptions, decodeEstimateOptions, decodeGptTokenizerOptions, decodeTiktokenOptions } from "../options.js";

export { bpeEngine, utf8Bytes, utf8Range } from "../bpe/count.js";
export { mergeCountHeap, mergeCountScan } from "../bpe/merge.js";
export { NO_RANK, TokenTrie } from "../bpe/trie.js";
export { loadRanks } from "../bpe/ranks.js";
export { patternSource, pretokenizer, unicodeVersion } from "../bpe/pretokenize.js";
export { BacktrackTables, backtrackCount } from "../bpe/backtrack.js";
export { cl100kPieceEnd, cl100kPieceEndAny, o200kPieceEnd, o200kPieceEndAny, splitPieces } from "../bpe/scan.js";
