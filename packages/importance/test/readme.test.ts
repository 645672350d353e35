import { describe, expect, it } from "vitest";
import { compact, ensureSegmentsValid, formatEvictionReport, rank } from "@cc/importance";

describe("README example", () => {
  it("runs as documented", () => {
    const now = Date.UTC(2025, 0, 1);
    const minutes = (m: number): number => now - m * 60_000;
    const input: unknown = [
      { id: "system", content: "You are a coding agent.", tokenCost: 300, pinned: true },
      { id: "old-log", content: "", tokenCost: 4000, lastAccessed: minutes(120) },
      { id: "plan", content: "", tokenCost: 500, lastAccessed: minutes(90), accessCount: 6 },
      { id: "diff", content: "", tokenCost: 1200, lastAccessed: minutes(5) },
      { id: "question", content: "Why does the parser test fail?", lastAccessed: minutes(0) },
    ];

    const checked = ensureSegmentsValid(input);
    if (checked._tag === "Left") throw new Error(checked.left.message);
    const segments = checked.right;
    const options = { now: () => now };

    const order = rank(segments, options).map((s) => s.id);
    // ["old-log", "plan", "diff", "question", "system"]

    const result = compact(segments, { maxTokens: 2500, minKeep: 2 }, options);
    const report = formatEvictionReport(segments.length, result.tokensBefore, result.keep.length, result.tokensAfter);
    // result.evict → [old-log]; report → "compacted 1 segment (6,008 → 2,008 tokens; 4,000 saved)"

    expect(order).toEqual(["old-log", "plan", "diff", "question", "system"]);
    expect(result.evict.map((s) => s.id)).toEqual(["old-log"]);
    expect(result.evict[0]).toBe(segments[1]);
    expect(result.budgetMet).toBe(true);
    expect(report).toBe("compacted 1 segment (6,008 → 2,008 tokens; 4,000 saved)");
  });
});
