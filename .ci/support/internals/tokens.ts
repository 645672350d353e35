/**
 * What the tests and benchmarks reach inside @cc/tokens: its building blocks, imported from its sources.
 * Private (this package is never published); `@cc/tokens/internal` holds only what sibling packages import.
 *
 * @module @cc/test-support/tokens
 */
export { classCounts, estimateWeights, weighTokens } from "../../../packages/tokens/src/estimate.js";
export { liveEncoders, rawTiktoken } from "../../../packages/tokens/src/tiktoken.js";

export {
  chunksOf,
  defaultChunkLimits,
  planChunks,
  type ChunkLimits,
} from "../../../packages/tokens/src/chunking/plan.js";
export { countChunked, hasLongRun } from "../../../packages/tokens/src/chunking/count.js";
export { decodeMemoOptions, memoEntryBytes, memoKey } from "../../../packages/tokens/src/memo.js";

export {
  decodeChunkLimits,
  decodeCountAsyncOptions,
  decodeEstimateOptions,
  decodeGptTokenizerOptions,
  decodeTiktokenOptions,
} from "../../../packages/tokens/src/options.js";

export { bpeEngine, utf8Bytes, utf8Range } from "../../../packages/tokens/src/bpe/count.js";
export { mergeCountHeap, mergeCountScan } from "../../../packages/tokens/test/support/merge.js";
export { NO_RANK, TokenTrie } from "../../../packages/tokens/src/bpe/trie.js";
export { loadRanks } from "../../../packages/tokens/src/bpe/ranks.js";
export { patternSource, pretokenizer, unicodeVersion } from "../../../packages/tokens/test/support/pretokenize.js";
export { BacktrackTables, backtrackCount } from "../../../packages/tokens/src/bpe/backtrack.js";
export {
  cl100kPieceEnd,
  cl100kPieceEndAny,
  o200kPieceEnd,
  o200kPieceEndAny,
  splitPieces,
} from "../../../packages/tokens/src/bpe/scan.js";
