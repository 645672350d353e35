/**
 * Least-squares fit of a power law `y = c · x^k` on log–log axes: the exponent `k` says how a
 * cost grows with n (≈ 1 is linear, ≈ 2 quadratic).
 */
import * as E from "fp-ts/lib/Either.js";

/** One measured point (both coordinates must be finite and > 0). */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** A fitted power law and how well it explains the points. */
export interface PowerFit {
  /** Exponent `k` of `y = c · x^k` (the log–log slope). */
  readonly exponent: number;
  /** Coefficient `c`. */
  readonly coefficient: number;
  /** Coefficient of determination of the log–log regression (1 = every point on the line). */
  readonly r2: number;
  /** Number of points used. */
  readonly points: number;
}

/** Why a fit is impossible. */
export type FitError =
  | { readonly _tag: "TooFewPoints"; readonly points: number }
  | { readonly _tag: "InvalidPoint"; readonly index: number; readonly field: "x" | "y"; readonly value: number }
  | { readonly _tag: "DegenerateX" };

/**
 * Fits `log y = log c + k · log x` by ordinary least squares.
 *
 * @example
 * fitPowerLaw([{ x: 10, y: 20 }, { x: 100, y: 200 }]) // Right({ exponent: 1, coefficient: 2, r2: 1, points: 2 })
 */
export function fitPowerLaw(points: readonly Point[]): E.Either<FitError, PowerFit> {
  if (points.length < 2) return E.left({ _tag: "TooFewPoints", points: points.length });
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (!(Number.isFinite(p.x) && p.x > 0)) return E.left({ _tag: "InvalidPoint", index: i, field: "x", value: p.x });
    if (!(Number.isFinite(p.y) && p.y > 0)) return E.left({ _tag: "InvalidPoint", index: i, field: "y", value: p.y });
  }
  const xs = points.map((p) => Math.log(p.x));
  const ys = points.map((p) => Math.log(p.y));
  const n = points.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  // Degenerate when the log x are equal up to rounding (a few ulps of the largest), not when they
  // are merely close: x = 999,999 and 1,000,000 are 1e-6 apart in log space and fit fine.
  const ulps = 64 * Number.EPSILON * Math.max(1, ...xs.map(Math.abs));
  if (sxx <= n * ulps * ulps) return E.left({ _tag: "DegenerateX" });
  const k = sxy / sxx;
  const intercept = my - k * mx;
  // y constant up to rounding: the flat line explains it fully.
  const r2 = syy <= 1e-12 * n ? 1 : Math.min(1, (sxy * sxy) / (sxx * syy));
  return E.right({ exponent: k, coefficient: Math.exp(intercept), r2, points: n });
}

/** Human-readable reason a fit failed. */
export function describeFitError(e: FitError): string {
  switch (e._tag) {
    case "TooFewPoints":
      return `a fit needs at least 2 points (got ${e.points})`;
    case "InvalidPoint":
      return `points[${e.index}].${e.field}: expected a finite number > 0 (got ${e.value})`;
    case "DegenerateX":
      return "every point has the same x: the slope is undefined";
  }
}
