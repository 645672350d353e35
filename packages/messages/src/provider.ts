/**
 * The LLM provider contract. Completion failures are typed values, never throws.
 *
 * @module provider
 */
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import type { Message } from "./message.js";

/** A model a provider offers, with its price per million tokens (USD) when known. */
export interface ModelInfo {
  readonly id: string;
  readonly inputCostPerMTok?: number;
  readonly outputCostPerMTok?: number;
  /** Strength tier of the model (seed 000): used for automatic selection. */
  readonly strength?: Strength;
  readonly contextWindow?: number;
}

/** Model strength tiers, weakest/cheapest first. */
export type Strength = "very_low" | "low" | "average" | "high" | "very_high";

/** One completion request. */
export interface CompletionRequest {
  readonly model: string;
  readonly messages: readonly Message[];
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
}

/** Token usage as the provider reports it (0 when it reports none). */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A successful completion. */
export interface Completion {
  readonly text: string;
  readonly usage: Usage;
  readonly model: string;
}

/** Why a completion failed. `transient` errors may succeed on retry; `auth` and `invalid` will not. */
export type ProviderError =
  | { readonly _tag: "ProviderAuthError"; readonly status: number; readonly message: string }
  | { readonly _tag: "ProviderTransientError"; readonly status?: number; readonly message: string }
  | { readonly _tag: "ProviderInvalidResponse"; readonly message: string }
  | { readonly _tag: "ProviderRequestError"; readonly status: number; readonly message: string }
  | { readonly _tag: "ProviderTimeout"; readonly timeoutMs: number }
  | { readonly _tag: "ProviderAborted" }
  /** The provider broke its contract: it threw or its task rejected (caught, never propagated). */
  | { readonly _tag: "ProviderUnexpected"; readonly message: string };

/**
 * A chat-completion provider (a hosted LLM, an OpenAI-compatible endpoint, or the offline
 * extractive summariser).
 */
export interface Provider {
  /** A short name for logs and reports. */
  readonly name: string;
  /** Runs one completion. Never rejects: failures are `Left<ProviderError>`. */
  complete(request: CompletionRequest): TaskEither<ProviderError, Completion>;
  /** The models this provider offers, with costs when known. */
  listModels(): TaskEither<ProviderError, readonly ModelInfo[]>;
}
