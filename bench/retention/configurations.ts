/**
 * What the retention benchmark replays: the headline policies (documented defaults) and the
 * importance sensitivity grid. Pure data.
 */
import type { ImportanceOptions } from "@cc/importance";
import { fifoPolicy, goOriginalPolicy, importancePolicy, lruPolicy, randomPolicy, type Policy } from "./policies.js";

/** A policy with its options, replayed once per seed. */
export interface Configuration {
  /** Row label in the tables. */
  readonly label: string;
  readonly policy: Policy;
  readonly importance: ImportanceOptions;
  /** Seeds; only the random policy draws from them, the others get one. */
  readonly seeds: readonly number[];
}

const MINUTE = 60_000;

/** Seed of the deterministic policies (only random reads it). */
export const BASE_SEED = 20_240_601;

/** `count` seeds for the random policy, starting at {@link BASE_SEED} (at least one; NaN → one). */
export function randomSeeds(count: number): number[] {
  const n = Number.isFinite(count) ? Math.min(1000, Math.max(1, Math.floor(count))) : 1;
  return Array.from({ length: n }, (_, i) => BASE_SEED + i);
}

/**
 * The headline: every policy with `@cc/importance`'s default options (the documented contract),
 * random over `seeds`.
 */
export function headline(seeds: readonly number[]): Configuration[] {
  return [
    { label: "importance", policy: importancePolicy, importance: {}, seeds: [BASE_SEED] },
    { label: "fifo", policy: fifoPolicy, importance: {}, seeds: [BASE_SEED] },
    { label: "lru", policy: lruPolicy, importance: {}, seeds: [BASE_SEED] },
    { label: "random", policy: randomPolicy, importance: {}, seeds },
    { label: "go-original", policy: goOriginalPolicy, importance: {}, seeds: [BASE_SEED] },
  ];
}

/** Cost weights of the sensitivity grid (0.5 is the default). */
export const COST_WEIGHTS: readonly number[] = [0, 0.25, 0.5];
/** Recency half-lives of the sensitivity grid, in minutes (30 is the default). */
export const HALF_LIVES_MIN: readonly number[] = [10, 30, 120];

/** Label of one grid point: "importance cw=0.25 hl=10m". */
export function sensitivityLabel(costWeight: number, halfLifeMin: number): string {
  return `importance cw=${costWeight} hl=${halfLifeMin}m`;
}

/** The importance policy over the grid COST_WEIGHTS × HALF_LIVES_MIN, other weights at their defaults. */
export function sensitivity(): Configuration[] {
  return COST_WEIGHTS.flatMap((costWeight) =>
    HALF_LIVES_MIN.map((hl) => ({
      label: sensitivityLabel(costWeight, hl),
      policy: importancePolicy,
      importance: { costWeight, recencyHalfLifeMs: hl * MINUTE },
      seeds: [BASE_SEED],
    })),
  );
}
