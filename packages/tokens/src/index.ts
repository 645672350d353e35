/**
 * @cc/tokens — token counting for chat messages: an exact tiktoken counter (o200k_base,
 * cl100k_base), a calibrated estimate that is never far low, an LRU memo, and helpers to stamp
 * token costs on segments.
 *
 * @example
 * import { tiktokenCounter } from "@cc/tokens";
 * const counter = tiktokenCounter();
 * counter.countMessages([{ role: "user", content: "hello world" }]); // 9
 * counter.dispose();
 *
 * @module @cc/tokens
 */
export type { Encoding, TokenCounter } from "./counter.js";
export { estimateCounter, estimateTokens, type EstimateOptions } from "./estimate.js";
export { tiktokenCounter, type TiktokenOptions } from "./tiktoken.js";
export { counterForModel, defaultEncoding, encodingForModel } from "./models.js";
export { countMessagesWith } from "./messages.js";
export { memoCounter, type MemoCounter, type MemoOptions, type MemoStats } from "./memo.js";
export { countAsync, type CountAsyncOptions } from "./async.js";
export { isValidTokenCost, withTokenCost, type Costable } from "./cost.js";
export { gptTokenizerCounter, type BackendUnavailable, type GptTokenizerOptions } from "./gpt-tokenizer.js";
export { decodeOptions, TokensOptionsError, type InvalidOptions } from "./options.js";
export { tokensReaching, tokensWithin } from "./share.js";
export type { ChunkLimits } from "./chunking/plan.js";
