/**
 * Codecs of the collaborators a caller passes in (a store, a provider, a counter, a bus, a clock):
 * structural checks — the methods are there — so a wrong object or a typo'd option key is an
 * `InvalidOptions` naming the field, not a `TypeError` later.
 *
 * @module session/shape
 */
import type * as t from "io-ts";
import { isRecord, leaf, objectCodec } from "@cc/validate";

/**
 * A value that is an object with every method of `methods`.
 *
 * @example withMethods("Provider", "a Provider", ["complete", "listModels"]).is(offlineProvider()) // true
 */
export function withMethods(name: string, expected: string, methods: readonly string[]): t.Type<unknown, unknown, unknown> {
  return leaf(name, expected, (u): u is unknown => isRecord(u) && methods.every((m) => typeof u[m] === "function"));
}

/** A {@link SummaryStore}: the six store methods. */
export const StoreShape = withMethods(
  "SummaryStore",
  "a SummaryStore (memoryStore(), openSqliteStore(…), openPostgresStore(…))",
  ["append", "saveSummary", "latestSummary", "messagesAfter", "lastMessageId", "close"],
);

/** A `Provider` of @cc/messages: `complete` and `listModels`. */
export const ProviderShape = withMethods("Provider", "a Provider (complete and listModels)", ["complete", "listModels"]);

/** A `TokenCounter` of @cc/tokens: `count` and `countMessages`. */
export const CounterShape = withMethods("TokenCounter", "a TokenCounter (count and countMessages)", ["count", "countMessages"]);

/** An event bus: `subscribe` and `publish`. */
export const EventBusShape = withMethods("EventBus", "an event bus (createEventBus())", ["subscribe", "publish"]);

const chars = leaf("Chars", "a whole number of characters ≥ 0", (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0);

/** The transcript clipping limits of @cc/lcm: five whole, non-negative character counts. */
export const TranscriptLimitsCodec = objectCodec(
  "TranscriptLimits",
  { messageHead: chars, messageTail: chars, toolResultHead: chars, toolResultTail: chars, toolArguments: chars },
  {},
);
