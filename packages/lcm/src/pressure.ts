/**
 * Context pressure: how full the window is and whether that calls for compaction.
 *
 * @module pressure
 */
import type { CompactOptions } from "./options.js";

/**
 * `none` below the soft threshold, `soft` from it, `hard` from the hard threshold.
 *
 * @example pressureOf(9_600, { maxTokens: 10_000, softThreshold: 0.5, hardThreshold: 0.95 }).pressure // "hard"
 */
export type Pressure = "none" | "soft" | "hard";

/**
 * The usage of a context window.
 *
 * @example const usage: ContextUsage = pressureOf(6_000, defaultCompactOptions()); // { tokens, fraction, pressure, shouldCompact }
 */
export interface ContextUsage {
  /** Tokens in use. */
  readonly tokens: number;
  /** `tokens / maxTokens` (may exceed 1). */
  readonly fraction: number;
  readonly pressure: Pressure;
  /** True when `pressure` is not `none`. */
  readonly shouldCompact: boolean;
}

/**
 * Classifies `tokens` against the thresholds of `options` (pure).
 *
 * @example pressureOf(960, { maxTokens: 1000, softThreshold: 0.5, hardThreshold: 0.95 })
 * // { tokens: 960, fraction: 0.96, pressure: "hard", shouldCompact: true }
 */
export function pressureOf(
  tokens: number,
  options: Pick<CompactOptions, "maxTokens" | "softThreshold" | "hardThreshold">,
): ContextUsage {
  const fraction = tokens / options.maxTokens;
  const pressure: Pressure =
    fraction >= options.hardThreshold ? "hard" : fraction >= options.softThreshold ? "soft" : "none";
  return { tokens, fraction, pressure, shouldCompact: pressure !== "none" };
}
