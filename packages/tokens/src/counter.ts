/**
 * The token-counting contract every backend (exact tiktoken, weighted estimate, gpt-tokenizer)
 * implements.
 *
 * @module counter
 */

/** A BPE encoding supported by the counters. `o200k_base` is the default. */
export type Encoding = "o200k_base" | "cl100k_base";

/** A tool call as far as counting is concerned: its function name and JSON argument text. */
export interface CountableToolCall {
  readonly name: string;
  readonly arguments: string;
}

/**
 * Anything shaped like a chat message. Structural, so the `@cc/lcm` message model and plain
 * OpenAI-style objects are both accepted.
 */
export interface CountableMessage {
  readonly role: string;
  readonly content: string;
  readonly name?: string;
  readonly toolCalls?: readonly CountableToolCall[];
  readonly toolCallId?: string;
}

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
  countMessages(messages: readonly CountableMessage[]): number;
  /** Releases native/WASM resources. Counting after `dispose()` is a programming error. */
  dispose(): void;
}
