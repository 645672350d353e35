/**
 * The fixed settings of the retention benchmark. Pure data.
 */

/** Seed of the bootstrap resamples. */
export const BASE_SEED = 20_240_601;

/** Budgets, as shares of each session's peak running context. */
export const SHARES: readonly number[] = [0.1, 0.2, 0.3, 0.5];

/** The budgets the goal is judged at. */
export const GOAL_SHARES: readonly number[] = [0.1, 0.2, 0.3];

/** Hits of a recovery query that count (top-k). */
export const TOP_K = 5;

/**
 * The label of a budget share.
 *
 * @example shareLabel(0.1) // "10%"
 */
export function shareLabel(share: number): string {
  return `${Math.round(100 * share)}%`;
}
