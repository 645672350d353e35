/**
 * Seeds of the retention benchmark. Pure data.
 */

/** Seed of the deterministic policies (only random reads it). */
export const BASE_SEED = 20_240_601;

/** `count` seeds for the random policy, starting at {@link BASE_SEED} (at least one; NaN → one). */
export function randomSeeds(count: number): number[] {
  const n = Number.isFinite(count) ? Math.min(1000, Math.max(1, Math.floor(count))) : 1;
  return Array.from({ length: n }, (_, i) => BASE_SEED + i);
}
