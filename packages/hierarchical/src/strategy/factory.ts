/**
 * The strategy factory (the Go `HistoryFactory`): from validated configuration, build the `lcm` or
 * the `hierarchical` {@link HistoryStrategy}, so an agent swaps strategies by configuration.
 *
 * @module strategy/factory
 */
import { createAgentCompactor, createLcmCompactor, type HistoryStrategy, type Message, type Provider } from "@cc/lcm";
import * as E from "fp-ts/lib/Either.js";
import type { SegmentIndex } from "../search/index.js";
import { decodeStrategyConfig, type InvalidStrategyConfig } from "./config.js";
import type { StrategyCounter } from "./evict.js";
import { createHierarchicalStrategy } from "./hierarchical.js";

/** Effects a strategy may need; which ones depends on the configured strategy. */
export interface StrategyDeps {
  /** Summariser for `lcm` levels 1–2 (none → truncation only). */
  readonly provider?: Provider;
  /** Required by `hierarchical`: where evicted units go. */
  readonly index?: SegmentIndex;
  /** Token counter for both strategies (a `TokenCounter` of @cc/tokens fits). */
  readonly counter?: StrategyCounter;
  readonly now?: () => number;
}

/** Adapts a {@link StrategyCounter} to the counter the lcm compactor takes. */
function lcmCounter(c: StrategyCounter): NonNullable<Parameters<typeof createLcmCompactor>[0]>["counter"] & object {
  return {
    encoding: "o200k_base",
    count: (text) => c.count(text),
    countMessages: (messages) => c.countMessages(messages as readonly Message[]),
    dispose: () => undefined,
  };
}

/** A built strategy and the name it was built from. */
export interface BuiltStrategy {
  readonly name: "lcm" | "hierarchical";
  readonly strategy: HistoryStrategy;
}

/** Defaults: preserveLast 20 (lcm) / 6 (hierarchical), namespace "default", noteTokens 512, concurrency 4. */
export const STRATEGY_DEFAULTS = { lcmPreserveLast: 20, hierarchicalPreserveLast: 6, namespace: "default", noteTokens: 512, concurrency: 4 } as const;

/**
 * Builds the configured strategy. `Left` names every invalid field, or the missing dependency.
 *
 * @example
 * const built = createHistoryStrategy({ strategy: "hierarchical", preserveLast: 6 }, { index: memoryIndex() });
 * if (E.isRight(built)) await built.right.strategy.compact(messages, "gpt-4o", 8000)();
 */
export function createHistoryStrategy(config: unknown, deps: StrategyDeps = {}): E.Either<InvalidStrategyConfig, BuiltStrategy> {
  const decoded = decodeStrategyConfig(config);
  if (E.isLeft(decoded)) return decoded;
  const c = decoded.right;
  if (c.strategy === "lcm") {
    const compactor = createLcmCompactor({
      ...(deps.provider === undefined ? {} : { provider: deps.provider }),
      ...(deps.counter === undefined ? {} : { counter: lcmCounter(deps.counter) }),
      ...(deps.now === undefined ? {} : { now: deps.now }),
    });
    const strategy = createAgentCompactor(compactor, { preserveLast: c.preserveLast ?? STRATEGY_DEFAULTS.lcmPreserveLast, ...(c.compactionModel === undefined ? {} : { compactionModel: c.compactionModel }) });
    return E.right({ name: "lcm", strategy });
  }
  if (deps.index === undefined) return E.left({ _tag: "InvalidStrategyConfig", problems: ["index: the hierarchical strategy needs a SegmentIndex dependency"] });
  const strategy = createHierarchicalStrategy(
    { index: deps.index, ...(deps.counter === undefined ? {} : { counter: deps.counter }), ...(deps.now === undefined ? {} : { now: deps.now }) },
    {
      preserveLast: c.preserveLast ?? STRATEGY_DEFAULTS.hierarchicalPreserveLast,
      namespace: c.namespace ?? STRATEGY_DEFAULTS.namespace,
      noteTokens: c.noteTokens ?? STRATEGY_DEFAULTS.noteTokens,
      concurrency: c.concurrency ?? STRATEGY_DEFAULTS.concurrency,
    },
  );
  return E.right({ name: "hierarchical", strategy });
}
