import type { Segment } from "@cc/importance";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { neighbourPositions, neighbours, prefetch, recordAccess } from "../src/prefetch.js";
import { runs } from "../../search/test/support/contract.js";

const segs: Segment[] = Array.from({ length: 6 }, (_, i) => ({
  id: `s${i}`,
  content: "",
  lastAccessed: 100,
  accessCount: i,
}));

describe("prefetch helpers", () => {
  it("recordAccess bumps lastAccessed and accessCount with the injected clock, without mutating", () => {
    const before = segs[2]!;
    const r = recordAccess(before, 5000);
    expect(r).toEqual(E.right({ ...before, lastAccessed: 5000, accessCount: 3 }));
    expect(before.accessCount).toBe(2);
    expect(recordAccess({ id: "x", content: "" }, 7)).toEqual(
      E.right({ id: "x", content: "", lastAccessed: 7, accessCount: 1 }),
    );
    expect(recordAccess({ ...before, lastAccessed: 9000 }, 5000)).toMatchObject({ right: { lastAccessed: 9000 } });
  });

  it("rejects a NaN, negative or infinite clock and bad positions or radii, naming the field", () => {
    for (const now of [Number.NaN, -1, Number.POSITIVE_INFINITY])
      expect(JSON.stringify(recordAccess(segs[0]!, now))).toContain("now:");
    expect(JSON.stringify(neighbours(segs, 6, 1))).toContain("position:");
    expect(JSON.stringify(neighbours(segs, 1.5, 1))).toContain("position:");
    expect(JSON.stringify(neighbours(segs, 1, -1))).toContain("radius:");
    expect(JSON.stringify(neighbours(segs, 1, Number.NaN))).toContain("radius:");
    expect(JSON.stringify(neighbours([], 0, 1))).toContain("length:");
  });

  it("neighbours are nearest first, earlier first on ties, clipped to the list", () => {
    expect(neighbourPositions(10, 4, 2)).toEqual(E.right([3, 5, 2, 6]));
    expect(neighbourPositions(10, 0, 2)).toEqual(E.right([1, 2]));
    expect(neighbourPositions(3, 1, 1e6)).toEqual(E.right([0, 2]));
    expect(E.map((xs: readonly Segment[]) => xs.map((s) => s.id))(neighbours(segs, 5, 1))).toEqual(E.right(["s4"]));
  });

  it("prefetch records the read (and optionally the neighbourhood) and returns the neighbours", () => {
    const r = prefetch(segs, 2, 1, 999);
    if (E.isLeft(r)) throw new Error("unexpected Left");
    expect(r.right.neighbours).toEqual([1, 3]);
    expect(r.right.segments.map((s) => s.accessCount)).toEqual([0, 1, 3, 3, 4, 5]);
    const all = prefetch(segs, 2, 1, 999, true);
    if (E.isLeft(all)) throw new Error("unexpected Left");
    expect(all.right.segments.map((s) => s.lastAccessed)).toEqual([100, 999, 999, 999, 100, 100]);
  });

  it("property: neighbours are distinct, within radius, exclude the segment, and count exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.nat(), fc.integer({ min: 0, max: 300 }), (n, p, radius) => {
        const position = p % n;
        const r = neighbourPositions(n, position, radius);
        if (E.isLeft(r)) throw new Error("unexpected Left");
        const xs = r.right;
        expect(new Set(xs).size).toBe(xs.length);
        expect(xs.every((x) => x !== position && Math.abs(x - position) <= radius && x >= 0 && x < n)).toBe(true);
        expect(xs.length).toBe(Math.min(position, radius) + Math.min(n - 1 - position, radius));
        for (let i = 1; i < xs.length; i++)
          expect(Math.abs(xs[i]! - position)).toBeGreaterThanOrEqual(Math.abs(xs[i - 1]! - position));
      }),
      { numRuns: runs(1000) },
    );
  });
});

describe("prefetch refusals", () => {
  it("have the one @cc/validate shape, each problem naming the argument", () => {
    const r = neighbourPositions(0, 0, -1);
    expect(r._tag === "Left" && r.left).toMatchObject({ _tag: "InvalidInput", subject: "prefetch arguments" });
    expect(r._tag === "Left" && r.left.problems.map((p) => p.path)).toEqual(["length", "radius"]);
    const a = recordAccess({ id: "a", content: "" }, Number.NaN);
    expect(a._tag === "Left" && a.left.message).toBe(
      "invalid prefetch arguments: now: expected a finite time ≥ 0 in epoch ms (got NaN)",
    );
  });
});

describe("memory index and index writer options", () => {
  it("are closed: a typo or a bad value makes every operation a typed InvalidOptions, not a silent default", async () => {
    const { memoryIndex } = await import("@cc/search");
    const { indexWriter } = await import("../src/writer.js");
    const typo = memoryIndex({ summaryBost: 3 } as unknown as Parameters<typeof memoryIndex>[0]);
    const c = await typo.count()();
    expect(E.isLeft(c) && c.left).toMatchObject({
      _tag: "InvalidOptions",
      subject: "memory index options",
      problems: [{ message: "summaryBost: unknown field (did you mean summaryBoost?)" }],
    });
    expect(E.isLeft(await memoryIndex({ summaryBoost: Number.NaN }).search("x")())).toBe(true);
    expect(E.isRight(await memoryIndex({ summaryBoost: 3 }).count()())).toBe(true);
    const writer = indexWriter(memoryIndex(), { namespce: "x" } as unknown as Parameters<typeof indexWriter>[1]);
    const w = await writer.writeSummary({ id: "a", content: "x" }, "s", {
      evictedAt: 0,
      signal: new AbortController().signal,
    })();
    expect(E.isLeft(w) && w.left).toMatchObject({
      _tag: "IndexWriteFailed",
      error: { _tag: "InvalidOptions", subject: "index writer options" },
    });
  });
});
