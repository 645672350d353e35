import { describe, expect, it } from "vitest";
import { rank, type Segment } from "../src/index.js";

const NOW = 1_735_689_600_000;
const clock = { now: () => NOW };
const M = 60_000;

interface Tagged extends Segment {
  readonly origin: string;
}

describe("rank", () => {
  it("returns an empty list for empty input", () => {
    expect(rank([], clock)).toEqual([]);
  });

  it("orders by ascending score and keeps input order on ties", () => {
    const segs = [
      { id: "a", content: "", tokenCost: 10, lastAccessed: NOW - 10 * M },
      { id: "b", content: "", tokenCost: 10, lastAccessed: NOW - 90 * M },
      { id: "c", content: "", tokenCost: 10, lastAccessed: NOW - 10 * M },
      { id: "d", content: "", tokenCost: 10, lastAccessed: NOW - 90 * M },
    ];
    expect(rank(segs, clock).map((s) => s.id)).toEqual(["b", "d", "a", "c"]);
  });

  it("puts pinned segments last in input order, even when they are old and large", () => {
    const segs = [
      { id: "p1", content: "", tokenCost: 9999, lastAccessed: 0, pinned: true },
      { id: "x", content: "", tokenCost: 10, lastAccessed: NOW },
      { id: "p2", content: "", tokenCost: 1, lastAccessed: NOW, pinned: true },
    ];
    expect(rank(segs, clock).map((s) => s.id)).toEqual(["x", "p1", "p2"]);
  });

  it("returns the caller's own objects and does not modify the input", () => {
    const segs: Tagged[] = [
      { id: "a", content: "", tokenCost: 10, lastAccessed: NOW, origin: "first" },
      { id: "b", content: "", tokenCost: 10, lastAccessed: NOW - 600 * M, origin: "second" },
    ];
    const copy = [...segs];
    const out = rank(segs, clock);
    expect(out[0]).toBe(segs[1]);
    expect(out[0]!.origin).toBe("second");
    expect(segs).toEqual(copy);
  });

  it("handles many equal scores (one bucket) in input order", () => {
    const segs = Array.from({ length: 500 }, (_, i) => ({
      id: `s${i}`,
      content: "",
      tokenCost: 10,
      lastAccessed: NOW,
    }));
    expect(rank(segs, clock)).toEqual(segs);
  });

  it("handles scores spread over hundreds of half-lives (most in the lowest bucket)", () => {
    const segs = Array.from({ length: 300 }, (_, i) => ({
      id: `s${i}`,
      content: "",
      tokenCost: 0,
      lastAccessed: NOW - ((i * 7919) % 300) * 30 * M,
    }));
    const out = rank(segs, { ...clock, reuseWeight: 0, costWeight: 0 });
    const ages = out.map((s) => NOW - s.lastAccessed);
    expect(ages).toEqual([...ages].sort((a, b) => b - a));
  });

  it("without an age option measures by the clock (DEFAULT_AGE), even when one segment alone carries a time", () => {
    const never = { id: "a", content: "", tokenCost: 0 };
    const justUsed = { id: "a", content: "", tokenCost: 1000, lastAccessed: NOW };
    // By the clock the never-used segment has no recency and goes first; "auto" would fall back to turns.
    expect(rank([never, justUsed], clock)).toEqual([never, justUsed]);
    expect(rank([never, justUsed], { ...clock, age: "auto" })).toEqual([justUsed, never]);
  });
});
