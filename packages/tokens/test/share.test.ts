// The one share arithmetic: within (a target, rounded down) and reaching (a trigger, rounded up).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tokensReaching, tokensWithin } from "@cc/tokens";

describe("shares of a budget", () => {
  it("examples", () => {
    expect(tokensWithin(0.8, 8001)).toBe(6400);
    expect(tokensReaching(0.8, 8001)).toBe(6401);
    expect(tokensWithin(0.8, 8000)).toBe(6400);
    expect(tokensReaching(0.8, 8000)).toBe(6400);
    expect(tokensWithin(0.01, 10)).toBe(1);
  });

  it("property: within stays within the share, reaching is the first count that reaches it, both at least 1", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 1e9 }),
        (share, maxTokens) => {
          const w = tokensWithin(share, maxTokens);
          const r = tokensReaching(share, maxTokens);
          expect(w).toBeGreaterThanOrEqual(1);
          expect(r).toBeGreaterThanOrEqual(w);
          expect(r - w).toBeLessThanOrEqual(1);
          if (w > 1) expect(w).toBeLessThanOrEqual(share * maxTokens);
          expect(r).toBeGreaterThanOrEqual(share * maxTokens);
          if (r > 1) expect(r - 1).toBeLessThan(share * maxTokens);
        },
      ),
    );
  });
});
