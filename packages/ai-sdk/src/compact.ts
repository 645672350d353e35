/**
 * Compaction of AI SDK messages through a context manager, cached by message prefix: the longest
 * prefix compacted before is replaced by its compacted form (no second compaction, no second
 * index write), the rest is appended, and the manager runs on that only when it reaches the
 * threshold. The same messages therefore always give the same prompt, step after step.
 *
 * @module compact
 */
import type { CompactCallOptions, ContextError, ContextManager, TurnResult } from "@cc/context";
import type { Message } from "@cc/messages";
import { invalid } from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import {
  messageViews,
  restoreMessages,
  withoutOrphanedResults,
  type OrphanedResult,
  type SdkMessage,
} from "./convert.js";
import { Lru, MessageHasher } from "./internal/prefix.js";

/**
 * What one compaction of AI SDK messages did.
 *
 * @example const { messages: next, changed, tokens } = await cc.compact(messages);
 */
export interface SdkCompaction<M> {
  /** The messages to send: kept messages are the input objects, the note is new. */
  readonly messages: readonly M[];
  /** True when `messages` differs from the input (a cached prefix was applied or the manager compacted). */
  readonly changed: boolean;
  /** True when the whole input was answered from the cache. */
  readonly cached: boolean;
  /** The manager's turn, when it ran (absent when the cache answered or nothing reached the threshold). */
  readonly turn?: TurnResult;
  /** Tokens of `messages` by the manager's counter. */
  readonly tokens: number;
  /** Tool results left out because they answer no earlier call (see `withoutOrphanedResults`). */
  readonly dropped: readonly OrphanedResult[];
}

/**
 * Compacts AI SDK messages of type `M` (a `ModelMessage` or a provider prompt message).
 *
 * @example
 * import type { ModelMessage } from "ai";
 * const note = (v: Message): ModelMessage => ({ role: "user", content: [{ type: "text", text: v.content }] });
 * const compact: SdkCompactor<ModelMessage> = prefixCompactor(manager, 32, note);
 */
export type SdkCompactor<M> = (
  messages: readonly M[],
  call?: CompactCallOptions,
) => Promise<E.Either<ContextError, SdkCompaction<M>>>;

/**
 * A prefix-cached compactor over `manager`. `added` builds the message for a view the manager
 * added (the summary note). Never rejects: a failure of the manager is a `Left`.
 *
 * @example
 * import type { ModelMessage } from "ai";
 * const compact = prefixCompactor<ModelMessage>(manager, 32, (v) => ({ role: "user", content: [{ type: "text", text: v.content }] }));
 * const r = await compact(messages);
 */
export function prefixCompactor<M extends SdkMessage>(
  manager: ContextManager,
  cacheSize: number,
  added: (view: Message) => M,
): SdkCompactor<M> {
  const hasher = new MessageHasher();
  const cache = new Lru<readonly M[]>(cacheSize);
  return async (input, call) => {
    try {
      // A result without its call never reaches the model: it leaves first, and is reported.
      const { messages, dropped } = withoutOrphanedResults(input);
      const chain = hasher.chain(messages);
      let hit = -1;
      let prefix: readonly M[] | undefined;
      for (let i = messages.length; i >= 1 && prefix === undefined; i--) {
        prefix = cache.get(chain[i]!);
        if (prefix !== undefined) hit = i;
      }
      const key = chain[messages.length]!;
      const base =
        prefix === undefined ? messages : hit === messages.length ? prefix : [...prefix, ...messages.slice(hit)];
      const { views } = messageViews(base, true);
      if (hit === messages.length && call?.force !== true) {
        return E.right({
          messages: base,
          changed: base !== input,
          cached: true,
          tokens: manager.count(views),
          dropped,
        });
      }
      // A compaction that stays above the target because the preserved tail alone is too big
      // (large parallel tool results) runs again with shorter tails, on the same manager.
      // Kept messages map back to the caller's objects: the turn never rewrites one (`rewrite: false`).
      const r = await manager.compactTE(views, { ...call, fitTail: true, rewrite: false })();
      if (E.isLeft(r)) return r;
      const turn = r.right;
      const out = turn.compacted ? restoreMessages(base, turn.messages, added) : base;
      if (out !== messages) cache.set(key, out);
      return E.right({ messages: out, changed: out !== input, cached: false, turn, tokens: turn.tokensAfter, dropped });
    } catch (e) {
      // The cache and the conversion are pure; a throw here is a bug or a hostile input: reported.
      return E.left(
        invalid("InvalidInput", "AI SDK messages", [
          `could not be compacted: ${e instanceof Error ? e.message : String(e)}`,
        ]),
      );
    }
  };
}
