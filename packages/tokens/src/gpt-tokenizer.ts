/**
 * Optional backend on gpt-tokenizer (pure JavaScript, an optional peer dependency). The module is
 * loaded with a dynamic `import()` only when this factory runs.
 *
 * @module gpt-tokenizer
 */
import type * as TE from "fp-ts/lib/TaskEither.js";
import { countChunked } from "./chunking/count.js";
import { defaultChunkLimits, type ChunkLimits } from "./chunking/plan.js";
import type { Encoding, TokenCounter } from "./counter.js";
import { countMessagesWith } from "./messages.js";
import { decodeGptTokenizerOptions, type InvalidOptions } from "./options.js";

/** gpt-tokenizer could not be loaded (not installed, or an incompatible version). */
export interface BackendUnavailable {
  readonly _tag: "BackendUnavailable";
  readonly backend: "gpt-tokenizer";
  readonly message: string;
}

/** Options of {@link gptTokenizerCounter}. */
export interface GptTokenizerOptions {
  /**
   * The encoding counted.
   * @default "o200k_base"
   */
  readonly encoding?: Encoding;
  /**
   * Chunking limits (see `planChunks`): gpt-tokenizer's merge is quadratic on long pieces, so
   * they are cut; a forced cut may change the count by about one token.
   * @default defaultChunkLimits
   */
  readonly limits?: ChunkLimits;
}

type EncodeFn = (
  text: string,
  options: { allowedSpecial: Set<string>; disallowedSpecial: Set<string> },
) => readonly number[];

function hasEncode(mod: unknown): mod is { readonly encode: EncodeFn } {
  return typeof mod === "object" && mod !== null && typeof (mod as { encode?: unknown }).encode === "function";
}

/**
 * A counter on gpt-tokenizer, behind the same interface and chunking as the tiktoken counter
 * (identical counts, measured faster on this library's benchmark). A `TaskEither`: run it to load
 * the module; a missing package is a `BackendUnavailable` value and invalid options an
 * `InvalidOptions` value, never a throw.
 *
 * @example
 * const result = await gptTokenizerCounter({ encoding: "o200k_base" })();
 * if (result._tag === "Right") result.right.count("hello world"); // 2
 */
export function gptTokenizerCounter(
  options: GptTokenizerOptions = {},
): TE.TaskEither<BackendUnavailable | InvalidOptions, TokenCounter> {
  return async () => {
    const decoded = decodeGptTokenizerOptions(options);
    if (decoded._tag === "Left") return decoded;
    const encoding = decoded.right.encoding ?? "o200k_base";
    const limits = decoded.right.limits ?? defaultChunkLimits;
    let mod: unknown;
    try {
      mod =
        encoding === "cl100k_base"
          ? await import("gpt-tokenizer/encoding/cl100k_base")
          : await import("gpt-tokenizer/encoding/o200k_base");
    } catch (error: unknown) {
      return {
        _tag: "Left",
        left: {
          _tag: "BackendUnavailable",
          backend: "gpt-tokenizer",
          message: error instanceof Error ? error.message : String(error),
        },
      };
    }
    if (!hasEncode(mod)) {
      return {
        _tag: "Left",
        left: { _tag: "BackendUnavailable", backend: "gpt-tokenizer", message: "gpt-tokenizer has no encode() export" },
      };
    }
    const encodeFn = mod.encode;
    const ordinary = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };
    let disposed = false;
    const encode = (chunk: string): number => {
      if (disposed) throw new Error(`gptTokenizerCounter(${encoding}) used after dispose()`);
      return encodeFn(chunk, ordinary).length;
    };
    const count = (text: string): number => countChunked(encode, text, limits);
    const counter: TokenCounter = {
      encoding,
      count,
      countMessages: (messages) => countMessagesWith(count, messages),
      dispose: () => {
        disposed = true;
      },
    };
    return { _tag: "Right", right: counter };
  };
}
