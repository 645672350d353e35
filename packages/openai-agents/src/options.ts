/**
 * Options of the OpenAI Agents SDK adapter, decoded by a closed codec: an unknown key (with a
 * "did you mean"), a non-integer, NaN, ±Infinity or an out-of-range value is an `InvalidOptions`.
 *
 * @module options
 */
import type { ContextManager, TurnResult } from "@cc/context";
import {
  callback,
  decodeWith,
  expectation,
  intIn,
  invalid,
  isRecord,
  objectCodec,
  positiveInt,
  type InvalidOptions,
} from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/**
 * Something that went wrong in a turn that still produced the model input.
 *
 * @example
 * for (const w of cc.lastReport()?.warnings ?? []) console.warn(w._tag, w.message);
 */
export type AdapterWarning =
  /** The `onReport` callback threw or rejected; the turn went on. */
  | { readonly _tag: "ReportCallbackFailed"; readonly message: string }
  /**
   * A result item whose call is not before it in the input (`index` into the input items) was
   * left out of what the model receives: a model must never get a tool result without its call.
   * The item itself is not lost: it stays wherever it came from (the session keeps it).
   */
  | {
      readonly _tag: "OrphanedResultDropped";
      readonly index: number;
      readonly callId: string;
      readonly message: string;
    };

/**
 * Where a compaction ran.
 *
 * @example
 * createAgentsCompaction({ manager, onReport: (r) => { if (r.source === "filter") console.log(r.turn.tokensAfter); } });
 */
export type CompactionSource = "filter" | "session" | "call";

/**
 * What one compaction of agent items did: the context manager's turn plus the item counts.
 *
 * @example
 * const cc = createAgentsCompaction({ manager, onReport: (r) => console.log(r.source, r.turn.tokensAfter, r.turn.evicted.length) });
 */
export interface CompactionReport {
  /** `"filter"` (the `callModelInputFilter`), `"session"` (a compacting session's `getItems`) or `"call"` (`compactItems`). */
  readonly source: CompactionSource;
  /** The context manager's turn (tokens before/after, budget met, evicted units, warnings). */
  readonly turn: TurnResult;
  readonly itemsBefore: number;
  readonly itemsAfter: number;
  /** New items added (the summary note: 0 or 1). */
  readonly added: number;
  /** Adapter warnings (a failing `onReport` shows up in {@link AgentsCompaction.lastReport}). */
  readonly warnings: readonly AdapterWarning[];
}

/**
 * Options of {@link createAgentsCompaction}: exactly one of `maxTokens` and `manager` (as in
 * every @cc framework adapter).
 *
 * @example
 * const options: AgentsCompactionOptions = { maxTokens: 8000, maxHits: 5 };
 */
export interface AgentsCompactionOptions {
  /**
   * The budget of the model input (instructions included); builds a context manager with the
   * defaults of `createContextManager` of `@cc/context`. Give this or `manager`.
   */
  readonly maxTokens?: number;
  /**
   * A context manager of your own (budget, strategy, counter, index, namespace): see
   * `createContextManager` of `@cc/context`. Give this or `maxTokens`.
   */
  readonly manager?: ContextManager;
  /**
   * Called after each compaction with its report. A callback that throws or rejects never breaks
   * the run: the failure is recorded as a `ReportCallbackFailed` warning in `lastReport()`.
   */
  readonly onReport?: (report: CompactionReport) => void | Promise<void>;
  /**
   * Hits `search_context` returns when the call gives no `k` (integer 1..100); a call may ask for
   * up to 50, or up to this many when it is more.
   * @default 5
   */
  readonly maxHits?: number;
  /**
   * Largest page `expand_context` returns, in UTF-16 code units (integer 1..10000000).
   * @default 8000
   */
  readonly maxExpandChars?: number;
  /**
   * Whether the agent's instructions count against the budget (as a leading system message).
   * @default true
   */
  readonly countInstructions?: boolean;
}

const managerCodec = new t.Type<ContextManager, ContextManager, unknown>(
  "ContextManager",
  (u): u is ContextManager =>
    isRecord(u) && ["compact", "search", "expand", "count"].every((m) => typeof u[m] === "function"),
  (u, c) =>
    isRecord(u) && ["compact", "search", "expand", "count"].every((m) => typeof u[m] === "function")
      ? t.success(u as unknown as ContextManager)
      : t.failure(u, c, expectation(c, "a context manager (createContextManager of @cc/context)", u)),
  t.identity,
);

const onReportFn = callback<NonNullable<AgentsCompactionOptions["onReport"]>>();

/**
 * io-ts codec of {@link AgentsCompactionOptions} (closed: unknown keys are rejected).
 *
 * @example
 * AgentsCompactionOptionsCodec.is({ maxTokens: 8000 }) // true
 */
export const AgentsCompactionOptionsCodec = objectCodec(
  "AgentsCompactionOptions",
  {},
  {
    maxTokens: positiveInt,
    manager: managerCodec,
    onReport: onReportFn,
    maxHits: intIn(1, 100),
    maxExpandChars: intIn(1, 10_000_000),
    countInstructions: t.boolean,
  },
  { expected: "an options object" },
);

/**
 * Decodes adapter options.
 *
 * @example
 * decodeAgentsCompactionOptions({ manager, maxHit: 3 })
 * // Left({ _tag: "InvalidOptions", subject: "openai-agents options", problems: ["maxHit … did you mean maxHits?"] })
 */
export function decodeAgentsCompactionOptions(input: unknown): E.Either<InvalidOptions, AgentsCompactionOptions> {
  const decoded = decodeOptions(input);
  if (E.isLeft(decoded)) return decoded;
  const o = decoded.right;
  if ((o.maxTokens === undefined) === (o.manager === undefined)) {
    return E.left(
      invalid("InvalidOptions", "openai-agents options", [
        `give exactly one of maxTokens and manager, got ${o.maxTokens === undefined ? "neither" : "both"}`,
      ]),
    );
  }
  return E.right(o as AgentsCompactionOptions);
}

const decodeOptions = decodeWith(AgentsCompactionOptionsCodec, "InvalidOptions", "openai-agents options");
