/**
 * Building the next prompt of a session: the system prompt, the active summary (injected with
 * its reference-only prefix) and only the messages after its watermark — or, when compaction is
 * disabled, the last `maxHistoryMessages` messages.
 *
 * @module session/context
 */
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import * as t from "io-ts";
import { decodeWith, describeValue, isRecord, leaf, objectCodec, type InvalidOptions } from "@cc/validate";
import * as TE from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Message } from "@cc/messages";
import { pruneToolResults, PruneSettingsCodec, type PruneSettings } from "./prune.js";
import { safeSplit } from "@cc/messages";
import type { StackId, StoreError, StoredMessage, StoredSummary, SummaryStore } from "./store/store.js";
import { sessionSummaryMessage } from "./template.js";

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
  if (input.systemPrompt !== undefined && input.systemPrompt !== "")
    head.push({ role: "system", content: input.systemPrompt });
  if (input.summary !== undefined) head.push(sessionSummaryMessage(input.summary.content));
  const after =
    input.summary === undefined ? input.messages : input.messages.filter((m) => m.id > input.summary!.coversUpTo);
  const tail = after.map((m) => m.message);
  return [...head, ...(input.prune === undefined ? tail : pruneToolResults(tail, input.prune).messages)];
}

/**
 * The newest `max` messages, moved back so the window never opens on a tool result whose call
 * it left out (it may then hold a few more than `max`). Pure; `max` ≤ 0 keeps nothing.
 *
 * @example
 * limitHistory(history, 50).length // ≤ 50 unless a tool chain straddles the cut
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
function recentHistory(
  store: SummaryStore,
  stackId: StackId,
  max: number,
): TE.TaskEither<StoreError, readonly Message[]> {
  const all = pipe(
    store.messagesAfter(stackId, 0),
    TE.map((stored) =>
      limitHistory(
        stored.map((m) => m.message),
        max,
      ),
    ),
  );
  return pipe(
    store.lastMessageId(stackId),
    TE.chain((last) => {
      const from = Math.max(0, last - 2 * max);
      if (from === 0) return all;
      return pipe(
        store.messagesAfter(stackId, from),
        TE.chain((window) => {
          const kept = limitHistory(
            window.map((m) => m.message),
            max,
          );
          return hasOrphanResult(kept) ? all : TE.right(kept);
        }),
      );
    }),
  );
}

/**
 * How {@link loadContext} assembles a prompt.
 *
 * @example loadContext(store, "chat-1", { compaction: false, maxHistoryMessages: 50, systemPrompt: "You are terse." })
 */
export type LoadContextOptions =
  | {
      /** Build from the active summary and the messages after its watermark. */
      readonly compaction: true;
      /**
       * The live system prompt.
       * @default none
       */
      readonly systemPrompt?: string;
      /**
       * Prune oversized tool results of earlier turns (stored data is untouched).
       * @default no pruning
       */
      readonly prune?: PruneSettings;
    }
  | {
      /** Compaction off: send the newest messages only. */
      readonly compaction: false;
      /** How many of the newest messages to send (a whole number ≥ 1). Required. */
      readonly maxHistoryMessages: number;
      /** @default none */
      readonly systemPrompt?: string;
      /** @default no pruning */
      readonly prune?: PruneSettings;
    };

/** A bad {@link LoadContextOptions} value: the @cc/validate `InvalidOptions` (subject "context options"), naming the field. */
export type InvalidContextOptions = InvalidOptions;

const common = {
  systemPrompt: leaf("SystemPrompt", "a string", (u): u is string => typeof u === "string"),
  prune: PruneSettingsCodec,
};
/** The codec of the {@link LoadContextOptions} member with compaction on (closed). */
export const WithCompaction = objectCodec("LoadContextOptions", { compaction: t.literal(true) }, common);
/** The codec of the {@link LoadContextOptions} member with compaction off (closed). */
export const WithoutCompaction = objectCodec(
  "LoadContextOptions",
  {
    compaction: t.literal(false),
    maxHistoryMessages: leaf(
      "MaxHistoryMessages",
      "a whole number ≥ 1 (how many recent messages to send when compaction is off)",
      (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 1,
    ),
  },
  common,
);
const LoadContextOptionsCodec = new t.Type<LoadContextOptions, LoadContextOptions, unknown>(
  "LoadContextOptions",
  (u): u is LoadContextOptions => WithCompaction.is(u) || WithoutCompaction.is(u),
  (u, c) => {
    const compaction = isRecord(u) ? u["compaction"] : undefined;
    if (compaction === false) return WithoutCompaction.validate(u, c) as t.Validation<LoadContextOptions>;
    if (compaction === true || !isRecord(u)) return WithCompaction.validate(u, c) as t.Validation<LoadContextOptions>;
    const ctx = t.appendContext(c, "compaction", t.boolean, compaction);
    return t.failure(
      compaction,
      ctx,
      `compaction: expected true (summary + recent messages) or false (recent messages only), got ${describeValue(compaction)}`,
    );
  },
  t.identity,
);

/**
 * Validates {@link LoadContextOptions} from untrusted input (closed: a typo is named; NaN,
 * ±Infinity, negatives and fractions are refused, in the prune settings too).
 *
 * @example
 * decodeContextOptions({ compaction: false, maxHistoryMessages: 50 }); // right(…)
 * decodeContextOptions({ compaction: false, maxHistory: 50 }); // left: "… maxHistory: unknown field (did you mean maxHistoryMessages?) …"
 */
export const decodeContextOptions: (input: unknown) => E.Either<InvalidContextOptions, LoadContextOptions> = decodeWith(
  LoadContextOptionsCodec,
  "InvalidOptions",
  "context options",
);

/**
 * Reads the stack and builds the next prompt. With compaction: the active summary and the
 * messages after its watermark. Without: every message, limited to `maxHistoryMessages`. The
 * options are validated first ({@link decodeContextOptions}).
 *
 * @example const prompt = await loadContext(store, "chat-1", { compaction: true, systemPrompt: "…" })();
 */
export function loadContext(
  store: SummaryStore,
  stackId: StackId,
  raw: LoadContextOptions,
): TE.TaskEither<StoreError | InvalidContextOptions, readonly Message[]> {
  const decoded = decodeContextOptions(raw);
  if (E.isLeft(decoded)) return TE.left(decoded.left);
  const options = decoded.right;
  if (!options.compaction) {
    const max = options.maxHistoryMessages;
    return pipe(
      recentHistory(store, stackId, max),
      TE.map((kept) => {
        const system: Message[] =
          options.systemPrompt === undefined || options.systemPrompt === ""
            ? []
            : [{ role: "system", content: options.systemPrompt }];
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
