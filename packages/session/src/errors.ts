/**
 * Why a session compaction failed: the summariser's failures and the whole union a pass returns.
 * Kept apart from the compactor so the event types can name them without an import cycle.
 *
 * @module errors
 */
import type { ModelChoiceError } from "@cc/lcm";
import type { ProviderError } from "@cc/messages";
import type { InvalidInput } from "@cc/validate";
import type { StoreError } from "./store/store.js";

/**
 * Why the summariser did not produce a summary: no model could be chosen, or the call failed.
 *
 * @example
 * const r = await compactor.forceCompact({ stackId: "chat-1" })();
 * if (E.isLeft(r) && r.left._tag === "SummariserFailed") { const error: SummariserError = r.left; if (error._tag === "SummariserFailed" && error.error._tag === "ProviderTimeout") console.warn("retry later"); }
 */
export type SummariserError = ModelChoiceError | { readonly _tag: "SummariserFailed"; readonly error: ProviderError };

/**
 * Why a compaction failed. The store is unchanged when any of these is returned.
 *
 * @example const r = await compactor.tryCompact({ stackId: "chat-1", lastInputTokens: Number.NaN })(); // left({ _tag: "InvalidInput", subject: "compaction input", … })
 */
export type SessionCompactionError =
  | StoreError
  | SummariserError
  /** A bad argument of `tryCompact` (e.g. `lastInputTokens` NaN or negative). */
  | InvalidInput;
