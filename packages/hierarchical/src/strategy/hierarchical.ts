/**
 * The `hierarchical` history strategy: one {@link evictUnits} pass down to the caller's budget,
 * returned as the kept messages plus the note listing what went to the index.
 *
 * @module strategy/hierarchical
 */
import { createLcmCompactor, type CompactError, type HistoryStrategy } from "@cc/lcm";
import * as E from "fp-ts/lib/Either.js";
import type { SegmentIndex } from "../search/index.js";
import { evictUnits, type StrategyCounter } from "./evict.js";

/** The weighted estimate the lcm compactor uses by default, as a {@link StrategyCounter}. */
export function defaultStrategyCounter(): StrategyCounter {
  const lcm = createLcmCompactor();
  const empty = lcm.estimateUsage([{ role: "user", content: "" }]);
  return {
    count: (text) => Math.max(0, lcm.estimateUsage([{ role: "user", content: text }]) - empty),
    countMessages: (messages) => lcm.estimateUsage(messages),
  };
}

/** Dependencies of the hierarchical strategy. */
export interface HierarchicalStrategyDeps {
  readonly index: SegmentIndex;
  /** Default: the weighted estimate of @cc/tokens ({@link defaultStrategyCounter}). */
  readonly counter?: StrategyCounter;
  /** Clock read once per compaction. Default `Date.now`. */
  readonly now?: () => number;
}

/** Settings (already validated). */
export interface HierarchicalStrategySettings {
  readonly preserveLast: number;
  readonly namespace: string;
  readonly noteTokens: number;
  readonly concurrency: number;
}

/**
 * Creates the hierarchical {@link HistoryStrategy}: `messages` are the kept ones (system first),
 * `summary` the note listing evicted ids ("" when nothing left). A unit whose summary could not
 * be written stays in `messages`.
 */
export function createHierarchicalStrategy(deps: HierarchicalStrategyDeps, settings: HierarchicalStrategySettings): HistoryStrategy {
  const counter = deps.counter ?? defaultStrategyCounter();
  const clock = deps.now ?? Date.now;
  return {
    compact: (messages, _model, maxTokens, signal) => async () => {
      if (!Number.isSafeInteger(maxTokens) || maxTokens <= 0) return E.left<CompactError, never>({ _tag: "InvalidOptions", problems: [`maxTokens: expected a positive integer, got ${String(maxTokens)}`] });
      if (signal?.aborted === true) return E.left({ _tag: "CompactionAborted" });
      const r = await evictUnits(messages, { ...settings, targetTokens: maxTokens }, { index: deps.index, counter, now: clock() }, signal)();
      if (E.isLeft(r)) return E.left({ _tag: "InvalidOptions", problems: r.left.problems });
      if (r.right.aborted) return E.left({ _tag: "CompactionAborted" });
      return E.right({ messages: r.right.kept, summary: r.right.note });
    },
  };
}
