/**
 * The options of one eviction pass (what it should do, and its effects and clock), their closed
 * codecs, and the importance scoring a pass uses unless told otherwise.
 *
 * @module strategy/options
 */
import type { Message } from "@cc/messages";
import { finite, intIn, leaf, nonNegativeInt, objectCodec, withMethods } from "@cc/validate";
import { AGENT_PRESET, ImportanceOptionsCodec, type ImportanceOptions } from "@cc/importance";
import * as t from "io-ts";
import * as E from "fp-ts/lib/Either.js";
import type { SegmentIndex } from "@cc/search";
import type { MaskOptions } from "./mask.js";

/**
 * Counts tokens of text and of chat messages (structurally a `TokenCounter` of @cc/tokens).
 *
 * @example
 * const counter: StrategyCounter = estimateCounter();
 */
export interface StrategyCounter {
  count(text: string): number;
  countMessages(messages: readonly Message[]): number;
}

/**
 * What one eviction pass should do. Decoded by a closed codec (subject "eviction options").
 *
 * @example
 * const options: EvictionOptions = { targetTokens: 8000, preserveLast: 6, namespace: "run-1", noteTokens: 300, concurrency: 4 };
 */
export interface EvictionOptions {
  /** Token target of the whole context after the pass, the note included (integer ≥ 0). */
  readonly targetTokens: number;
  /** Trailing messages kept verbatim (adjusted by the lcm safe split; integer ≥ 0). */
  readonly preserveLast: number;
  /** Index namespace of evicted entries. */
  readonly namespace: string;
  /** Tokens reserved for the note listing evicted entries, capped at a quarter of the target (integer ≥ 0). */
  readonly noteTokens: number;
  /** Summaries written at once (integer 1..256). */
  readonly concurrency: number;
  /**
   * Prefix of index ids, so passes of different sessions sharing one namespace stay apart.
   * @default ""
   */
  readonly idPrefix?: string;
  /**
   * Overrides of the importance scoring of the pass, spread over {@link EVICTION_SCORING}
   * (`{ keepNewest: 0, age: "clock" }` restores the contract defaults of `@cc/importance`).
   * @default {} (the settings chosen by the retention benchmark: `AGENT_PRESET`)
   */
  readonly scoring?: EvictionScoring;
  /**
   * Keep the task — the first user message — in context, unless it would take more than half of
   * `targetTokens` (then it may leave like any unit and the result says so). The context manager
   * turns it on by default.
   * @default false
   */
  readonly pinTask?: boolean;
  /**
   * Rewrite kept messages as a last resort: a task too large to pin whole is pinned as an excerpt
   * (opening, pointer, key facts; the whole task in the index), and a pass still over its target
   * clips its largest outputs, then the agent's long texts, to stubs (originals in the index).
   * `false` keeps every kept message byte for byte (what a caller that maps kept messages back to
   * its own objects needs); the task is then compacted like the rest and the pass may stay over.
   * @default true
   */
  readonly rewrite?: boolean;
  /**
   * Fact-keeping masks (see {@link MaskOptions}): before whole units leave, the least important
   * outputs are replaced by a stub — their index id, their tokens and their key facts — with the
   * call kept; `false` or absent evicts whole units only. The context manager turns it on by default.
   * @default false
   */
  readonly mask?: MaskOptions | false;
  /**
   * Messages of the working set — the latest ones, their text and call arguments — that each
   * unit's relevance is measured against (BM25 over the index's terms, in [0, 1)), scored with
   * `scoring.relevanceWeight` (relevance is computed only when that weight is above 0).
   * @default 6
   */
  readonly relevanceWindow?: number;
  /**
   * Give the note a fact line: the literals (paths, identifiers, numbers, hex) of what left the
   * prompt — the units evicted now, newest first, then the outputs masked, then the fact lines of
   * earlier notes — that the kept messages do not hold, in the tokens the entry lines leave
   * (entries take at most a quarter of the note); the originals stay in the index. The context
   * manager turns it on by default.
   * @default false
   */
  readonly noteFacts?: boolean;
}

/**
 * The importance settings a pass may override: every `ImportanceOptions` field but the clock, the
 * token estimator and the current turn (the pass supplies those).
 *
 * @example const scoring: EvictionScoring = { keepNewest: 2, recencyHalfLifeTurns: 20 };
 */
export type EvictionScoring = Omit<ImportanceOptions, "now" | "estimateTokens" | "currentTurn">;

/**
 * The scoring of every pass unless `scoring` overrides it: `AGENT_PRESET` of `@cc/importance` —
 * age in turns when timestamps are synthetic or absent (`age: "auto"`, 40-turn half-life), the
 * newest unit protected (`keepNewest: 1`), no kind weight — chosen by the retention benchmark
 * (bench/README.md: 96.1% of the agent's re-accesses kept against 91.0% with the contract
 * defaults, and no unit evicted on arrival against 40% of evictions).
 *
 * @example evictUnits(history, { ...options, scoring: { ...EVICTION_SCORING, keepNewest: 2 } }, run)
 */
export const EVICTION_SCORING: Readonly<EvictionScoring> = AGENT_PRESET;

const SCORING_FIELDS = [
  "recencyHalfLifeMs",
  "recencyWeight",
  "reuseWeight",
  "relevanceWeight",
  "costWeight",
  "age",
  "recencyHalfLifeTurns",
  "keepNewest",
  "kindWeights",
] as const;
const ScoringKeys = objectCodec("EvictionScoring", {}, Object.fromEntries(SCORING_FIELDS.map((k) => [k, t.unknown])), {
  expected: "an importance scoring object",
});
/** io-ts codec of {@link EvictionScoring}: closed over {@link SCORING_FIELDS}, each value checked by the importance options codec. */
export const EvictionScoringCodec = new t.Type<EvictionScoring, EvictionScoring, unknown>(
  "EvictionScoring",
  (u): u is EvictionScoring => ScoringKeys.is(u) && ImportanceOptionsCodec.is(u),
  (u, c) => {
    const keys = ScoringKeys.validate(u, c);
    if (E.isLeft(keys)) return keys;
    return ImportanceOptionsCodec.validate(u, c) as t.Validation<EvictionScoring>;
  },
  t.identity,
);

/**
 * The effects and the clock of one pass: the index written to, the token counter and `now`, the
 * pass's single clock reading (epoch ms). Decoded by a closed codec (subject "eviction run options").
 *
 * @example
 * const run: EvictionRunOptions = { index: memoryIndex(), counter: estimateCounter(), now: Date.now() };
 */
export interface EvictionRunOptions {
  readonly index: SegmentIndex;
  readonly counter: StrategyCounter;
  readonly now: number;
  /**
   * The secret the notes of this conversation are sealed with (see {@link sealedNote}): only a
   * message carrying the seal of its exact text under this key is an earlier note, folded into
   * the new one. Without it no message is taken for an earlier note (every one is conversation).
   */
  readonly noteKey?: string;
}

/** io-ts codec of {@link MaskOptions} (closed). */
export const MaskOptionsCodec = objectCodec(
  "MaskOptions",
  {},
  {
    keepRecent: nonNegativeInt,
    minTokens: nonNegativeInt,
    stubTokens: nonNegativeInt,
    excludeTools: t.readonlyArray(t.string),
    clearAtLeast: nonNegativeInt,
  },
  { expected: "a mask options object (or false)" },
);

/** io-ts codec of {@link EvictionOptions} (closed). */
export const EvictionOptionsCodec = objectCodec(
  "EvictionOptions",
  {
    targetTokens: nonNegativeInt,
    preserveLast: nonNegativeInt,
    namespace: t.string,
    noteTokens: nonNegativeInt,
    concurrency: intIn(1, 256),
  },
  {
    idPrefix: t.string,
    scoring: EvictionScoringCodec,
    pinTask: t.boolean,
    rewrite: t.boolean,
    mask: t.union([t.literal(false), MaskOptionsCodec]),
    relevanceWindow: intIn(1, 1000),
    noteFacts: t.boolean,
  },
  { expected: "an eviction options object" },
);

/** io-ts codec of {@link EvictionRunOptions} (closed). */
export const EvictionRunOptionsCodec = objectCodec(
  "EvictionRunOptions",
  {
    index: withMethods<SegmentIndex>("SegmentIndex", ["write", "search", "expand"]),
    counter: withMethods<StrategyCounter>("StrategyCounter", ["count", "countMessages"]),
    now: finite,
  },
  { noteKey: leaf("NoteKey", "a non-empty string", (u): u is string => typeof u === "string" && u !== "") },
  { expected: "an eviction run options object" },
);
