/**
 * Model name → encoding.
 *
 * @module models
 */
import type { Encoding, TokenCounter } from "./counter.js";
import { tiktokenCounter } from "./tiktoken.js";

/** The encoding used when a model is unknown. */
export const defaultEncoding: Encoding = "o200k_base";

const cl100kPrefixes = ["gpt-4-", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada-002"] as const;

/**
 * The encoding of `model`: gpt-4o, gpt-4.1, gpt-5, o1/o3/o4 and chatgpt-4o → `o200k_base`;
 * gpt-4 (incl. gpt-4-turbo), gpt-3.5 and OpenAI embeddings → `cl100k_base`; anything else →
 * `o200k_base`. Case-insensitive, tolerates provider prefixes (`openai/gpt-4`) and dated
 * suffixes (`gpt-4-0613`). Never throws.
 *
 * @example
 * encodingForModel("gpt-4-0613"); // "cl100k_base"
 * encodingForModel("claude-sonnet"); // "o200k_base"
 */
export function encodingForModel(model: string): Encoding {
  const name = model.trim().toLowerCase().split("/").pop() ?? "";
  if (name.startsWith("gpt-4o") || name.startsWith("gpt-4.1") || name.startsWith("gpt-4.5")) return "o200k_base";
  if (name === "gpt-4" || name === "gpt-4-turbo" || cl100kPrefixes.some((p) => name.startsWith(p)))
    return "cl100k_base";
  return defaultEncoding;
}

/**
 * An exact counter for `model` (see {@link encodingForModel}).
 *
 * @example
 * const counter = counterForModel("gpt-4o-mini");
 * counter.encoding; // "o200k_base"
 * counter.dispose();
 */
export function counterForModel(model: string): TokenCounter {
  return tiktokenCounter({ encoding: encodingForModel(model) });
}
