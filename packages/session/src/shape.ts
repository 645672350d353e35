/**
 * Codecs of the collaborators a caller passes in (a store, a provider, a counter, a bus, a clock):
 * structural checks — the methods are there — so a wrong object or a typo'd option key is an
 * `InvalidOptions` naming the field, not a `TypeError` later.
 *
 * @module session/shape
 */
import type { Provider } from "@cc/messages";
import type { TokenCounter } from "@cc/tokens";
import { leaf, objectCodec, withMethods } from "@cc/validate";
import type { EventBus, SessionEvent } from "./events.js";
import type { SummaryStore } from "./store/store.js";

/** A {@link SummaryStore}: the six store methods. */
export const StoreShape = withMethods<SummaryStore>(
  "SummaryStore",
  ["append", "saveSummary", "latestSummary", "messagesAfter", "lastMessageId", "close"],
  "a SummaryStore (memoryStore(), openSqliteStore(…), openPostgresStore(…))",
);

/** A `Provider` of @cc/messages: `complete` and `listModels`. */
export const ProviderShape = withMethods<Provider>(
  "Provider",
  ["complete", "listModels"],
  "a Provider (complete and listModels)",
);

/** A `TokenCounter` of @cc/tokens: `count` and `countMessages`. */
export const CounterShape = withMethods<TokenCounter>(
  "TokenCounter",
  ["count", "countMessages"],
  "a TokenCounter (count and countMessages)",
);

/** An event bus: `subscribe` and `publish`. */
export const EventBusShape = withMethods<EventBus<SessionEvent>>(
  "EventBus",
  ["subscribe", "publish"],
  "an event bus (createEventBus())",
);

const chars = leaf(
  "Chars",
  "a whole number of characters ≥ 0",
  (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0,
);

/** The transcript clipping limits of @cc/lcm: five whole, non-negative character counts. */
export const TranscriptLimitsCodec = objectCodec(
  "TranscriptLimits",
  { messageHead: chars, messageTail: chars, toolResultHead: chars, toolResultTail: chars, toolArguments: chars },
  {},
);
