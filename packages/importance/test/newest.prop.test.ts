import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compact, rank, type Segment } from "../src/index.js";
import { numRuns, optionsArb, segmentsArb, targetArb, tiedSegmentsArb } from "./arbitraries.js";
import { referenceRank } from "./reference.js";

const fresh = (segs: readonly Segment[]): Segment[] => segs.map((s) => ({ ...s }));

describe("keepNewest: fresh observations are not evicted on arrival", () => {
  it("never evicts the newest unpinned segment while an older unpinned segment stays (keepNewest ≥ 1, any age measure, kinds, budgets)", () => {
    fc.assert(
      fc.property(
        segmentsArb(),
        targetArb,
        optionsArb,
        fc.integer({ min: 1, max: 5 }),
        (raw, target, options, keepNewest) => {
          const segs = fresh(raw);
          const r = compact(segs, target, { ...options, keepNewest });
          const evicted = new Set(r.evict);
          const free = segs.map((s, i) => ({ s, i })).filter(({ s }) => s.pinned !== true);
          // Every protected segment that went: every older unpinned one went too.
          const newest = free.slice(-keepNewest);
          for (const { s, i } of newest) {
            if (!evicted.has(s)) continue;
            expect(free.filter((f) => f.i < i).every((f) => evicted.has(f.s))).toBe(true);
          }
        },
      ),
      { numRuns },
    );
  });

  it("rank puts the newest keepNewest unpinned segments after all older unpinned ones, oldest first, and equals the reference", () => {
    fc.assert(
      fc.property(fc.oneof(segmentsArb(200), tiedSegmentsArb()), optionsArb, (raw, options) => {
        const segs = fresh(raw);
        const order = rank(segs, options);
        const ref = referenceRank(segs, options);
        expect(order.every((s, k) => s === ref[k])).toBe(true);
        const k = options.keepNewest ?? 0;
        const free = segs.filter((s) => s.pinned !== true);
        const tail = free.slice(Math.max(0, free.length - k));
        expect(order.slice(free.length - tail.length, free.length)).toEqual(tail);
      }),
      { numRuns },
    );
  });

  it("without the protection, a large fresh output is what goes (the behaviour keepNewest fixes)", () => {
    const segs: Segment[] = [
      { id: "task", content: "", tokenCost: 100, lastAccessed: 0 },
      { id: "read", content: "", tokenCost: 400, lastAccessed: 0 },
      { id: "fresh", content: "", tokenCost: 2000, lastAccessed: 30_000 },
    ];
    const now = (): number => 60_000;
    expect(compact(segs, { maxTokens: 2100 }, { now, keepNewest: 0 }).evict.map((s) => s.id)).toEqual(["fresh"]);
    expect(compact(segs, { maxTokens: 2100 }, { now, keepNewest: 1 }).evict.map((s) => s.id)).toEqual(["read"]);
  });
});
