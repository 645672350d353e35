import { describe, expect, it } from "vitest";
import { compact, estimatedTokens } from "@cc/importance";
import { generateWorkload, mulberry32 } from "../workload.js";

describe("workload generator", () => {
  it("reproduces the first 8 mulberry32 outputs for seed 42", () => {
    const r = mulberry32(42);
    const first = Array.from({ length: 8 }, () => r());
    expect(first).toEqual([
      2581720956, 1925393290, 3661312704, 2876485805, 750819978, 2261697747, 1173505300, 2683257857,
    ]);
  });

  const totals: readonly (readonly [number, number, number])[] = [
    [1_000, 513_810, 40],
    [10_000, 5_064_296, 503],
    [100_000, 50_663_275, 5_082],
    [1_000_000, 506_479_897, 49_958],
  ];
  for (const [n, tokens, pinned] of totals) {
    it(`totals for n=${n}: ${tokens} tokens, ${pinned} pinned`, () => {
      const w = generateWorkload(n, "tokencost");
      expect(w.segments).toHaveLength(n);
      expect(w.totalTokens).toBe(tokens);
      expect(w.pinned).toBe(pinned);
      expect(w.target.maxTokens).toBe(Math.floor(tokens / 2));
    });
  }

  it("both variants give the same tokens per segment (content estimate = tokenCost)", () => {
    const a = generateWorkload(2_000, "tokencost");
    const b = generateWorkload(2_000, "content");
    expect(b.totalTokens).toBe(a.totalTokens);
    b.segments.forEach((s, i) => {
      expect(s.tokenCost).toBeUndefined();
      expect(estimatedTokens(s)).toBe(a.segments[i]!.tokenCost);
    });
  });

  it("n=1,000 is a prefix of n=10,000 and compacts identically in both variants", () => {
    const small = generateWorkload(1_000, "tokencost");
    const big = generateWorkload(10_000, "tokencost");
    expect(big.segments.slice(0, 1_000)).toEqual(small.segments);
    const c = generateWorkload(1_000, "content");
    const ra = compact(small.segments, small.target, small.options);
    const rb = compact(c.segments, c.target, c.options);
    expect(rb.evict.map((s) => s.id)).toEqual(ra.evict.map((s) => s.id));
    expect(ra.budgetMet).toBe(true);
    expect(ra.tokensAfter).toBeLessThanOrEqual(small.target.maxTokens);
  });
});
