/**
 * The rule that picks the cost model's default `cycleCentre` from the development sweep
 * (written in bench/README.md, "Cost benchmark", before the sweep was run), pure: the highest
 * centre at which `cost@<c>` costs no more than every rival policy (ties count as cheapest);
 * if none is cheapest, the cheapest centre (the lower on a tie).
 */

/** One policy's pooled total under one sheet. */
export interface SweepPoint {
  /** `threshold`, `hermes`, `cost` or `cost@<centre>`. */
  readonly policy: string;
  /** Input cost (USD), unrounded. */
  readonly cost: number;
  readonly retentionPct: number;
}

/** What the rule chose, and why. */
export interface CentreChoice {
  readonly centre: number;
  /** True when `cost@<centre>` costs no more than every rival. */
  readonly cheapest: boolean;
  /** Cost of `cost@<centre>` minus the cheapest rival's, as a share of the rival's (negative: cheaper). */
  readonly vsBestRival: number;
  readonly retentionPct: number;
}

/**
 * The centre of a sweep policy name, or undefined for any other policy.
 *
 * @example centreOf("cost@0.65") // 0.65
 */
export function centreOf(policy: string): number | undefined {
  if (!policy.startsWith("cost@")) return undefined;
  const c = Number(policy.slice(5));
  return Number.isFinite(c) ? c : undefined;
}

/**
 * Applies the rule to the points of one sheet; undefined when the sweep or a rival is missing.
 *
 * @example
 * chooseCentre([{ policy: "hermes", cost: 10, retentionPct: 70 }, { policy: "cost@0.6", cost: 9, retentionPct: 68 },
 *   { policy: "cost@0.7", cost: 10, retentionPct: 72 }], ["hermes"]) // { centre: 0.7, cheapest: true, … }
 */
export function chooseCentre(
  points: readonly SweepPoint[],
  rivals: readonly string[] = ["threshold", "hermes"],
): CentreChoice | undefined {
  const rival = points.filter((p) => rivals.includes(p.policy));
  if (rival.length !== rivals.length) return undefined;
  const best = Math.min(...rival.map((p) => p.cost));
  const sweep = points
    .flatMap((p) => {
      const centre = centreOf(p.policy);
      return centre === undefined ? [] : [{ ...p, centre }];
    })
    .sort((a, b) => a.centre - b.centre);
  if (sweep.length === 0) return undefined;
  const cheapest = sweep.filter((p) => p.cost <= best);
  const pick = cheapest.length > 0 ? cheapest[cheapest.length - 1]! : sweep.reduce((m, p) => (p.cost < m.cost ? p : m));
  return {
    centre: pick.centre,
    cheapest: cheapest.length > 0,
    vsBestRival: best > 0 ? pick.cost / best - 1 : 0,
    retentionPct: pick.retentionPct,
  };
}
