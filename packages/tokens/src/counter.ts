/**
 * The token-counting contract every backend (exact tiktoken, weighted estimate, gpt-tokenizer)
 * implements.
 *
 * @module counter
 */
import type { Message } from "@cc/messages";

/** A BPE encoding supported by the counters. `o200k_base` is the default. */
export type Encoding = "o200k_base" | "cl100k_base";

/**
 * Counts tokens of text and of chat messages under one encoding.
 *
 * @example
 * const counter = tiktokenCounter({ encoding: "o200k_base" });
 * counter.count("hello world"); // 2
 * counter.dispose();
 */
export interface TokenCounter {
  /** The encoding the counts are for. */
  readonly encoding: Encoding;
  /** Tokens of `text`, with special-token strings counted as ordinary text. Never throws. */
  count(text: string): number;
  /** Tokens of a chat request made of `messages`, including the chat format's per-message overhead. */
  countMessages(messages: readonly Message[]): number;
  /** Releases native/WASM resources. Counting after `dispose()` is a programming error. */
  dispose(): void;
}
