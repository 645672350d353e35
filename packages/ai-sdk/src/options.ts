/**
 * Options of {@link createAiSdkContext}, decoded by a closed codec at the boundary, and the typed
 * failures of the adapter.
 *
 * @module options
 */
import type { ContextError, ContextManager, TurnResult } from "@cc/context";
import {
  callback,
  CcError,
  type CcErrorOf,
  decodeWith,
  intIn,
  invalid,
  type InvalidOptions,
  isRecord,
  leaf,
  objectCodec,
  positiveInt,
} from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";

/**
 * Something the adapter did, for logs and metrics.
 *
 * @example
 * createAiSdkContext({ maxTokens: 8000, onEvent: (e) => e._tag === "Compacted" && console.log(e.turn.tokensBefore, "→", e.turn.tokensAfter) });
 */
export type AiSdkEvent =
  /** The manager compacted the messages of a step (`prepareStep`) or a prompt (`middleware`). */
  | {
      readonly _tag: "Compacted";
      readonly source: "prepareStep" | "middleware";
      readonly stepNumber?: number;
      readonly turn: TurnResult;
    }
  /** A compaction failed: `prepareStep` sent the step uncompacted, the middleware refused the call. */
  | {
      readonly _tag: "CompactionFailed";
      readonly source: "prepareStep" | "middleware";
      readonly stepNumber?: number;
      readonly error: AiSdkFailure;
    }
  /**
   * A tool result (or approval response) answering no earlier call (or request) was left out of
   * what the model receives — a model never gets a result without its call. `messageIndex` is the
   * message it was in; the caller's own messages are not changed.
   */
  | {
      readonly _tag: "OrphanedToolResultDropped";
      readonly source: "prepareStep" | "middleware";
      readonly stepNumber?: number;
      readonly messageIndex: number;
      readonly toolCallId: string;
    };

/**
 * Options of {@link createAiSdkContext}: exactly one of `maxTokens` and `manager`.
 *
 * @example
 * const options: AiSdkContextOptions = { manager: createContextManager({ maxTokens: 8000, index }), cacheSize: 64 };
 */
export interface AiSdkContextOptions {
  /**
   * The budget of a prompt (the whole prompt, system messages included); builds a context manager
   * with its defaults (hierarchical strategy, exact o200k counter, in-memory index, threshold 0.8).
   */
  readonly maxTokens?: number;
  /** A context manager of your own (strategy, counter, index, namespace, threshold); its `maxTokens` is the budget. */
  readonly manager?: ContextManager;
  /**
   * Compacted message prefixes remembered (least recently used first out), integer 1..100000.
   * @default 32
   */
  readonly cacheSize?: number;
  /**
   * Default and largest page of `expand_context`, in UTF-16 units, integer 1..1000000.
   * @default 8000
   */
  readonly maxExpandChars?: number;
  /** Receives every compaction and failure. A callback that throws is caught (see `callbackFailures`). */
  readonly onEvent?: (event: AiSdkEvent) => void;
}

/**
 * The prompt is over the budget after compaction (the system messages and the preserved tail alone
 * exceed it): the middleware refuses to send it.
 *
 * @example
 * import { generateText, wrapLanguageModel } from "ai";
 * try { await generateText({ model: wrapLanguageModel({ model, middleware: cc.middleware }), messages }); }
 * catch (e) { if (e instanceof AiSdkError && e.error._tag === "BudgetExceeded") console.warn(e.error.tokens, e.error.maxTokens); }
 */
export interface BudgetExceeded {
  readonly _tag: "BudgetExceeded";
  readonly subject: "prompt";
  readonly problems: readonly { readonly path: string; readonly message: string }[];
  readonly more: number;
  readonly message: string;
  readonly tokens: number;
  readonly maxTokens: number;
}

/**
 * Every failure of the adapter (the one error shape of @cc/validate).
 *
 * @example
 * const describe = (f: AiSdkFailure): string => `${f._tag}: ${f.subject}`;
 */
export type AiSdkFailure = InvalidOptions | ContextError | BudgetExceeded;

/**
 * The rejection of the adapter's Promises: an `Error` carrying the typed {@link AiSdkFailure}.
 *
 * @example
 * try { await cc.compact(messages); } catch (e) { if (e instanceof AiSdkError) console.error(e.error._tag, e.message); }
 *
 * @deprecated Use `CcError` from @cc/validate (this name is the same class; `instanceof` keeps working); kept one release.
 */
export const AiSdkError = CcError as unknown as CcErrorOf<AiSdkFailure>;
/** @deprecated Use `CcError` from @cc/validate (the one error class of @cc); kept one release. */
export type AiSdkError = InstanceType<typeof AiSdkError>;

/**
 * A {@link BudgetExceeded} failure.
 *
 * @example budgetExceeded(9100, 8000).message // "prompt: 9100 tokens after compaction exceed the budget of 8000"
 */
export function budgetExceeded(tokens: number, maxTokens: number): BudgetExceeded {
  const message = `prompt: ${tokens} tokens after compaction exceed the budget of ${maxTokens}`;
  return {
    _tag: "BudgetExceeded",
    subject: "prompt",
    problems: [{ path: "", message }],
    more: 0,
    message,
    tokens,
    maxTokens,
  };
}

const managerLike = leaf(
  "ContextManager",
  "a context manager (createContextManager)",
  (u): u is ContextManager =>
    isRecord(u) &&
    ["compact", "compactTE", "search", "expand", "count"].every((m) => typeof u[m] === "function") &&
    isRecord(u["options"]),
);
const onEventFn = callback<(event: AiSdkEvent) => void>();

/**
 * Closed io-ts codec of {@link AiSdkContextOptions} (the one-of rule is checked by {@link decodeAiSdkContextOptions}).
 *
 * @example AiSdkContextOptionsCodec.is({ maxTokens: 8000 }) // true
 */
export const AiSdkContextOptionsCodec = objectCodec(
  "AiSdkContextOptions",
  {},
  {
    maxTokens: positiveInt,
    manager: managerLike,
    cacheSize: intIn(1, 100_000),
    maxExpandChars: intIn(1, 1_000_000),
    onEvent: onEventFn,
  },
  { expected: "an options object" },
);

const decodeShape = decodeWith(AiSdkContextOptionsCodec, "InvalidOptions", "AI SDK adapter options");

/**
 * Decodes adapter options: unknown keys (with a "did you mean"), NaN, ±Infinity, out-of-range
 * numbers, and neither or both of `maxTokens` / `manager` are `InvalidOptions`.
 *
 * @example decodeAiSdkContextOptions({ maxTokens: 0 }) // left: "maxTokens: expected a positive integer, got 0"
 */
export function decodeAiSdkContextOptions(input: unknown): E.Either<InvalidOptions, AiSdkContextOptions> {
  const r = decodeShape(input);
  if (E.isLeft(r)) return r;
  const o = r.right;
  if ((o.maxTokens === undefined) === (o.manager === undefined)) {
    return E.left(
      invalid("InvalidOptions", "AI SDK adapter options", [
        `give exactly one of maxTokens and manager, got ${o.maxTokens === undefined ? "neither" : "both"}`,
      ]),
    );
  }
  return E.right(o as AiSdkContextOptions);
}
