/**
 * Building the next prompt of a session: the system prompt, the active summary (injected with
 * its reference-only prefix) and only the messages after its watermark — or, when compaction is
 * disabled, the last `maxHistoryMessages` messages.
 *
 * @module session/context
 */
import * as O from "fp-ts/lib/Option.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Message } from "@cc/messages";
import { pruneToolResults, type PruneSettings } from "@cc/session";
import { safeSplit } from "@cc/messages";
import type { StackId, StoreError, StoredMessage, StoredSummary, SummaryStore } from "./store/store.js";
import { checkpointMessage } from "./template.js";

/** Inputs of {@link buildContext} (pure). */
export interface BuildContextInput {
  /** The live system prompt (omitted or "" for none). */
  readonly systemPrompt?: string;
  /** The active summary, if any. */
  readonly summary?: StoredSummary;
  /** The stored messages after the summary's watermark (all of them when there is no summary). */
  readonly messages: readonly StoredMessage[];
  /** Replace oversized tool results of earlier turns by one-line descriptions (stored data is untouched). */
  readonly prune?: PruneSettings;
}

/**
 * system prompt + injected summary + every message after the watermark, in id order. Never drops
 * a message after the watermark. Pure.
 *
 * @example buildContext({ systemPrompt: "You are terse.", messages: [] }) // [{ role: "system", content: "You are terse." }]
 */
export function buildContext(input: BuildContextInput): readonly Message[] {
  const head: Message[] = [];
  if (input.systemPrompt !== undefined && input.systemPrompt !== "") head.push({ role: "system", content: input.systemPrompt });
  if (input.summary !== undefined) head.push(checkpointMessage(input.summary.content));
  const after = input.summary === undefined ? input.messages : input.messages.filter((m) => m.id > input.summary!.coversUpTo);
  const tail = after.map((m) => m.message);
  return [...head, ...(input.prune === undefined ? tail : pruneToolResults(tail, input.prune).messages)];
}

/**
 * The newest `max` messages, moved back so the window never opens on a tool result whose call
 * it left out (it may then hold a few more than `max`). Pure; `max` ≤ 0 keeps nothing.
 *
 * @example limitHistory(messages, 50).length // ≤ 50 unless a tool chain straddles the cut
 */
export function limitHistory(messages: readonly Message[], max: number): readonly Message[] {
  if (!(max > 0)) return [];
  if (messages.length <= max) return messages;
  const asUser = messages.map((m) => (m.role === "system" ? { role: "user" as const, content: m.content } : m));
  return messages.slice(safeSplit(asUser, max));
}

/** True when some tool result in `messages` has no issuing assistant message in `messages`. */
function hasOrphanResult(messages: readonly Message[]): boolean {
  const issued = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) issued.add(c.id);
    else if (m.role === "tool" && !issued.has(m.toolCallId)) return true;
  }
  return false;
}

/**
 * {@link limitHistory} over the stored stack without reading all of it: reads a window of twice
 * `max` messages, and the whole stack only when a tool chain reaches past that window.
 */
function recentHistory(store: SummaryStore, stackId: StackId, max: number): TE.TaskEither<StoreError, readonly Message[]> {
  const all = pipe(
    store.messagesAfter(stackId, 0),
    TE.map((stored) => limitHistory(stored.map((m) => m.message), max)),
  );
  return pipe(
    store.lastMessageId(stackId),
    TE.chain((last) => {
      const from = Math.max(0, last - 2 * max);
      if (from === 0) return all;
      return pipe(
        store.messagesAfter(stackId, from),
        TE.chain((window) => {
          const kept = limitHistory(window.map((m) => m.message), max);
          return hasOrphanResult(kept) ? all : TE.right(kept);
        }),
      );
    }),
  );
}

/** How {@link loadContext} assembles a prompt. */
export type LoadContextOptions =
  | { readonly compaction: true; readonly systemPrompt?: string; readonly prune?: PruneSettings }
  | { readonly compaction: false; readonly maxHistoryMessages: number; readonly systemPrompt?: string; readonly prune?: PruneSettings };

/** A bad {@link LoadContextOptions} value. */
export interface InvalidContextOptions {
  readonly _tag: "InvalidContextOptions";
  readonly field: string;
  readonly message: string;
}

/**
 * Reads the stack and builds the next prompt. With compaction: the active summary and the
 * messages after its watermark. Without: every message, limited to `maxHistoryMessages`.
 *
 * @example const prompt = await loadContext(store, "chat-1", { compaction: true, systemPrompt: "…" })();
 */
export function loadContext(
  store: SummaryStore,
  stackId: StackId,
  options: LoadContextOptions,
): TE.TaskEither<StoreError | InvalidContextOptions, readonly Message[]> {
  if (!options.compaction) {
    const max = options.maxHistoryMessages;
    if (typeof max !== "number" || !Number.isSafeInteger(max) || max < 1) {
      return TE.left({
        _tag: "InvalidContextOptions",
        field: "maxHistoryMessages",
        message: `maxHistoryMessages must be a whole number ≥ 1 (how many recent messages to send when compaction is off), got ${String(max)}`,
      });
    }
    return pipe(
      recentHistory(store, stackId, max),
      TE.map((kept) => {
        const system: Message[] = options.systemPrompt === undefined || options.systemPrompt === "" ? [] : [{ role: "system", content: options.systemPrompt }];
        return [...system, ...(options.prune === undefined ? kept : pruneToolResults(kept, options.prune).messages)];
      }),
    );
  }
  return pipe(
    store.latestSummary(stackId),
    TE.chain((latest) =>
      pipe(
        store.messagesAfter(stackId, O.isSome(latest) ? latest.value.coversUpTo : 0),
        TE.map((messages) =>
          buildContext({
            messages,
            ...(O.isSome(latest) ? { summary: latest.value } : {}),
            ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
            ...(options.prune === undefined ? {} : { prune: options.prune }),
          }),
        ),
      ),
    ),
    TE.mapLeft((e): StoreError | InvalidContextOptions => e),
  );
}
