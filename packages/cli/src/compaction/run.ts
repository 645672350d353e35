/**
 * One compaction of a whole transcript with the chosen strategy — the engine behind `cc-compact`
 * and the agent-loop demo. `lcm` summarises the older prefix by escalation; `hierarchical` evicts
 * the lowest-importance message units into a searchable index and leaves a note of what left.
 *
 * The eviction itself (grouping, pins, note) is `evictUnits` of @cc/hierarchical, shared with the
 * `hierarchical` history strategy.
 *
 * @module compaction/run
 */
import { evictUnits, withNote, type Eviction, type IndexError, type SegmentIndex } from "@cc/hierarchical";
import {
  createLcmCompactor,
  decodeCompactOptions,
  describeRejection,
  nextContext,
  pressureOf,
  type CompactOptions,
  type ContextUsage,
  type Level,
  type Message,
  type Provider,
} from "@cc/lcm";
import type { TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { stagedIndex } from "./staged-index.js";

/** The two strategies an agent can pick by configuration. */
export type StrategyName = "lcm" | "hierarchical";

/** What to do (already validated numbers; {@link decodeRunConfig} validates raw input). */
export interface RunConfig {
  readonly strategy: StrategyName;
  readonly options: CompactOptions;
  /** Compact even below the soft threshold. */
  readonly force: boolean;
  /** Index namespace of evicted entries (hierarchical). */
  readonly namespace: string;
  /** Tokens reserved for the note listing evicted entries (hierarchical). */
  readonly noteTokens: number;
  /** Prefix of index ids (hierarchical), so repeated compactions of one session never collide. Default "". */
  readonly idPrefix?: string;
}

/** Effects a run needs. */
export interface RunDeps {
  readonly counter: TokenCounter;
  readonly now: () => number;
  /** Summariser for lcm levels 1–2 (none → truncation only). */
  readonly provider?: Provider;
  /**
   * Where hierarchical eviction writes (required for `hierarchical`). The entries of one run are
   * written in one atomic batch at its end: an aborted or interrupted run writes nothing.
   */
  readonly index?: SegmentIndex;
}

/**
 * What a run did. `messages` is the next prompt. `evicted` and `failures` (hierarchical) are those
 * of the eviction pass: what was written to the index, and units kept because their summary could
 * not be written; both are empty for lcm.
 */
export interface RunResult extends Pick<Eviction, "evicted" | "failures"> {
  readonly strategy: StrategyName;
  readonly messages: readonly Message[];
  readonly usage: ContextUsage;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly compacted: boolean;
  /** lcm: the escalation level reached. */
  readonly level?: Level;
  /** lcm: one line per attempted level. */
  readonly attempts: readonly string[];
  readonly budgetMet: boolean;
  /** Why the run did less than asked (empty when all went to plan). */
  readonly notes: readonly string[];
  /** True when the provider failed and compaction fell to truncation because of it. */
  readonly providerFailed: boolean;
}

/** Why a run could not start or finish (`IndexCommitFailed`: the run's entries were not written, none of them). */
export type RunError =
  | { readonly _tag: "InvalidRunConfig"; readonly problems: readonly string[] }
  | { readonly _tag: "RunAborted" }
  | { readonly _tag: "IndexCommitFailed"; readonly entries: number; readonly error: IndexError };

async function runLcm(messages: readonly Message[], config: RunConfig, deps: RunDeps, usage: ContextUsage, signal?: AbortSignal): Promise<E.Either<RunError, RunResult>> {
  const compactor = createLcmCompactor({ counter: deps.counter, now: deps.now, ...(deps.provider === undefined ? {} : { provider: deps.provider }) });
  const r = await compactor.compact(messages, config.options, signal)();
  if (E.isLeft(r)) return E.left(r.left._tag === "InvalidOptions" ? { _tag: "InvalidRunConfig", problems: r.left.problems } : { _tag: "RunAborted" });
  const res = r.right;
  const out = nextContext(res);
  const providerFailed = deps.provider !== undefined && res.level === "truncate" && res.attempts.some((a) => a.rejection?._tag === "ProviderFailed");
  const tokensAfter = deps.counter.countMessages(out);
  return E.right({
    strategy: "lcm", messages: out, usage, tokensBefore: usage.tokens, tokensAfter, compacted: res.level !== "none",
    level: res.level, attempts: res.attempts.map((a) => `${a.level}: ${describeRejection(a)}`), evicted: [], failures: [],
    budgetMet: tokensAfter <= config.options.maxTokens, notes: res.error === undefined ? [] : [res.error], providerFailed,
  });
}

async function runHierarchical(messages: readonly Message[], config: RunConfig, deps: RunDeps, usage: ContextUsage, signal?: AbortSignal): Promise<E.Either<RunError, RunResult>> {
  if (deps.index === undefined) return E.left({ _tag: "InvalidRunConfig", problems: ["index: the hierarchical strategy needs an index"] });
  // Evict down to the soft threshold, so the next turns have room before compaction fires again.
  const settings = {
    targetTokens: Math.floor(config.options.softThreshold * config.options.maxTokens),
    preserveLast: config.options.preserveLast,
    namespace: config.namespace,
    noteTokens: config.noteTokens,
    concurrency: 4,
    ...(config.idPrefix === undefined ? {} : { idPrefix: config.idPrefix }),
  };
  // Writes wait in a staging index and reach the real one in one batch, after the whole pass.
  const staged = stagedIndex(deps.index);
  const r = await evictUnits(messages, settings, { index: staged, counter: deps.counter, now: deps.now() }, signal)();
  if (E.isLeft(r)) return E.left({ _tag: "InvalidRunConfig", problems: r.left.problems });
  if (r.right.aborted || signal?.aborted === true) return E.left({ _tag: "RunAborted" });
  const entries = staged.pending();
  const committed = await staged.commit()();
  if (E.isLeft(committed)) return E.left({ _tag: "IndexCommitFailed", entries, error: committed.left });
  const { evicted, failures, skipped, budgetMet } = r.right;
  const out = withNote(r.right.kept, r.right.note);
  const tokensAfter = deps.counter.countMessages(out);
  return E.right({
    strategy: "hierarchical", messages: out, usage, tokensBefore: usage.tokens, tokensAfter, compacted: evicted.length > 0,
    attempts: [], evicted, failures, budgetMet: tokensAfter <= config.options.maxTokens,
    notes: [
      ...(skipped > 0 ? [`${skipped} evicted units had nothing to summarise (empty)`] : []),
      ...(budgetMet ? [] : ["pinned system messages and the preserved tail alone exceed the budget"]),
    ],
    providerFailed: false,
  });
}

/**
 * Measures pressure and, when it is soft or hard (or `force`), compacts with the configured
 * strategy. Below the soft threshold the messages come back unchanged. Never rejects.
 */
export function runCompaction(messages: readonly Message[], config: RunConfig, deps: RunDeps, signal?: AbortSignal): TaskEither<RunError, RunResult> {
  return async () => {
    const checked = decodeCompactOptions(config.options);
    if (E.isLeft(checked)) return E.left({ _tag: "InvalidRunConfig", problems: checked.left.problems });
    const tokens = messages.length === 0 ? 0 : deps.counter.countMessages(messages);
    const usage = pressureOf(tokens, config.options);
    if (!usage.shouldCompact && !config.force) {
      return E.right({
        strategy: config.strategy, messages, usage, tokensBefore: tokens, tokensAfter: tokens, compacted: false,
        attempts: [], evicted: [], failures: [], budgetMet: tokens <= config.options.maxTokens, notes: ["below the soft threshold: no compaction needed"], providerFailed: false,
      });
    }
    return config.strategy === "lcm" ? runLcm(messages, config, deps, usage, signal) : runHierarchical(messages, config, deps, usage, signal);
  };
}
