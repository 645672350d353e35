import { describe, expect, it } from "vitest";
import { DEFAULT_HALF_LIFE_MS, estimatedTokens, score, type ScoringOptions, type Segment } from "../src/index.js";

const NOW = 1_735_689_600_000;
const clock = { now: () => NOW };
const base: Segment = { id: "s", content: "", tokenCost: 100, lastAccessed: NOW };

describe("score", () => {
  it("adds the three axes with the default weights", () => {
    // recency 1, reuse 1 - 1/4 = 0.75, cost 100/200 = 0.5
    expect(score({ ...base, accessCount: 3 }, clock)).toBeCloseTo(1 + 0.7 * 0.75 + 0.5 * 0.5, 15);
  });

  it("halves the recency axis every half-life", () => {
    const only = { ...clock, reuseWeight: 0, costWeight: 0 };
    expect(score({ ...base, lastAccessed: NOW - DEFAULT_HALF_LIFE_MS }, only)).toBe(0.5);
    expect(
      score(
        { ...base, lastAccessed: NOW - 2 * DEFAULT_HALF_LIFE_MS },
        { ...only, recencyHalfLifeMs: 2 * DEFAULT_HALF_LIFE_MS },
      ),
    ).toBe(0.5);
  });

  it("pinned scores +Infinity whatever else is set", () => {
    expect(score({ ...base, pinned: true, tokenCost: 1e9 }, clock)).toBe(Number.POSITIVE_INFINITY);
  });

  it("uses createdAt when lastAccessed is unknown, and recency 0 when both are", () => {
    const only = { ...clock, reuseWeight: 0, costWeight: 0 };
    expect(score({ id: "a", content: "", createdAt: NOW - DEFAULT_HALF_LIFE_MS }, only)).toBe(0.5);
    expect(score({ id: "a", content: "" }, only)).toBe(0);
  });

  it("treats a timestamp in the future as now (recency 1, never above)", () => {
    expect(
      score({ ...base, lastAccessed: NOW + 10 * DEFAULT_HALF_LIFE_MS }, { ...clock, reuseWeight: 0, costWeight: 0 }),
    ).toBe(1);
  });

  it("falls back to the default for invalid weights at run time and never returns NaN", () => {
    const expected = score(base, clock);
    const bad: readonly ScoringOptions[] = [
      { ...clock, recencyWeight: Number.NaN },
      { ...clock, reuseWeight: -1 },
      { ...clock, costWeight: Number.POSITIVE_INFINITY },
      { ...clock, costWeight: 1e300 },
      { ...clock, recencyHalfLifeMs: 0 },
      { ...clock, recencyHalfLifeMs: Number.NaN },
      { ...clock, recencyHalfLifeMs: -5 },
    ];
    for (const o of bad) expect(score(base, o)).toBe(expected);
  });

  it("falls back to Date.now() when the clock throws or returns a non-finite time", () => {
    for (const now of [
      () => Number.NaN,
      () => Number.POSITIVE_INFINITY,
      (): number => {
        throw new Error("clock");
      },
    ]) {
      const v = score(base, { now });
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeGreaterThanOrEqual(0);
    }
  });

  it("ignores invalid accessCount values (NaN, negative) and saturates huge ones", () => {
    const noReuse = score(base, clock);
    expect(score({ ...base, accessCount: Number.NaN }, clock)).toBe(noReuse);
    expect(score({ ...base, accessCount: -3 }, clock)).toBe(noReuse);
    expect(score({ ...base, accessCount: Number.POSITIVE_INFINITY }, clock)).toBe(noReuse + 0.7);
  });

  it("handles extreme ages and half-lives without NaN", () => {
    expect(score({ ...base, lastAccessed: 0 }, { ...clock, recencyHalfLifeMs: Number.MIN_VALUE })).toBe(0.25);
    expect(score({ ...base, lastAccessed: 0 }, { ...clock, recencyHalfLifeMs: Number.MAX_VALUE })).toBe(1.25);
  });
});

describe("estimatedTokens", () => {
  it("prefers tokenCost, rounding a fraction up", () => {
    expect(estimatedTokens({ id: "a", content: "long text here", tokenCost: 0 })).toBe(0);
    expect(estimatedTokens({ id: "a", content: "", tokenCost: 2.1 })).toBe(3);
  });

  it("estimates ceil(length / 4) in UTF-16 code units for CJK, emoji and empty content", () => {
    expect(estimatedTokens({ id: "a", content: "" })).toBe(0);
    expect(estimatedTokens({ id: "a", content: "abcde" })).toBe(2);
    expect(estimatedTokens({ id: "a", content: "漢字漢字漢" })).toBe(2);
    expect(estimatedTokens({ id: "a", content: "🚀🚀" })).toBe(1);
    expect(estimatedTokens({ id: "a", content: "\ud800\ud800\ud800\ud800\ud800" })).toBe(2);
  });

  it("uses an injected estimator, and falls back when it throws or answers nonsense", () => {
    const words = (c: string): number => c.split(/\s+/).filter(Boolean).length;
    expect(estimatedTokens({ id: "a", content: "one two three" }, { estimateTokens: words })).toBe(3);
    const fallback = estimatedTokens({ id: "a", content: "one two three" });
    for (const bad of [
      () => Number.NaN,
      () => -1,
      () => Number.POSITIVE_INFINITY,
      (): number => {
        throw new Error("x");
      },
    ]) {
      expect(estimatedTokens({ id: "a", content: "one two three" }, { estimateTokens: bad })).toBe(fallback);
    }
  });

  it("caps huge counts at 2^53 - 1", () => {
    expect(estimatedTokens({ id: "a", content: "", tokenCost: Number.POSITIVE_INFINITY })).toBe(
      Number.MAX_SAFE_INTEGER,
    );
    expect(estimatedTokens({ id: "a", content: "x" }, { estimateTokens: () => 1e300 })).toBe(Number.MAX_SAFE_INTEGER);
  });
});
