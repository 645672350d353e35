/**
 * Resolution of {@link ImportanceOptions} into plain numbers, once per call.
 *
 * The pure functions never trust their options blindly: a value the options codec would reject
 * (NaN, negative, infinite, above {@link MAX_WEIGHT}, a non-positive half-life) is replaced by its
 * default here, so no option can ever make a score NaN or infinite. Validate at the boundary with
 * `ImportanceOptionsCodec` / `validateImportanceOptions` to be told about such values instead.
 */
import * as E from "fp-ts/lib/Either.js";
import {
  DEFAULT_AGE,
  DEFAULT_HALF_LIFE_TURNS,
  DEFAULT_KEEP_NEWEST,
  DEFAULT_COST_WEIGHT,
  DEFAULT_HALF_LIFE_MS,
  DEFAULT_RECENCY_WEIGHT,
  DEFAULT_REUSE_WEIGHT,
  MAX_WEIGHT,
  type AgeMode,
  type ImportanceOptions,
} from "./segment.js";

/**
 * Why the clock of a call could not be read: it was not given (`missing`), it threw (`threw`), or
 * it returned something other than a finite number (`not-finite`). The call then leaves the
 * recency axis out (every recency is 0) instead of reading a hidden `Date.now()`.
 *
 * @example
 * readClock(() => Number.NaN); // Left({ _tag: "InvalidClock", reason: "not-finite", message: "clock: returned NaN …" })
 */
export interface ClockProblem {
  readonly _tag: "InvalidClock";
  readonly reason: "missing" | "threw" | "not-finite";
  /** One readable line. */
  readonly message: string;
}

/** Options reduced to numbers, with the clock already read. */
export interface ResolvedOptions {
  readonly halfLifeMs: number;
  readonly recencyWeight: number;
  readonly reuseWeight: number;
  readonly relevanceWeight: number;
  readonly costWeight: number;
  /** The single "now" of this call (epoch ms), or `undefined` when the clock failed (recency left out). */
  readonly now: number | undefined;
  /** Why `now` is `undefined`. */
  readonly clock: ClockProblem | undefined;
  readonly estimate: ((content: string) => number) | undefined;
  readonly age: AgeMode;
  readonly halfLifeTurns: number;
  /** The caller's current turn, when given (finite). */
  readonly currentTurn: number | undefined;
  /** Whole count ≥ 0. */
  readonly keepNewest: number;
  /** Kind → weight (only valid weights). */
  readonly kindWeights: ReadonlyMap<string, number>;
}

const weight = (w: unknown, fallback: number): number =>
  typeof w === "number" && w >= 0 && w <= MAX_WEIGHT ? w : fallback;

const halfLife = (h: unknown): number =>
  typeof h === "number" && h > 0 && h < Number.POSITIVE_INFINITY ? h : DEFAULT_HALF_LIFE_MS;

const halfLifeTurns = (h: unknown): number =>
  typeof h === "number" && h > 0 && h < Number.POSITIVE_INFINITY ? h : DEFAULT_HALF_LIFE_TURNS;

const finite = (x: unknown): number | undefined => (typeof x === "number" && Number.isFinite(x) ? x : undefined);

const problem = (reason: ClockProblem["reason"], message: string): E.Either<ClockProblem, number> =>
  E.left({ _tag: "InvalidClock", reason, message: `clock: ${message}; the recency axis is left out` });

/**
 * Reads the clock once: `Right(epoch ms)` when `now` is a function returning a finite number,
 * otherwise a {@link ClockProblem} (never a throw, never a hidden `Date.now()`).
 *
 * @example
 * readClock(() => 1_700_000_000_000); // Right(1700000000000)
 * readClock(undefined); // Left({ _tag: "InvalidClock", reason: "missing", … })
 */
export function readClock(now: unknown): E.Either<ClockProblem, number> {
  if (typeof now !== "function")
    return problem(
      "missing",
      now === undefined ? "no clock given (options.now is required)" : "options.now is not a function",
    );
  let t: unknown;
  try {
    t = (now as () => unknown)();
  } catch (e) {
    return problem("threw", `the clock threw (${e instanceof Error ? e.message : String(e)})`);
  }
  return typeof t === "number" && Number.isFinite(t)
    ? E.right(t)
    : problem("not-finite", `returned ${typeof t === "number" ? String(t) : typeof t}, not a finite number`);
}

/** Reads a field of caller options, treating a throwing getter as absent. */
function field(o: unknown, key: string): unknown {
  try {
    return typeof o === "object" && o !== null ? (o as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

const ageOf = (a: unknown): AgeMode => (a === "clock" || a === "turns" || a === "auto" ? a : DEFAULT_AGE);

const countOf = (c: unknown, fallback: number): number =>
  typeof c === "number" && c >= 0 && c < Number.POSITIVE_INFINITY ? Math.ceil(c) : fallback;

function kindWeightsOf(k: unknown): ReadonlyMap<string, number> {
  const out = new Map<string, number>();
  if (typeof k !== "object" || k === null) return out;
  try {
    for (const [kind, w] of Object.entries(k as Record<string, unknown>)) {
      if (typeof w === "number" && w >= 0 && w <= MAX_WEIGHT && w > 0) out.set(kind, w);
    }
  } catch {
    // A record whose getters throw weighs nothing (the codec reports it).
  }
  return out;
}

/** Resolves options for one pass: defaults filled in, invalid values replaced, clock read once. */
export function resolveOptions(options: ImportanceOptions | undefined): ResolvedOptions {
  const clock = readClock(field(options, "now"));
  const estimate = field(options, "estimateTokens");
  return {
    halfLifeMs: halfLife(field(options, "recencyHalfLifeMs")),
    recencyWeight: weight(field(options, "recencyWeight"), DEFAULT_RECENCY_WEIGHT),
    reuseWeight: weight(field(options, "reuseWeight"), DEFAULT_REUSE_WEIGHT),
    relevanceWeight: weight(field(options, "relevanceWeight"), 0),
    costWeight: weight(field(options, "costWeight"), DEFAULT_COST_WEIGHT),
    now: E.isRight(clock) ? clock.right : undefined,
    clock: E.isLeft(clock) ? clock.left : undefined,
    estimate: typeof estimate === "function" ? (estimate as (content: string) => number) : undefined,
    age: ageOf(field(options, "age")),
    halfLifeTurns: halfLifeTurns(field(options, "recencyHalfLifeTurns")),
    currentTurn: finite(field(options, "currentTurn")),
    keepNewest: countOf(field(options, "keepNewest"), DEFAULT_KEEP_NEWEST),
    kindWeights: kindWeightsOf(field(options, "kindWeights")),
  };
}
