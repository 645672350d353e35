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
export {
  ChunkLimitsCodec,
  CountAsyncOptionsCodec,
  decodeChunkLimits,
  decodeCountAsyncOptions,
  decodeEstimateOptions,
  decodeGptTokenizerOptions,
  decodeTiktokenOptions,
  EncodingCodec,
  EstimateOptionsCodec,
  formatInvalid,
  GptTokenizerOptionsCodec,
  maxLimitChars,
  strictOptions,
  TiktokenOptionsCodec,
} from "../options.js";
export { assertChunkLimits } from "../chunking/plan.js";
export { bpeEngine, pieceCacheEntries, pieceCacheMaxChars, shortPieceChars, utf8Bytes, utf8Range, type BpeEngine } from "../bpe/count.js";
export { mergeCountHeap, mergeCountScan } from "../bpe/merge.js";
export { NO_RANK, TokenTrie } from "../bpe/trie.js";
export { loadRanks, parseRanks, type RankTable } from "../bpe/ranks.js";
export { patternSource, pretokenizer, unicodeVersion, whiteSpace } from "../bpe/pretokenize.js";
export { BacktrackTables, backtrackCount } from "../bpe/backtrack.js";
export { cl100kPieceEnd, cl100kPieceEndAny, o200kPieceEnd, o200kPieceEndAny, splitPieces, type PieceEnd } from "../bpe/scan.js";
