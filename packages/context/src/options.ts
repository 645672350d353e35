/**
 * Options of a context manager, decoded at the boundary: unknown keys (with a "did you mean"),
 * NaN, ±Infinity and out-of-range values are rejected with `InvalidOptions`.
 *
 * @module options
 */
import type { AlertSink } from "@cc/lcm";
import type { Provider } from "@cc/messages";
import type { EvictionOptions, MaskOptions } from "@cc/hierarchical";
import type { SegmentIndex } from "@cc/search";
import { EvictionScoringCodec, MaskOptionsCodec } from "@cc/hierarchical/internal";
import type { RecallOptions } from "./recall.js";
import type { TokenCounter } from "@cc/tokens";
import {
  callback,
  decodeWith,
  intIn,
  leaf,
  nonEmptyString,
  objectCodec,
  positiveInt,
  withMethods,
  type InvalidOptions,
} from "@cc/validate";
import type * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { STRATEGY_NAMES, type StrategyName } from "./strategy.js";
import { PolicyOptionsCodec, type PolicyOptions } from "./policy/settings.js";
import { ManagerSnapshotCodec, type ManagerSnapshot } from "./policy/snapshot.js";
import type { EventSink } from "./types.js";

/** Options of {@link createContextManager}; only `maxTokens` is required. */
export interface ContextManagerOptions {
  /** The budget: the most tokens a prompt may take (the whole request, system messages included). */
  readonly maxTokens: number;
  /**
   * How context is reduced; see {@link StrategyName}.
   * @default "hierarchical"
   */
  readonly strategy?: StrategyName;
  /**
   * Compaction starts when the prompt reaches this share of `maxTokens`, and brings it down to
   * at most this share (so the next turns have room before the next compaction). In (0, 1].
   * @default 0.8
   */
  readonly threshold?: number;
  /**
   * The most trailing messages kept verbatim (fewer when they alone would not fit; tool calls stay
   * with their results).
   * @default 6
   */
  readonly preserveLast?: number;
  /**
   * Counts tokens. Budgets are judged with it, so give an exact counter for an exact budget.
   * @default tiktokenCounter() — exact o200k_base counts
   */
  readonly counter?: TokenCounter;
  /**
   * Summariser of the `lcm` strategy (an OpenAI-compatible endpoint, or your own Provider).
   * @default offlineProvider() — extractive, no network
   */
  readonly provider?: Provider;
  /**
   * Where the `hierarchical` strategy writes evicted units (memory, SQLite or PostgreSQL).
   * @default memoryIndex()
   */
  readonly index?: SegmentIndex;
  /**
   * Index namespace of this conversation (one per session keeps sessions apart in a shared index).
   * @default "default"
   */
  readonly namespace?: string;
  /**
   * Tokens reserved for the note that lists evicted units (`hierarchical`).
   * @default 512
   */
  readonly noteTokens?: number;
  /**
   * Summaries written at once (`hierarchical`).
   * @default 4
   */
  readonly concurrency?: number;
  /** Receives `compaction_skip` and `budget_exceeded` alerts. A sink that throws or hangs never breaks a turn. */
  readonly alertSink?: AlertSink;
  /**
   * Model used for `lcm` summaries ("" picks the cheapest the provider lists).
   * @default ""
   */
  readonly summaryModel?: string;
  /**
   * The clock (epoch ms), read once per turn.
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * How the manager decides to compact ({@link PolicyOptions}): `threshold`, `hermes` (anti-thrash)
   * or `cost` (prompt-cache-aware). With a policy every turn carries a `decision`, the compacted
   * prefix is re-used byte for byte until the next compaction, and summariser failures cool down.
   * @default none — compact whenever the prompt reaches `threshold`, from the whole history
   */
  readonly policy?: PolicyOptions;
  /** Receives a {@link ContextEvent} per decision and cooldown (a `@cc/session` `EventBus` fits). A sink that throws never breaks a turn. */
  readonly events?: EventSink;
  /** A {@link ManagerSnapshot} saved before a restart (needs `policy`). */
  readonly resume?: ManagerSnapshot;
  /**
   * The secret the manager seals its notes with (kept in memory and in snapshots, never in a
   * prompt's text): only a message carrying the seal of its exact text is taken for an earlier
   * note; any other message, whatever it says, is conversation. Give the same key to managers that
   * must recognise each other's notes (another process of the same conversation).
   * @default the key of `resume`, else 32 random bytes (hex), new for each manager
   */
  readonly noteKey?: string;
  /**
   * Keep the task — the first user message, the issue or instructions an agent works from — in
   * the prompt on every turn (both strategies). A task that would take more than half of the
   * compaction's target is, with `hierarchical`, written whole to the index and pinned as an
   * excerpt within that half (its opening lines, a pointer to the whole task, the key facts of the
   * rest; the turn warns `TaskExcerpted`); with `lcm` it is compacted like the rest and the turn
   * warns `TaskNotPinned`.
   * `false` treats it as any other message.
   * @default true
   */
  readonly pinTask?: boolean;
  /**
   * Fact-keeping masks (`hierarchical`): before whole turns leave, the least important tool
   * outputs — and long observations a text-acting agent gets as user messages — are replaced by a
   * stub naming their index id, their tokens and their key facts (errors, `path:line`, paths,
   * identifiers, numbers) within `stubTokens`; the call stays and the original expands back byte
   * for byte. `false` evicts whole turns only. See `MaskOptions` of `@cc/hierarchical`.
   * @default false — whole turns only (`{}`: the newest 3 observations and outputs under 200 tokens stay, 96 tokens of facts per stub)
   */
  readonly mask?: MaskOptions | false;
  /**
   * Automatic recall (`hierarchical`): each turn searches the index with the agent's newest
   * message and appends the originals of the best hits that fit `share` of the budget, in one
   * sealed message at the end of the prompt (the prefix stays byte-identical; the next turn
   * drops it from the history). `false` turns it off. See {@link RecallOptions}.
   * @default false
   */
  readonly recall?: RecallOptions | false;
  /**
   * Overrides of the importance scoring the `hierarchical` strategy evicts by (every
   * `ImportanceOptions` field but the clock, the estimator and the turn, which each pass supplies:
   * half-lives, weights, `keepNewest`, kind weights), spread over its default `AGENT_PRESET`.
   * @default {}
   */
  readonly scoring?: NonNullable<EvictionOptions["scoring"]>;
  /**
   * A fact line in the eviction note (`hierarchical`): the literals — paths, identifiers, line
   * numbers, hex — of what left the prompt, newest first, that the kept messages do not hold,
   * in the note's tokens (its entry lines take at most a quarter). The originals stay in the index
   * (`search`, `expand`). See `noteFacts` of `EvictionOptions` in `@cc/hierarchical`. On by default since it
   * won on the retention benchmark's development split (bench/README.md, "Retention: findings").
   * @default true
   */
  readonly noteFacts?: boolean;
}

const strategyCodec = t.keyof(Object.fromEntries(STRATEGY_NAMES.map((n) => [n, null])) as Record<StrategyName, null>);
const share = leaf("Share", "a number in (0, 1]", (u): u is number => typeof u === "number" && u > 0 && u <= 1);
/** The clock, typed as the option's (a function; its signature cannot be checked at run time). */
const clock = callback<() => number>();
const nonNegativeFinite = leaf(
  "NonNegativeNumber",
  "a finite number ≥ 0",
  (u): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0,
);

/** io-ts codec of {@link ContextManagerOptions} (closed: unknown keys are rejected). */
export const ContextManagerOptionsCodec = objectCodec(
  "ContextManagerOptions",
  { maxTokens: positiveInt },
  {
    strategy: strategyCodec,
    threshold: share,
    preserveLast: intIn(0, 1_000_000),
    counter: withMethods<TokenCounter>("TokenCounter", ["count", "countMessages"]),
    provider: withMethods<Provider>("Provider", ["complete", "listModels"]),
    index: withMethods<SegmentIndex>("SegmentIndex", ["write", "search", "expand"]),
    namespace: nonEmptyString,
    noteTokens: intIn(0, 1_000_000),
    concurrency: intIn(1, 256),
    alertSink: withMethods<AlertSink>("AlertSink", ["alert"]),
    summaryModel: t.string,
    now: clock,
    policy: PolicyOptionsCodec,
    events: withMethods<EventSink>("EventSink", ["publish"]),
    resume: ManagerSnapshotCodec,
    noteKey: nonEmptyString,
    pinTask: t.boolean,
    mask: t.union([t.literal(false), MaskOptionsCodec]),
    scoring: EvictionScoringCodec,
    noteFacts: t.boolean,
    recall: t.union([
      t.literal(false),
      objectCodec(
        "RecallOptions",
        {},
        { share, k: intIn(1, 50), minScore: nonNegativeFinite },
        { expected: "a recall options object (or false)" },
      ),
    ]),
  },
  { expected: "an options object" },
);

/** Decodes options for a context manager. */
export const decodeContextManagerOptions: (input: unknown) => E.Either<InvalidOptions, ContextManagerOptions> =
  decodeWith(ContextManagerOptionsCodec, "InvalidOptions", "context manager options") as (
    input: unknown,
  ) => E.Either<InvalidOptions, ContextManagerOptions>;
