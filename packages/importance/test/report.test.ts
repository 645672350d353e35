import { describe, expect, it } from "vitest";
import { formatEvictionReport } from "../src/index.js";

describe("formatEvictionReport", () => {
  it("reports evicted count, token change and savings with thousands separators", () => {
    expect(formatEvictionReport(40, 513_810, 20, 256_000)).toBe(
      "compacted 20 segments (513,810 → 256,000 tokens; 257,810 saved)",
    );
    expect(formatEvictionReport(2, 10, 1, 4)).toBe("compacted 1 segment (10 → 4 tokens; 6 saved)");
  });

  it("says no compaction was needed only when nothing changed", () => {
    expect(formatEvictionReport(0, 0, 0, 0)).toBe("no compaction needed");
    expect(formatEvictionReport(3, 30, 3, 30)).toBe("no compaction needed");
    expect(formatEvictionReport(3, 30, 2, 30)).toBe("compacted 1 segment (30 → 30 tokens; 0 saved)");
  });

  it("flags invalid arguments instead of printing nonsense", () => {
    expect(formatEvictionReport(Number.NaN, 1, 1, 1)).toBe("invalid eviction report (counts NaN → 1, tokens 1 → 1)");
    expect(formatEvictionReport(1, -5, 1, 0)).toMatch(/^invalid eviction report/);
    expect(formatEvictionReport(2, 10, 3, 10)).toMatch(/^invalid eviction report/);
    expect(formatEvictionReport(2, 10, 2, 11)).toMatch(/^invalid eviction report/);
    expect(formatEvictionReport(1.5, 10, 1, 5)).toMatch(/^invalid eviction report/);
    expect(formatEvictionReport(1, Number.POSITIVE_INFINITY, 1, 5)).toMatch(/^invalid eviction report/);
  });
});
