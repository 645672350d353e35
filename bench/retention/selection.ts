/**
 * The pre-registered choice of the context manager's configuration (bench/README.md, "Retention:
 * pre-registered rule"): the candidates, and the rule that picks one from its development-split
 * objective. Pure.
 */
import type { ContextManagerOptions } from "@cc/context";

/** One candidate configuration of the manager. */
export interface ManagerCandidate {
  readonly label: string;
  /** Options beside `maxTokens` (the replay adds the clock and the shared exact counter). */
  readonly options: Omit<ContextManagerOptions, "maxTokens" | "counter" | "now">;
}

/** The candidates, simplest (the defaults) first. */
export const MANAGER_CANDIDATES: readonly ManagerCandidate[] = [
  { label: "manager (defaults)", options: {} },
  { label: "manager (pinTask off)", options: { pinTask: false } },
  { label: "manager (threshold 1)", options: { threshold: 1 } },
];

/** A candidate with its development objective. */
export interface ScoredCandidate {
  readonly label: string;
  /** Needed facts available, the mean over the goal's budgets, in [0, 1]. */
  readonly objective: number;
}

/**
 * The winner: among the candidates within `tolerance` (0.005 = 0.5 points) of the best finite
 * objective, the first in candidate order (the defaults win every near-tie); undefined when no
 * objective is finite.
 *
 * @example selectManager([{ label: "a", objective: 0.70 }, { label: "b", objective: 0.703 }]) // a
 */
export function selectManager(scored: readonly ScoredCandidate[], tolerance = 0.005): ScoredCandidate | undefined {
  const finite = scored.filter((s) => Number.isFinite(s.objective));
  if (finite.length === 0) return undefined;
  const best = Math.max(...finite.map((s) => s.objective));
  return finite.find((s) => s.objective >= best - tolerance);
}
