/**
 * The persistent memory of a chat session: its messages (with ids that grow per stack) and the
 * summaries that cover a prefix of them up to a watermark.
 *
 * @module session/store/store
 */
import type { Option } from "fp-ts/lib/Option.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import type { Message } from "@cc/messages";
import type { InvalidInput, InvalidOptions } from "@cc/validate";

/**
 * The id of a conversation stack (one agent session, or one branch of it). Any non-empty,
 * well-formed string of at most {@link MAX_STACK_ID_LENGTH} characters.
 */
export type StackId = string;

/** Longest accepted stack id, in UTF-16 code units. */
export const MAX_STACK_ID_LENGTH = 512;

/**
 * A message as stored: `id` is 1, 2, 3 … within its stack, in append order.
 *
 * @example const [first] = await right(store.append("chat-1", [{ role: "user", content: "hi" }], Date.now())); // { stackId: "chat-1", id: 1, message, createdAt }
 */
export interface StoredMessage {
  readonly stackId: StackId;
  readonly id: number;
  readonly message: Message;
  /** Epoch milliseconds when it was appended (the caller's clock). */
  readonly createdAt: number;
}

/**
 * A summary of every message of its stack with `id <= coversUpTo`. The newest summary of a stack
 * is the active one; it supersedes `previousId` (there are no nested summaries).
 *
 * @example const latest = await store.latestSummary("chat-1")(); // right(some({ id: 2, coversUpTo: 9, previousId: 1, … }))
 */
export interface StoredSummary {
  readonly stackId: StackId;
  readonly id: number;
  readonly content: string;
  readonly coversUpTo: number;
  /** The summary this one supersedes, or `null` for the first summary of the stack. */
  readonly previousId: number | null;
  readonly createdAt: number;
}

/**
 * What a caller asks the store to save.
 *
 * @example store.saveSummary("chat-1", { content: "## Goal\nship it", coversUpTo: 4, previousId: null }, Date.now())
 */
export interface SummaryDraft {
  readonly content: string;
  readonly coversUpTo: number;
  /**
   * The id of the summary this one was built from (`null` when there was none). The save fails
   * with `SummaryConflict` when another writer saved a summary in between, so a summary that
   * did not read its predecessor can never supersede it.
   */
  readonly previousId: number | null;
}

/** The storage backend an error came from (`"langgraph"`: a LangGraph `BaseStore`, see `@cc/langchain`). */
export type StoreBackend = "memory" | "sqlite" | "postgres" | "langgraph";

/**
 * Why a store operation failed. Nothing is half-written when any of these is returned.
 *
 * @example const r = await store.append("", [], 0)(); // left({ _tag: "InvalidInput", subject: "store input", problems: [{ path: "stackId", … }] })
 */
export type StoreError =
  | {
      readonly _tag: "StoreUnavailable";
      readonly backend: StoreBackend;
      readonly message: string;
      /** Set when the backend's driver package could not be loaded: the package to install. */
      readonly missingPackage?: "better-sqlite3" | "pg";
    }
  /** Rejected store options (a timeout, the pool size, an unknown key): the problem names the field. */
  | InvalidOptions
  /** A rejected argument (stack id, clock, messages, draft, id): the problem names the field. */
  | InvalidInput
  | {
      /**
       * The server could not be reached (connection refused, host unreachable: restarting or
       * failing over) or the connection broke while the call ran (server restarted, backend
       * terminated); the pool reconnects for the next call. Nothing is half-written, but a write whose connection broke
       * while its commit was on the way may have been applied: read back before writing it again.
       */
      readonly _tag: "StoreConnectionLost";
      readonly backend: StoreBackend;
      /** SQLSTATE or socket error code, when known (e.g. 57P01). */
      readonly code?: string;
      readonly message: string;
    }
  | {
      /** Connecting or a statement took longer than its timeout (see `PostgresStoreOptions`). */
      readonly _tag: "StoreTimeout";
      readonly backend: StoreBackend;
      readonly message: string;
    }
  | {
      readonly _tag: "StoreCorruptRow";
      readonly backend: StoreBackend;
      readonly stackId: StackId;
      readonly id: number;
      readonly message: string;
    }
  | {
      readonly _tag: "SummaryConflict";
      readonly stackId: StackId;
      readonly expectedPreviousId: number | null;
      readonly actualPreviousId: number | null;
    }
  | {
      readonly _tag: "InvalidWatermark";
      readonly stackId: StackId;
      readonly coversUpTo: number;
      readonly message: string;
    };

/**
 * Where a session keeps its messages and summaries. Every method is a `TaskEither` that never
 * rejects; each write is atomic (all or nothing).
 *
 * @example
 * const store = memoryStore();
 * await store.append("chat-1", [{ role: "user", content: "hi" }], Date.now())(); // ids [1]
 */
export interface SummaryStore {
  readonly backend: StoreBackend;
  /** Appends `messages` in order and returns them with their new ids (consecutive, increasing). */
  append(stackId: StackId, messages: readonly Message[], now: number): TaskEither<StoreError, readonly StoredMessage[]>;
  /**
   * Saves a summary. Fails with `InvalidWatermark` when `coversUpTo` is not a stored message id of
   * the stack or does not move past the previous summary's watermark, and with `SummaryConflict`
   * when `previousId` is not the stack's latest summary.
   */
  saveSummary(stackId: StackId, draft: SummaryDraft, now: number): TaskEither<StoreError, StoredSummary>;
  /** The active (newest) summary of the stack, if any. */
  latestSummary(stackId: StackId): TaskEither<StoreError, Option<StoredSummary>>;
  /** Messages with `id > afterId`, in id order (`afterId` 0 = all). */
  messagesAfter(stackId: StackId, afterId: number): TaskEither<StoreError, readonly StoredMessage[]>;
  /** The highest message id of the stack (0 when empty). */
  lastMessageId(stackId: StackId): TaskEither<StoreError, number>;
  /** Releases connections/handles. Using the store afterwards yields `StoreUnavailable`. */
  close(): TaskEither<StoreError, void>;
}
