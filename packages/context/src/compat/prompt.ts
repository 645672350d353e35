/**
 * Prompt compression: condense one long prompt with the provider, and use the result only when it
 * saves at least `minSavingRatio` of the tokens. Never fails: every reason to keep the original
 * prompt is a typed skip.
 *
 * @module compat/prompt
 */
import type { TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import type { Task } from "fp-ts/lib/Task.js";
import * as t from "io-ts";
import { CcError, decodeWith, intIn, leaf, objectCodec, withMethods } from "@cc/validate";
import { chooseCompactionModel } from "@cc/lcm";
import { guardProvider } from "@cc/lcm";
import type { Provider, ProviderError } from "@cc/messages";
import { wrapTranscript } from "@cc/lcm/internal";

/** Why a prompt was left as it was. */
export type SkipReason = "disabled" | "no_provider" | "too_short" | "provider_error" | "below_ratio";

/** The outcome of {@link PromptCompressor.compress}. */
export type CompressionResult =
  | {
      readonly _tag: "Compressed";
      readonly text: string;
      readonly originalTokens: number;
      readonly compressedTokens: number;
      readonly savedTokens: number;
      readonly ratio: number;
    }
  | {
      readonly _tag: "Skipped";
      readonly text: string;
      readonly reason: SkipReason;
      readonly originalTokens: number;
      readonly detail?: string;
    };

/** Compresses prompts. */
export interface PromptCompressor {
  compress(prompt: string, signal?: AbortSignal): Task<CompressionResult>;
  isEnabled(): boolean;
  setEnabled(enabled: boolean): void;
  /** Minimum share of tokens saved for a compression to be used, in [0, 1). Default 0.3. */
  setMinSavingRatio(ratio: number): void;
}

/**
 * Options of {@link createPromptCompressor}, decoded by a closed codec: an unknown key, NaN,
 * ±Infinity or an out-of-range number throws a `CcError` (from @cc/validate) carrying `InvalidOptions`
 * (subject "prompt compressor options") naming the field.
 */
export interface PromptCompressorOptions {
  readonly provider?: Provider;
  readonly counter: TokenCounter;
  /** Model for the call; "" picks the cheapest listed. */
  readonly model?: string;
  /** Prompts with fewer tokens are left alone: an integer in [0, 10⁹]. Default 200. */
  readonly minTokens?: number;
  /** Minimum share of tokens saved for a compression to be used, in [0, 1). Default 0.3. */
  readonly minSavingRatio?: number;
  /** Longest wait for the provider, in ms: an integer in [1, 2³¹ − 1]. */
  readonly timeoutMs?: number;
}

/** io-ts codec of {@link PromptCompressorOptions} (closed). */
export const PromptCompressorOptionsCodec = objectCodec(
  "PromptCompressorOptions",
  { counter: withMethods<TokenCounter>("TokenCounter", ["count", "countMessages"]) },
  {
    provider: withMethods<Provider>("Provider", ["complete", "listModels"]),
    model: t.string,
    minTokens: intIn(0, 1_000_000_000),
    minSavingRatio: leaf(
      "SavingRatio",
      "a number in [0, 1)",
      (u): u is number => typeof u === "number" && u >= 0 && u < 1,
    ),
    timeoutMs: intIn(1, 2_147_483_647),
  },
  { expected: "an options object" },
);

const decodePromptCompressorOptions = decodeWith(
  PromptCompressorOptionsCodec,
  "InvalidOptions",
  "prompt compressor options",
);

const INSTRUCTION =
  "Rewrite the text inside the transcript tags as compactly as possible for another model to read. Keep every instruction, constraint, identifier, path, number and quoted string exactly; drop repetition and filler. Output only the rewritten text.";

const describeError = (e: ProviderError): string => ("message" in e ? `${e._tag}: ${e.message}` : e._tag);

/**
 * Creates a {@link PromptCompressor}. Invalid options throw a `CcError` (from @cc/validate) carrying the
 * typed `InvalidOptions` at once (a programming error, as with `createContextManager`).
 *
 * @example
 * const pc = createPromptCompressor({ provider: offlineProvider(), counter: estimateCounter() });
 * const r = await pc.compress("You are a careful engineer. ".repeat(400))(); // r._tag === "Compressed" | "Skipped"
 */
export function createPromptCompressor(options: PromptCompressorOptions): PromptCompressor {
  const decoded = decodePromptCompressorOptions(options);
  if (E.isLeft(decoded)) throw new CcError(decoded.left);
  let enabled = true;
  let minSavingRatio = options.minSavingRatio ?? 0.3;
  const minTokens = options.minTokens ?? 200;
  const { counter } = options;
  return {
    isEnabled: () => enabled,
    setEnabled: (value) => {
      enabled = value;
    },
    setMinSavingRatio: (ratio) => {
      if (Number.isFinite(ratio) && ratio >= 0 && ratio < 1) minSavingRatio = ratio;
    },
    compress: (prompt, signal) => async () => {
      const originalTokens = counter.count(prompt);
      const skip = (reason: SkipReason, detail?: string): CompressionResult => ({
        _tag: "Skipped",
        text: prompt,
        reason,
        originalTokens,
        ...(detail === undefined ? {} : { detail }),
      });
      if (!enabled) return skip("disabled");
      if (options.provider === undefined) return skip("no_provider");
      if (originalTokens < minTokens) return skip("too_short");
      const model = await chooseCompactionModel(options.provider, options.model ?? "")();
      if (E.isLeft(model))
        return skip(
          "provider_error",
          model.left._tag === "NoCompactionModel" ? model.left.message : describeError(model.left.error),
        );
      const target = Math.floor(originalTokens * (1 - minSavingRatio));
      const reply = await guardProvider(options.provider, options.timeoutMs ?? 60_000).complete({
        model: model.right,
        messages: [
          { role: "system", content: INSTRUCTION },
          { role: "user", content: wrapTranscript(prompt) },
        ],
        maxTokens: Math.max(1, target),
        temperature: 0,
        ...(signal === undefined ? {} : { signal }),
      })();
      if (E.isLeft(reply)) return skip("provider_error", describeError(reply.left));
      const text = reply.right.text.trim();
      const compressedTokens = text === "" ? originalTokens : counter.count(text);
      const saved = originalTokens - compressedTokens;
      if (text === "" || saved / originalTokens < minSavingRatio)
        return skip("below_ratio", `saved ${saved} of ${originalTokens} tokens`);
      return {
        _tag: "Compressed",
        text,
        originalTokens,
        compressedTokens,
        savedTokens: saved,
        ratio: compressedTokens / originalTokens,
      };
    },
  };
}

/** What an agent loop wants back from a prompt compressor: the prompt to send and tokens saved. */
export interface AgentPromptCompression {
  readonly prompt: string;
  readonly tokensSaved: number;
}

/** Adapter for agent loops: always returns a usable prompt (the original when skipped). */
export interface AgentPromptCompressor {
  compress(prompt: string, signal?: AbortSignal): Task<AgentPromptCompression>;
}

/** Wraps a {@link PromptCompressor} as an {@link AgentPromptCompressor}. */
export function agentPromptCompressor(compressor: PromptCompressor): AgentPromptCompressor {
  return {
    compress: (prompt, signal) => async () => {
      const r = await compressor.compress(prompt, signal)();
      return r._tag === "Compressed" ? { prompt: r.text, tokensSaved: r.savedTokens } : { prompt, tokensSaved: 0 };
    },
  };
}
