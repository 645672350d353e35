/**
 * Options of the compaction middleware, decoded at the boundary by a closed codec (an unknown key
 * gets a "did you mean"; NaN, ±Infinity, fractions and out-of-range numbers are refused), and the
 * typed failures the middleware reports.
 *
 * @module options
 */
import { createContextManager, type ContextError, type ContextManager, type TurnResult } from "@cc/context";
import {
  callback,
  CcError,
  type CcErrorOf,
  decodeWith,
  expectation,
  intIn,
  invalid,
  type InvalidOptions,
  objectCodec,
  positiveInt,
  type Problem,
} from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/**
 * Where a compaction pass ran.
 *
 * @example
 * const hook: CompactionHook = "wrapModelCall";
 */
export type CompactionHook = "beforeModel" | "wrapModelCall";

/**
 * What one compaction pass did, given to {@link CompactionMiddlewareOptions.onTurn}.
 *
 * @example
 * const onTurn = ({ hook, turn }: CompactionEvent) => console.log(hook, turn.tokensBefore, "→", turn.tokensAfter);
 */
export interface CompactionEvent {
  readonly hook: CompactionHook;
  readonly turn: TurnResult;
}

/**
 * A tool result that arrived over the limit and was moved to the index.
 *
 * @example
 * const onToolResultEvicted = (e: ToolResultEviction) => console.log(`${e.tool} → ${e.id} (${e.tokens} tokens)`);
 */
export interface ToolResultEviction {
  /** Index id: `expand_context` with it returns the original text. */
  readonly id: string;
  readonly toolCallId: string;
  readonly tool: string;
  readonly tokens: number;
}

/**
 * Something the middleware could not do; the agent run went on (the model got the uncompacted
 * view, or the tool result stayed whole). Every failure has the one shape of `@cc/validate`:
 * `{ _tag, subject, problems, more, message }`.
 *
 * @example
 * const onError = (e: CompactionMiddlewareError) => console.warn({ tag: e._tag, subject: e.subject }, e.message);
 */
export type CompactionMiddlewareError =
  | InvalidOptions
  /** The context manager refused the turn (`error` is its typed failure). */
  | {
      readonly _tag: "CompactionFailed";
      readonly subject: CompactionHook;
      readonly problems: readonly Problem[];
      readonly more: 0;
      readonly message: string;
      readonly error: ContextError;
    }
  /** An oversized tool result could not be written to the index, so it stayed in the conversation. */
  | {
      readonly _tag: "ToolResultNotEvicted";
      readonly subject: "wrapToolCall";
      readonly problems: readonly Problem[];
      readonly more: 0;
      readonly message: string;
      readonly toolCallId: string;
    }
  /** A callback of the options (`onTurn`, `onToolResultEvicted`, a `manager` factory) threw, rejected or returned no manager. */
  | {
      readonly _tag: "CallbackFailed";
      readonly subject: CallbackName;
      readonly problems: readonly Problem[];
      readonly more: 0;
      readonly message: string;
    }
  /**
   * A `ToolMessage` answering no earlier tool call was left out of what the model receives (a
   * model never gets a tool result without its call); the thread's messages are not changed.
   * `index` is its position in the request's messages.
   */
  | {
      readonly _tag: "OrphanedToolResultDropped";
      readonly subject: "wrapModelCall";
      readonly problems: readonly Problem[];
      readonly more: 0;
      readonly message: string;
      readonly toolCallId: string;
      readonly index: number;
    };

/** The user callbacks whose failures are reported as `CallbackFailed`. */
export type CallbackName = "onTurn" | "onToolResultEvicted" | "manager";

/**
 * A manager per thread: called with the thread id of the run (`configurable.thread_id`, or
 * `"default"`) the first time the thread is seen; the middleware keeps what it returns.
 *
 * @example
 * const counter = tiktokenCounter();
 * const perThread: ManagerFactory = (threadId) => createContextManager({ maxTokens: 8000, namespace: threadId, counter, index });
 */
export type ManagerFactory = (threadId: string) => ContextManager;

/**
 * How the compacted history is used; see {@link CompactionMiddlewareOptions.mode}.
 *
 * @example
 * compactionMiddleware({ manager, mode: "state" satisfies CompactionMode });
 */
export type CompactionMode = "model" | "state";

/**
 * Options of `compactionMiddleware`: exactly one of `maxTokens` and `manager` (as in every @cc
 * framework adapter).
 *
 * @example
 * const options: CompactionMiddlewareOptions = { maxTokens: 8000, mode: "state", maxToolResultTokens: 2000 };
 */
export interface CompactionMiddlewareOptions {
  /**
   * The budget of what the model is sent (system prompt included): builds one context manager
   * per thread with the defaults of `createContextManager` of `@cc/context` and the thread id as
   * its namespace. Give this or `manager`.
   */
  readonly maxTokens?: number;
  /**
   * The context manager that runs every turn (budget, strategy, index, counter), or a factory of
   * one manager per thread (so each thread has its own namespace and the search tool of one
   * thread never sees what another evicted). One manager for every thread suits one conversation.
   * Give this or `maxTokens`.
   */
  readonly manager?: ContextManager | ManagerFactory;
  /**
   * `"model"`: `wrapModelCall` compacts what the model is sent; the thread's state keeps every
   * message. `"state"`: `beforeModel` also replaces the thread's messages with the compacted
   * history (`RemoveMessage(REMOVE_ALL_MESSAGES)` + the kept originals + the note), so the
   * checkpoint stays small; evicted units live in the manager's index. In both modes
   * `wrapModelCall` checks the final request (system prompt included) against the budget.
   * @default "model"
   */
  readonly mode?: CompactionMode;
  /**
   * A tool result whose text is over this many tokens is moved to the index as it arrives and
   * replaced by a short pointer the agent can expand. 0 turns this off.
   * @default a quarter of the manager's maxTokens
   */
  readonly maxToolResultTokens?: number;
  /**
   * Register the `search_context` and `expand_context` tools with the agent.
   * @default true
   */
  readonly tools?: boolean;
  /**
   * Largest page `expand_context` returns, in UTF-16 code units.
   * @default 8000
   */
  readonly maxExpandChars?: number;
  /** Called after every compaction pass (also when nothing was evicted). May be async; a throw is reported to `onError`. */
  readonly onTurn?: (event: CompactionEvent) => void | Promise<void>;
  /** Called when a tool result is moved to the index. A throw is reported to `onError`. */
  readonly onToolResultEvicted?: (eviction: ToolResultEviction) => void | Promise<void>;
  /**
   * Receives every failure as a typed value.
   * @default (e) => console.warn(e.message)
   */
  readonly onError?: (error: CompactionMiddlewareError) => void;
}

/** True for an object with the methods of a context manager. */
export const isContextManager = (u: unknown): u is ContextManager =>
  typeof u === "object" &&
  u !== null &&
  ["compact", "compactTE", "search", "expand", "count"].every(
    (k) => typeof (u as Record<string, unknown>)[k] === "function",
  );

const managerLike = new t.Type<ContextManager | ManagerFactory, ContextManager | ManagerFactory, unknown>(
  "ContextManager",
  (u): u is ContextManager | ManagerFactory => isContextManager(u) || typeof u === "function",
  (u, c) =>
    isContextManager(u) || typeof u === "function"
      ? t.success(u as ContextManager | ManagerFactory)
      : t.failure(
          u,
          c,
          expectation(c, "a context manager (createContextManager) or a function of a thread id returning one", u),
        ),
  t.identity,
);

/**
 * io-ts codec of {@link CompactionMiddlewareOptions} (closed: unknown keys are rejected).
 *
 * @example
 * CompactionMiddlewareOptionsCodec.is({ maxTokens: 8000, mode: "state" }); // true
 */
export const CompactionMiddlewareOptionsCodec = objectCodec(
  "CompactionMiddlewareOptions",
  {},
  {
    maxTokens: positiveInt,
    manager: managerLike,
    mode: t.keyof({ model: null, state: null }),
    maxToolResultTokens: intIn(0, 1_000_000_000),
    tools: t.boolean,
    maxExpandChars: intIn(1, 10_000_000),
    onTurn: callback<NonNullable<CompactionMiddlewareOptions["onTurn"]>>(),
    onToolResultEvicted: callback<NonNullable<CompactionMiddlewareOptions["onToolResultEvicted"]>>(),
    onError: callback<NonNullable<CompactionMiddlewareOptions["onError"]>>(),
  },
  { expected: "an options object" },
);

/**
 * The options with every default filled in.
 *
 * @example
 * const r = decodeCompactionMiddlewareOptions({ manager });
 * if (r._tag === "Right") r.right.mode; // "model"
 */
export interface ResolvedOptions {
  /** The manager, or the factory of one per thread. */
  readonly manager: ContextManager | ManagerFactory;
  readonly mode: CompactionMode;
  /** `undefined`: a quarter of the thread's manager's maxTokens. */
  readonly maxToolResultTokens: number | undefined;
  readonly tools: boolean;
  readonly maxExpandChars: number;
  readonly onTurn: CompactionMiddlewareOptions["onTurn"];
  readonly onToolResultEvicted: CompactionMiddlewareOptions["onToolResultEvicted"];
  readonly onError: (error: CompactionMiddlewareError) => void;
}

const decode = decodeWith(CompactionMiddlewareOptionsCodec, "InvalidOptions", "compaction middleware options");

/**
 * Decodes middleware options and fills in the defaults; `Left<InvalidOptions>` names every bad field.
 *
 * @example
 * decodeCompactionMiddlewareOptions({ manager, mode: "sate" });
 * // left: "invalid compaction middleware options: mode: expected …"
 */
export function decodeCompactionMiddlewareOptions(input: unknown): E.Either<InvalidOptions, ResolvedOptions> {
  const r = decode(input);
  if (E.isLeft(r)) return r;
  const o = r.right as unknown as CompactionMiddlewareOptions;
  if ((o.maxTokens === undefined) === (o.manager === undefined)) {
    return E.left(
      invalid("InvalidOptions", "compaction middleware options", [
        `give exactly one of maxTokens and manager, got ${o.maxTokens === undefined ? "neither" : "both"}`,
      ]),
    );
  }
  const maxTokens = o.maxTokens ?? 0;
  // One manager per thread: each thread's evicted context lives in its own namespace.
  const perThread: ManagerFactory = (threadId) => createContextManager({ maxTokens, namespace: threadId });
  return E.right({
    manager: o.manager ?? perThread,
    mode: o.mode ?? "model",
    maxToolResultTokens: o.maxToolResultTokens,
    tools: o.tools ?? true,
    maxExpandChars: o.maxExpandChars ?? 8000,
    onTurn: o.onTurn,
    onToolResultEvicted: o.onToolResultEvicted,
    onError: o.onError ?? ((e) => console.warn(`@cc/langchain: ${e.message}`)),
  });
}

/**
 * Thrown by `compactionMiddleware` for invalid options (a programming error, reported at construction).
 *
 * @example
 * try { compactionMiddleware({ manager, maxToolResultTokens: NaN }); }
 * catch (e) { if (e instanceof CompactionMiddlewareOptionsError) console.error(e.error.problems); }
 *
 * @deprecated Use `CcError` from @cc/validate (this name is the same class; `instanceof` keeps working); kept one release.
 */
export const CompactionMiddlewareOptionsError = CcError as unknown as CcErrorOf<InvalidOptions>;
/** @deprecated Use `CcError` from @cc/validate (the one error class of @cc); kept one release. */
export type CompactionMiddlewareOptionsError = InstanceType<typeof CompactionMiddlewareOptionsError>;
