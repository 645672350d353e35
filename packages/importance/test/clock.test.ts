import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { compact, rank, readClock, score, type ScoringOptions, type Segment } from "../src/index.js";

const NOW = 1_735_689_600_000;
const H = 3_600_000;
/** Old-but-small versus fresh-but-large: recency decides which one goes first. */
const segs: readonly Segment[] = [
  { id: "old", content: "", tokenCost: 100, lastAccessed: NOW - 10 * H },
  { id: "fresh", content: "", tokenCost: 100, lastAccessed: NOW },
];
const boom = (): number => {
  throw new Error("boom");
};
/** Clocks a caller can hand over at run time that give no usable "now" (bypassing the types). */
const broken: readonly (readonly [string, unknown, string])[] = [
  ["missing", undefined, "missing"],
  ["throwing", boom, "threw"],
  ["NaN", () => Number.NaN, "not-finite"],
  ["Infinity", () => Number.POSITIVE_INFINITY, "not-finite"],
  ["-Infinity", () => Number.NEGATIVE_INFINITY, "not-finite"],
];

describe("the clock is required where scores depend on it", () => {
  it("readClock: Right for a finite reading, a typed InvalidClock otherwise (never Date.now)", () => {
    expect(readClock(() => NOW)).toEqual(E.right(NOW));
    for (const [, now, reason] of broken) {
      const r = readClock(now);
      expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "InvalidClock", reason });
      expect(E.isLeft(r) && r.left.message).toMatch(/^clock: .*recency axis is left out$/);
    }
  });

  it.each(broken)("compact with a %s clock reports `clock` and leaves the recency axis out", (_, now, reason) => {
    const options = { now } as unknown as ScoringOptions;
    const r = compact(segs, { maxTokens: 100 }, options);
    expect(r.clock).toMatchObject({ _tag: "InvalidClock", reason });
    // Without recency the two segments tie on reuse and cost: the first position goes first.
    expect(r.evict.map((s) => s.id)).toEqual(["old"]);
    const withoutRecency = compact(segs, { maxTokens: 100 }, { now: () => NOW, recencyWeight: 0 });
    expect(r.evict).toEqual(withoutRecency.evict);
    expect(r.tokensAfter).toBe(100);
    // rank and score never throw and never read a hidden clock: recency is 0.
    expect(rank(segs, options).map((s) => s.id)).toEqual(["old", "fresh"]);
    expect(score(segs[1]!, options)).toBe(score(segs[1]!, { now: () => NOW, recencyWeight: 0 }));
  });

  it("a working clock leaves no `clock` field and recency decides", () => {
    const r = compact([...segs].reverse(), { maxTokens: 100 }, { now: () => NOW });
    expect("clock" in r).toBe(false);
    expect(r.evict.map((s) => s.id)).toEqual(["old"]);
    expect(rank([...segs].reverse(), { now: () => NOW }).map((s) => s.id)).toEqual(["old", "fresh"]);
  });

  it("the types require now: score, rank and compact do not accept options without it", () => {
    // @ts-expect-error — `now` is required
    score(segs[0]!, {});
    // @ts-expect-error — `now` is required
    rank(segs, { costWeight: 1 });
    // @ts-expect-error — options are required
    compact(segs, { maxTokens: 1 });
  });
});

describe("sparse arrays and throwing getters never throw in the pure functions", () => {
  it("compact and rank on arrays with holes", () => {
    const holes = new Array<Segment>(3);
    expect(() => compact(holes, { maxTokens: 1 }, { now: () => NOW })).not.toThrow();
    expect(compact(holes, { maxTokens: 1 }, { now: () => NOW })).toMatchObject({ tokensBefore: 0, budgetMet: true });
    expect(rank(holes, { now: () => NOW })).toHaveLength(3);
    const mixed = [segs[0]!, , segs[1]!] as Segment[]; // eslint-disable-line no-sparse-arrays
    const r = compact(mixed, { maxTokens: 100 }, { now: () => NOW });
    expect(r.keep.length + r.evict.length).toBe(3);
    expect(r.evict.map((s) => s.id)).toEqual(["old"]);
  });

  it("a segment whose getter throws counts as empty in compact, rank and score", () => {
    const trap = Object.defineProperty({ id: "trap", content: "" }, "tokenCost", {
      get(): number {
        throw new Error("getter");
      },
    }) as Segment;
    expect(() => compact([trap, segs[0]!], { maxTokens: 1 }, { now: () => NOW })).not.toThrow();
    expect(rank([trap, segs[0]!], { now: () => NOW })).toHaveLength(2);
    expect(Number.isFinite(score(trap, { now: () => NOW }))).toBe(true);
  });
});
