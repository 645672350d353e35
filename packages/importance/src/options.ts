/**
 * Resolution of {@link ImportanceOptions} into plain numbers, once per call.
 *
 * The pure functions never trust their options blindly: a value the options codec would reject
 * (NaN, negative, infinite, above {@link MAX_WEIGHT}, a non-positive half-life) is replaced by its
 * default here, so no option can ever make a score NaN or infinite. Validate at the boundary with
 * `ImportanceOptionsCodec` / `validateImportanceOptions` to be told about such values instead.
 */
import {
  DEFAULT_COST_WEIGHT,
  DEFAULT_HALF_LIFE_MS,
  DEFAULT_RECENCY_WEIGHT,
  DEFAULT_REUSE_WEIGHT,
  MAX_WEIGHT,
  type ImportanceOptions,
} from "./segment.js";

/** Options reduced to numbers, with the clock already read. */
export interface ResolvedOptions {
  readonly halfLifeMs: number;
  readonly recencyWeight: number;
  readonly reuseWeight: number;
  readonly costWeight: number;
  /** The single "now" of this call (epoch ms). */
  readonly now: number;
  readonly estimate: ((content: string) => number) | undefined;
}

const weight = (w: unknown, fallback: number): number =>
  typeof w === "number" && w >= 0 && w <= MAX_WEIGHT ? w : fallback;

const halfLife = (h: unknown): number =>
  typeof h === "number" && h > 0 && h < Number.POSITIVE_INFINITY ? h : DEFAULT_HALF_LIFE_MS;

/**
 * Reads the clock once: the injected `now` when it returns a finite number, otherwise `Date.now()`
 * (a throwing or NaN-returning clock cannot poison the scores).
 */
export function readClock(now: (() => number) | undefined): number {
  if (now === undefined) return Date.now();
  try {
    const t = now();
    return typeof t === "number" && Number.isFinite(t) ? t : Date.now();
  } catch {
    return Date.now();
  }
}

/** Resolves options for one pass: defaults filled in, invalid values replaced, clock read once. */
export function resolveOptions(options: ImportanceOptions | undefined): ResolvedOptions {
  const o = options ?? {};
  return {
    halfLifeMs: halfLife(o.recencyHalfLifeMs),
    recencyWeight: weight(o.recencyWeight, DEFAULT_RECENCY_WEIGHT),
    reuseWeight: weight(o.reuseWeight, DEFAULT_REUSE_WEIGHT),
    costWeight: weight(o.costWeight, DEFAULT_COST_WEIGHT),
    now: readClock(o.now),
    estimate: typeof o.estimateTokens === "function" ? o.estimateTokens : undefined,
  };
}
