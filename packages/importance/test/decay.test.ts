import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { halvings } from "../src/decay.js";
import { numRuns } from "./arbitraries.js";

describe("halvings (2^-x)", () => {
  it("is exact at whole numbers and at the edges", () => {
    expect(halvings(0)).toBe(1);
    expect(halvings(1)).toBe(0.5);
    expect(halvings(8)).toBe(2 ** -8);
    expect(halvings(1074)).toBe(Number.MIN_VALUE);
    expect(halvings(1075)).toBe(0);
    expect(halvings(Number.POSITIVE_INFINITY)).toBe(0);
    expect(halvings(-3)).toBe(1);
    expect(halvings(Number.NaN)).toBe(0);
  });

  it("is within 2 ulps of Math.pow(2, -x) over the normal range", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1000, noNaN: true }), (x) => {
        const exact = 2 ** -x;
        expect(Math.abs(halvings(x) - exact)).toBeLessThanOrEqual(2 * Number.EPSILON * exact);
      }),
      { numRuns },
    );
  });

  it("is non-increasing, also across whole-number boundaries", () => {
    const near = fc
      .integer({ min: 1, max: 1074 })
      .chain((n) => fc.double({ min: n - 1e-9, max: n + 1e-9, noNaN: true }));
    fc.assert(
      fc.property(
        fc.oneof(near, fc.double({ min: 0, max: 1100, noNaN: true })),
        fc.double({ min: 0, max: 1e-6, noNaN: true }),
        (x, d) => {
          expect(halvings(x + d)).toBeLessThanOrEqual(halvings(x));
        },
      ),
      { numRuns },
    );
  });
});
