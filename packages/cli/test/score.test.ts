import { describe, expect, it } from "vitest";
import { fc, test } from "@fast-check/vitest";
import { formatScore } from "../src/command/score.js";

describe("formatScore", () => {
  it("prints at most 3 significant digits, exponent notation for tiny and huge scores", () => {
    expect(formatScore(0.0000041)).toBe("4.10e-6");
    expect(formatScore(0.81234)).toBe("0.812");
    expect(formatScore(12.345)).toBe("12.3");
    expect(formatScore(4100.7)).toBe("4100");
    expect(formatScore(0.001)).toBe("0.001");
    expect(formatScore(2.5e7)).toBe("2.50e+7");
    expect(formatScore(0)).toBe("0");
    expect(formatScore(Number.NaN)).toBe("NaN");
  });

  const score = fc.double({ min: 1e-12, max: 1e9, noNaN: true });

  test.prop([score], { numRuns: 1000 })("short, and within 0.5% of the score", (s) => {
    const printed = formatScore(s);
    expect(printed.length).toBeLessThanOrEqual(8);
    expect(Math.abs(Number(printed) - s) / s).toBeLessThanOrEqual(0.005);
  });

  test.prop([score, score], { numRuns: 1000 })("monotone: a higher score never prints as a lower number", (a, b) => {
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    expect(Number(formatScore(lo))).toBeLessThanOrEqual(Number(formatScore(hi)));
  });
});
