/**
 * The strategy factory of the Go original (`HistoryFactory`), kept as a thin compatibility layer
 * over {@link decodeContextManager}: from validated configuration, build a {@link HistoryStrategy}
 * whose `compact(messages, model, maxTokens)` runs one forced turn of a context manager.
 *
 * @module compat/factory
 */
import type { SegmentIndex } from "@cc/search";
import { summaryMessage, type Message, type Provider } from "@cc/messages";
import type { TokenCounter } from "@cc/tokens";
import { invalid } from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { decodeContextManager, type ContextError } from "../manager.js";
import type { StrategyName } from "../strategy.js";
import { decodeStrategyConfig, type InvalidStrategyConfig } from "./config.js";

/** What a history strategy returns: the messages to keep (system + tail) and the summary or note. */
export interface HistoryCompaction {
  readonly messages: readonly Message[];
  readonly summary: string;
}

/** A way to shrink an agent's history to fit `maxTokens` (the Go original's interface). */
export interface HistoryStrategy {
  compact(
    messages: readonly Message[],
    model: string,
    maxTokens: number,
    signal?: AbortSignal,
  ): TaskEither<ContextError, HistoryCompaction>;
}

/** Effects a strategy may need. */
export interface StrategyDeps {
  /** Summariser of `lcm` (default: the offline summariser). */
  readonly provider?: Provider;
  /** Required by `hierarchical`: where evicted units go. */
  readonly index?: SegmentIndex;
  /** Token counter (default: exact tiktoken counts). */
  readonly counter?: TokenCounter;
  readonly now?: () => number;
}

/** A built strategy and the name it was built from. */
export interface BuiltStrategy {
  readonly name: StrategyName;
  readonly strategy: HistoryStrategy;
}

/** `messages` without the one summary message that carries `summary`. */
export function withoutSummary(messages: readonly Message[], summary: string): readonly Message[] {
  if (summary === "") return messages;
  const text = summaryMessage(summary).content;
  const at = messages.findIndex((m) => m.role === "user" && m.content === text);
  return at === -1 ? messages : [...messages.slice(0, at), ...messages.slice(at + 1)];
}

/** Defaults: preserveLast 20 (lcm) / 6 (hierarchical), namespace "default", noteTokens 512, concurrency 4. */
export const STRATEGY_DEFAULTS = {
  lcmPreserveLast: 20,
  hierarchicalPreserveLast: 6,
  namespace: "default",
  noteTokens: 512,
  concurrency: 4,
} as const;

/**
 * Builds the configured strategy. `Left` names every invalid field, or the missing dependency.
 *
 * @example
 * const built = createHistoryStrategy({ strategy: "hierarchical", preserveLast: 6 }, { index: memoryIndex() });
 * if (E.isRight(built)) await built.right.strategy.compact(history, "gpt-4o", 8000)();
 */
export function createHistoryStrategy(
  config: unknown,
  deps: StrategyDeps = {},
): E.Either<InvalidStrategyConfig, BuiltStrategy> {
  const decoded = decodeStrategyConfig(config);
  if (E.isLeft(decoded)) return decoded;
  const c = decoded.right;
  if (c.strategy === "hierarchical" && deps.index === undefined)
    return E.left(
      invalid("InvalidOptions", "strategy config", [
        "index: the hierarchical strategy needs a SegmentIndex dependency",
      ]),
    );
  const settings = {
    strategy: c.strategy,
    // The Go interface passes the budget per call; the compaction target is the budget itself.
    threshold: 1,
    preserveLast:
      c.preserveLast ??
      (c.strategy === "lcm" ? STRATEGY_DEFAULTS.lcmPreserveLast : STRATEGY_DEFAULTS.hierarchicalPreserveLast),
    ...(c.strategy === "hierarchical"
      ? {
          namespace: c.namespace ?? STRATEGY_DEFAULTS.namespace,
          noteTokens: c.noteTokens ?? STRATEGY_DEFAULTS.noteTokens,
          concurrency: c.concurrency ?? STRATEGY_DEFAULTS.concurrency,
        }
      : { ...(c.compactionModel === undefined ? {} : { summaryModel: c.compactionModel }) }),
    ...(deps.provider === undefined ? {} : { provider: deps.provider }),
    ...(deps.index === undefined ? {} : { index: deps.index }),
    ...(deps.counter === undefined ? {} : { counter: deps.counter }),
    ...(deps.now === undefined ? {} : { now: deps.now }),
  };
  const strategy: HistoryStrategy = {
    compact: (messages, _model, maxTokens, signal) => async () => {
      // The Go interface evicts whole units: no fact-keeping masks here.
      const manager = decodeContextManager({ ...settings, maxTokens, mask: false });
      if (E.isLeft(manager)) return manager;
      const r = await manager.right.compactTE(messages, { force: true, ...(signal === undefined ? {} : { signal }) })();
      // The Go interface returns the kept messages and the summary apart.
      return E.map((t: { messages: readonly Message[]; summary: string }) => ({
        messages: withoutSummary(t.messages, t.summary),
        summary: t.summary,
      }))(r);
    },
  };
  return E.right({ name: c.strategy, strategy });
}
