/**
 * The pre-registered selection of the importance configuration (bench/README.md, "Retention:
 * pre-registered selection"): the grid, the objective and the tie rule. Pure.
 */
import type { ImportanceOptions } from "@cc/importance";

/** One grid point. */
export interface GridPoint {
  readonly keepNewest: number;
  readonly halfLifeTurns: number;
  readonly taskWeight: number;
}

/** The grid: keepNewest × recencyHalfLifeTurns × kindWeights.task. */
export function grid(quick: boolean): GridPoint[] {
  const kn = quick ? [0, 1] : [0, 1, 2, 4];
  const hl = quick ? [10] : [5, 10, 20, 40];
  const tw = [0, 3];
  return kn.flatMap((keepNewest) => hl.flatMap((halfLifeTurns) => tw.map((taskWeight) => ({ keepNewest, halfLifeTurns, taskWeight }))));
}

/**
 * Row label of a grid point.
 *
 * @example gridLabel({ keepNewest: 1, halfLifeTurns: 10, taskWeight: 3 }) // "importance kn=1 hl=10 task=3"
 */
export function gridLabel(p: GridPoint): string {
  return `importance kn=${p.keepNewest} hl=${p.halfLifeTurns} task=${p.taskWeight}`;
}

/** The importance options of a grid point. */
export function gridOptions(p: GridPoint): ImportanceOptions {
  return { age: "auto", keepNewest: p.keepNewest, recencyHalfLifeTurns: p.halfLifeTurns, kindWeights: p.taskWeight > 0 ? { task: p.taskWeight } : {} };
}

/** A grid point with its development objective. */
export interface Scored {
  readonly point: GridPoint;
  /** Mean of re-access kept and action grounding (each a mean over budgets), in [0, 1]. */
  readonly objective: number;
}

/**
 * The winner: the highest objective; among the points within `tolerance` (0.005 = 0.5 points) of
 * it, the smallest keepNewest, then the largest half-life, then the smallest task weight.
 *
 * @example select([{ point: a, objective: 0.70 }, { point: b, objective: 0.698 }]) // the simpler of a and b
 */
export function select(scored: readonly Scored[], tolerance = 0.005): Scored | undefined {
  const finite = scored.filter((s) => Number.isFinite(s.objective));
  if (finite.length === 0) return undefined;
  const best = Math.max(...finite.map((s) => s.objective));
  return finite
    .filter((s) => s.objective >= best - tolerance)
    .sort((a, b) => a.point.keepNewest - b.point.keepNewest || b.point.halfLifeTurns - a.point.halfLifeTurns || a.point.taskWeight - b.point.taskWeight)[0];
}
