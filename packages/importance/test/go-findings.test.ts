/**
 * Regression examples for the defects of the Go original (GO-FINDINGS items 1–12): each pins the
 * correct behaviour on the small example that exposed the defect.
 */
import { describe, expect, it } from "vitest";
import {
  compact,
  ensureSegmentsValid,
  estimatedTokens,
  formatEvictionReport,
  rank,
  score,
  validateImportanceOptions,
  type Segment,
} from "../src/index.js";

const NOW = 1_735_689_600_000;
const H = 3_600_000;
const clock = { now: () => NOW };
const seg = (id: string, tokenCost: number, ageMs: number, extra: Partial<Segment> = {}): Segment => ({
  id,
  content: "",
  tokenCost,
  lastAccessed: NOW - ageMs,
  ...extra,
});
const ids = (segs: readonly Segment[]): string[] => segs.map((s) => s.id);

describe("GO-FINDINGS: importance", () => {
  it("1. rank order is correct: ascending score, stable, pinned last; compact evicts the stalest", () => {
    const segs = [seg("fresh", 100, 0), seg("4h", 100, 4 * H), seg("1h", 100, H)];
    expect(segs.map((s) => score(s, clock))).toEqual([1.25, 0.25390625, 0.5]);
    expect(ids(rank(segs, clock))).toEqual(["4h", "1h", "fresh"]);
    const r = compact(segs, { maxTokens: 150 }, clock);
    expect(ids(r.keep)).toEqual(["fresh"]);
    expect(ids(r.evict)).toEqual(["4h", "1h"]);
    const pinned = [seg("pin", 100, 0, { pinned: true }), seg("2h", 100, 2 * H), seg("1h", 100, H)];
    expect(ids(rank(pinned, clock))).toEqual(["2h", "1h", "pin"]);
  });

  it("2. duplicate ids: identity is the position, so twins are neither evicted together nor unpinned", () => {
    const twins = [seg("x", 1000, 2 * H), seg("x", 1000, H), seg("y", 10, 0)];
    const r = compact(twins, { maxTokens: 1500 }, clock);
    expect(r.evict).toEqual([twins[0]]);
    expect(r.keep).toEqual([twins[1], twins[2]]);

    const pinnedTwin = [seg("x", 1000, 0, { pinned: true }), seg("x", 1000, 3 * H)];
    const p = compact(pinnedTwin, { maxTokens: 1000 }, clock);
    expect(p.evict).toEqual([pinnedTwin[1]]);
    expect(p.keep).toEqual([pinnedTwin[0]]);

    const anonymous = [seg("", 100, H), seg("", 100, 2 * H, { pinned: true }), seg("", 100, 3 * H)];
    const a = compact(anonymous, { maxTokens: 1, minKeep: 1 }, clock);
    expect(a.keep).toEqual([anonymous[1]]);
    expect(a.evict).toEqual([anonymous[0], anonymous[2]]);

    const xxz = [seg("x", 100, 3 * H), seg("x", 100, 2 * H), seg("z", 100, H)];
    expect(compact(xxz, { maxTokens: 1, minKeep: 2 }, clock).keep).toEqual([xxz[1], xxz[2]]);
  });

  it("3. null entries are reported by the validator, and minKeep counts real segments only", () => {
    const v = ensureSegmentsValid([null, null, { id: "a", content: "" }, { id: "b", content: "" }]);
    expect(v._tag).toBe("Left");
    if (v._tag === "Left") expect(v.left.problems.map((p) => p.index)).toEqual([0, 1]);
    const ab = [seg("a", 100, H), seg("b", 100, 2 * H)];
    expect(compact(ab, { maxTokens: 1, minKeep: 2 }, clock).keep).toEqual(ab);
  });

  it("4. a budget missed because of minKeep or pins is flagged: budgetMet is false", () => {
    const byMinKeep = compact([seg("a", 500, H), seg("b", 500, 2 * H)], { maxTokens: 400, minKeep: 1 }, clock);
    expect(byMinKeep).toMatchObject({ tokensBefore: 1000, tokensAfter: 500, budgetMet: false });
    const byPins = compact([seg("p", 500, H, { pinned: true }), seg("b", 100, 2 * H)], { maxTokens: 400 }, clock);
    expect(byPins).toMatchObject({ tokensBefore: 600, tokensAfter: 500, budgetMet: false });
    expect(ids(byPins.evict)).toEqual(["b"]);
  });

  it("5. huge token costs never wrap around: two costs of 2^62 (capped at 2^53-1) exceed a 2^53-1 budget", () => {
    const big = 2 ** 62;
    const cap = Number.MAX_SAFE_INTEGER;
    expect(estimatedTokens(seg("a", big, 0))).toBe(cap);
    const r = compact([seg("a", big, H), seg("b", big, 2 * H)], { maxTokens: cap }, clock);
    expect(r.tokensBefore).toBe(2 * cap);
    expect(r.tokensAfter).toBe(cap);
    expect(ids(r.evict)).toEqual(["b"]);
    expect(r.budgetMet).toBe(true);
  });

  it("6. recency is the exact 2^(-age/halfLife), still positive beyond 50 half-lives", () => {
    const recencyOnly = { ...clock, recencyWeight: 1, reuseWeight: 0, costWeight: 0, recencyHalfLifeMs: H };
    expect(score(seg("a", 1, 0.47 * H), recencyOnly)).toBe(2 ** -0.47);
    expect(score(seg("a", 1, 60 * H), recencyOnly)).toBe(2 ** -60);
    expect(score(seg("a", 1, 60 * H), recencyOnly)).toBeGreaterThan(0);
  });

  it("7. a weight of 0 disables its axis; NaN, negative and huge weights are rejected with their field", () => {
    const s = seg("a", 100, H, { accessCount: 3 });
    expect(score(s, { ...clock, recencyWeight: 0, reuseWeight: 0, costWeight: 0 })).toBe(0);
    expect(score(s, { ...clock, recencyWeight: 0, reuseWeight: 0 })).toBe(0.25);
    for (const bad of [Number.NaN, -1, 1e10]) {
      const v = validateImportanceOptions({ reuseWeight: bad });
      expect(v._tag).toBe("Left");
      if (v._tag === "Left") expect(v.left.problems[0]!.field).toBe("reuseWeight");
    }
  });

  it("8. the clock is read once per call, so one pass has a single now", () => {
    let reads = 0;
    const counting = { now: () => (reads++, NOW) };
    const segs = Array.from({ length: 50 }, (_, i) => seg(`s${i}`, 100, i * 60_000));
    rank(segs, counting);
    expect(reads).toBe(1);
    compact(segs, { maxTokens: 1000 }, counting);
    expect(reads).toBe(2);
    score(segs[0]!, counting);
    expect(reads).toBe(3);
  });

  it("9. a negative tokenCost is rejected and, at run time, estimated from characters, not bytes", () => {
    const s: Segment = { id: "e", content: "ééé", tokenCost: -1 };
    expect(estimatedTokens(s)).toBe(1);
    expect(estimatedTokens({ id: "e", content: "éééééééé" })).toBe(2);
    const v = ensureSegmentsValid([s]);
    expect(v._tag === "Left" && v.left.problems[0]!.message).toBe(
      "[0].tokenCost: expected a non-negative integer, got -1",
    );
  });

  it("10. the eviction report compares tokens too: fewer tokens with the same count is a compaction", () => {
    expect(formatEvictionReport(5, 1000, 5, 400)).toBe("compacted 0 segments (1,000 → 400 tokens; 600 saved)");
    expect(formatEvictionReport(5, 1000, 5, 1000)).toBe("no compaction needed");
  });

  it("11. a throwing user callback (clock, estimator) never escapes a pass", () => {
    const segs = [
      { id: "a", content: "abcdefgh" },
      { id: "b", content: "abcd" },
    ];
    const boom = (): number => {
      throw new Error("boom");
    };
    const r = compact(segs, { maxTokens: 1 }, { now: boom, estimateTokens: boom });
    expect(r.tokensBefore).toBe(3);
    expect(r.keep.length + r.evict.length).toBe(2);
    expect(Number.isFinite(score(segs[0]!, { now: boom }))).toBe(true);
  });

  it("12. ensureSegmentsValid detects duplicate ids and names both indices", () => {
    const v = ensureSegmentsValid([
      { id: "a", content: "" },
      { id: "b", content: "" },
      { id: "a", content: "" },
    ]);
    expect(v._tag === "Left" && v.left.message).toBe('invalid segments: [2].id: duplicate id "a" (first at [0])');
  });
});
