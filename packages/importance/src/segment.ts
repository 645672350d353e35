/**
 * The data model: a context segment, the scoring options and the eviction target.
 *
 * Times are epoch milliseconds; `undefined` means "unknown". Every field is optional except
 * `id` and `content`, so a caller can pass its own richer objects (`S extends Segment`).
 */

/**
 * One chunk of an agent's context window, with the metadata importance scoring needs.
 *
 * @example
 * const s: Segment = { id: "m1", content: "ls -la output…", tokenCost: 420, lastAccessed: Date.now() };
 */
export interface Segment {
  /** Caller-chosen identifier (message id, tool-call id…). Identity inside `compact` is the position, not the id. */
  readonly id: string;
  /** The text that occupies the context window. */
  readonly content: string;
  /** Measured or estimated token count; when absent the content is estimated. */
  readonly tokenCost?: number | undefined;
  /** When the segment entered the context (epoch ms). */
  readonly createdAt?: number | undefined;
  /** When the agent last read the segment (epoch ms); falls back to `createdAt`. */
  readonly lastAccessed?: number | undefined;
  /** How often the agent re-read the segment. */
  readonly accessCount?: number | undefined;
  /** A pinned segment scores `+Infinity` and is never evicted. */
  readonly pinned?: boolean | undefined;
  /** Free-form label ("user_input", "tool_result", …); metadata only. */
  readonly kind?: string | undefined;
}

/**
 * Tuning of the score. `undefined` means the default; an explicit `0` weight disables its axis.
 *
 * @example
 * const opts: ImportanceOptions = { recencyHalfLifeMs: 10 * 60_000, costWeight: 0, now: () => 1_700_000_000_000 };
 */
export interface ImportanceOptions {
  /**
   * Age after which the recency axis halves. Must be > 0.
   * @default 1800000 (30 minutes, {@link DEFAULT_HALF_LIFE_MS})
   */
  readonly recencyHalfLifeMs?: number | undefined;
  /**
   * Weight of the recency axis `2^(-age/halfLife)`.
   * @default 1.0
   */
  readonly recencyWeight?: number | undefined;
  /**
   * Weight of the reuse axis `1 - 1/(1+accessCount)`.
   * @default 0.7
   */
  readonly reuseWeight?: number | undefined;
  /**
   * Weight of the inverted cost axis `100/(100+tokens)`.
   * @default 0.5
   */
  readonly costWeight?: number | undefined;
  /**
   * The clock (epoch ms), read once per call. Required by `score`, `rank` and `compact` (see
   * {@link ScoringOptions}): there is no hidden `Date.now()`. A clock that is missing at run time,
   * throws or returns a non-finite value leaves the recency axis out of that call (`compact`
   * reports it as `clock`).
   * @default none — required where scores depend on it
   */
  readonly now?: (() => number) | undefined;
  /**
   * Token estimator used when a segment has no `tokenCost`.
   * @default ceil(content.length / 4)
   */
  readonly estimateTokens?: ((content: string) => number) | undefined;
}

/**
 * Options of the scoring functions (`score`, `rank`, `compact`): {@link ImportanceOptions} with
 * the clock required, since recency depends on it.
 *
 * @example
 * const opts: ScoringOptions = { now: () => Date.now(), costWeight: 0 };
 */
export type ScoringOptions = ImportanceOptions & { readonly now: () => number };

/**
 * How far to compact: evict until the total is at most `maxTokens`, but keep at least `minKeep`
 * segments. `maxTokens <= 0` means "no budget" (nothing is evicted).
 *
 * @example
 * const target: EvictionTarget = { maxTokens: 8000, minKeep: 4 };
 */
export interface EvictionTarget {
  /** Token budget after eviction. */
  readonly maxTokens: number;
  /** Minimum number of segments (by position, pinned included) that survive. Default 0. */
  readonly minKeep?: number | undefined;
}

/**
 * Default half-life of the recency axis: 30 minutes.
 *
 * @example score(seg, { now, recencyHalfLifeMs: 2 * DEFAULT_HALF_LIFE_MS }) // recency decays half as fast
 */
export const DEFAULT_HALF_LIFE_MS = 30 * 60 * 1000;
/**
 * Default weight of the recency axis.
 *
 * @example score(seg, { now, recencyWeight: 2 * DEFAULT_RECENCY_WEIGHT }) // recency counts twice
 */
export const DEFAULT_RECENCY_WEIGHT = 1.0;
/**
 * Default weight of the reuse axis.
 *
 * @example score(seg, { now, reuseWeight: DEFAULT_REUSE_WEIGHT / 2 })
 */
export const DEFAULT_REUSE_WEIGHT = 0.7;
/**
 * Default weight of the inverted cost axis.
 *
 * @example score(seg, { now, costWeight: 0 }) // cost ignored (default DEFAULT_COST_WEIGHT)
 */
export const DEFAULT_COST_WEIGHT = 0.5;
/**
 * Largest accepted weight; keeps every score finite (three axes, each at most 1).
 *
 * @example validateImportanceOptions({ costWeight: MAX_WEIGHT + 1 }) // Left: "costWeight: expected a finite number in [0, 1000000], …"
 */
export const MAX_WEIGHT = 1e6;
