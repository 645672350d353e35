/**
 * One agent conversation driven turn by turn: the glue an agent loop calls. `prepareTurn`
 * stores the new messages, compacts when the previous turn crossed the threshold, and returns
 * the prompt to send; `finishTurn` stores the reply and remembers the input tokens the provider
 * reported, which drive the next turn's trigger.
 *
 * @module session/chat-session
 */
import * as TE from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Message } from "@cc/messages";
import {
  callback,
  decodeOrThrow,
  decodeWith,
  invalid,
  leaf,
  nonEmptyString,
  objectCodec,
  withMethods,
  type InvalidOptions,
} from "@cc/validate";
import { PruneSettingsCodec, type PruneSettings } from "./prune.js";
import { StoreShape } from "./shape.js";
import type { CompactionOutcome, SessionCompactor } from "./compactor.js";
import type { SessionCompactionError } from "./errors.js";
import { loadContext, type InvalidContextOptions } from "./context.js";
import type { StackId, StoreError, StoredMessage, SummaryStore } from "./store/store.js";

/**
 * What {@link createChatSession} needs.
 *
 * @example
 * import { defaultPruneSettings } from "./prune.js";
 * createChatSession({ store, compactor, stackId: "chat-1", systemPrompt: "You are terse.", prune: defaultPruneSettings })
 */
export interface ChatSessionOptions {
  readonly store: SummaryStore;
  readonly compactor: SessionCompactor;
  readonly stackId: StackId;
  /**
   * The live system prompt, put first in every prompt.
   * @default none
   */
  readonly systemPrompt?: string;
  /**
   * Short-lived sessions (cron, one-shot) are never compacted.
   * @default false
   */
  readonly ephemeral?: boolean;
  /**
   * Prune oversized tool results of earlier turns in the prompt (stored data is untouched).
   * @default no pruning
   */
  readonly prune?: PruneSettings;
  /**
   * The clock (epoch ms).
   * @default Date.now
   */
  readonly now?: () => number;
}

/** io-ts codec of {@link ChatSessionOptions} (closed, so a typo'd key is named). */
export const ChatSessionOptionsCodec = objectCodec(
  "ChatSessionOptions",
  {
    store: StoreShape,
    compactor: withMethods<SessionCompactor>(
      "SessionCompactor",
      ["tryCompact", "forceCompact"],
      "a SessionCompactor (createSessionCompactor(…))",
    ),
    stackId: nonEmptyString,
  },
  {
    systemPrompt: leaf("SystemPrompt", "a string", (u): u is string => typeof u === "string"),
    ephemeral: leaf("Ephemeral", "true or false", (u): u is boolean => typeof u === "boolean"),
    prune: PruneSettingsCodec,
    now: callback<() => number>(),
  },
);

const decodeChatSessionOptions = decodeWith(ChatSessionOptionsCodec, "InvalidOptions", "chat session options");

/**
 * The prompt of a turn and what compaction did before it was built.
 *
 * @example const { prompt, compaction } = await right(session.prepareTurn([{ role: "user", content: "next" }]));
 */
export interface PreparedTurn {
  readonly prompt: readonly Message[];
  readonly compaction: CompactionOutcome;
  readonly stored: readonly StoredMessage[];
}

/**
 * A conversation driven turn by turn.
 *
 * @example
 * await session.finishTurn([{ role: "assistant", content: "done" }], 26000)(); // the provider's reported input tokens
 */
export interface ChatSession {
  readonly stackId: StackId;
  /** Input tokens the provider reported for the previous turn (0 after a restart). */
  readonly lastInputTokens: number;
  /**
   * Stores `incoming`, compacts when due, returns the prompt to send.
   */
  prepareTurn(
    incoming: readonly Message[],
  ): TE.TaskEither<SessionCompactionError | InvalidContextOptions, PreparedTurn>;
  /** Stores the reply messages and the input tokens the provider reported for this turn (0 if none). */
  finishTurn(
    reply: readonly Message[],
    reportedInputTokens: number,
  ): TE.TaskEither<StoreError | InvalidOptions, readonly StoredMessage[]>;
  /** Compacts now (e.g. a user's `/compact` command). */
  compactNow(): TE.TaskEither<SessionCompactionError | InvalidOptions, CompactionOutcome>;
}

/**
 * Creates a session. The last reported input tokens live in memory, as in the trigger design;
 * after a restart they are 0, so the first turn uses the weighted estimate instead. The options
 * are validated ({@link ChatSessionOptionsCodec}): invalid options throw a `CcError` (from
 * @cc/validate) carrying the `InvalidOptions`; decode untrusted options with
 * `ChatSessionOptionsCodec` first to get it as a `Left`.
 *
 * @example
 * const session = createChatSession({ store, compactor, stackId: "chat-1", systemPrompt: "You are helpful." });
 * const turn = await session.prepareTurn([{ role: "user", content: "hi" }])();
 */
export function createChatSession(options: ChatSessionOptions): ChatSession {
  decodeOrThrow(decodeChatSessionOptions, options);
  const { store, compactor, stackId } = options;
  const clock = options.now ?? Date.now;
  const ephemeral = options.ephemeral ?? false;
  let lastInputTokens = 0;
  const contextOptions = {
    compaction: true as const,
    ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
    ...(options.prune === undefined ? {} : { prune: options.prune }),
  };
  return {
    stackId,
    get lastInputTokens() {
      return lastInputTokens;
    },
    prepareTurn: (incoming) =>
      pipe(
        TE.Do,
        TE.apS("stored", store.append(stackId, incoming, clock())),
        TE.bindW("compaction", () => compactor.tryCompact({ stackId, lastInputTokens, ephemeral })),
        TE.bindW("prompt", () => loadContext(store, stackId, contextOptions)),
        TE.map(({ stored, compaction, prompt }): PreparedTurn => ({ prompt, compaction, stored })),
      ),
    finishTurn: (reply, reportedInputTokens) => {
      if (!Number.isFinite(reportedInputTokens) || reportedInputTokens < 0) {
        return TE.left(
          invalid("InvalidInput", "turn input", [
            {
              path: "reportedInputTokens",
              field: "reportedInputTokens",
              message: `reportedInputTokens: expected a finite number ≥ 0 (0 when the provider reported none), got ${String(reportedInputTokens)}`,
            },
          ]),
        );
      }
      return pipe(
        store.append(stackId, reply, clock()),
        TE.map((stored) => {
          lastInputTokens = reportedInputTokens;
          return stored;
        }),
      );
    },
    compactNow: () => compactor.forceCompact({ stackId, ephemeral }),
  };
}
