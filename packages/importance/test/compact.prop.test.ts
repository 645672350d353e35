import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compact, estimatedTokens, rank, score, type Segment } from "../src/index.js";
import { NOW, numRuns, optionsArb, segmentsArb, targetArb, tiedSegmentsArb } from "./arbitraries.js";
import { referenceCompact, referenceRank } from "./reference.js";

/** Positions of `part` inside `all` (by identity, each position used once, in order). */
function positions<S>(all: readonly S[], part: readonly S[]): number[] {
  const out: number[] = [];
  let from = 0;
  for (const s of part) {
    const at = all.indexOf(s, from);
    if (at < 0) throw new Error("element not found in order");
    out.push(at);
    from = at + 1;
  }
  return out;
}

/** Wraps each segment in a fresh object so positions can be recovered by identity. */
const fresh = (segs: readonly Segment[]): Segment[] => segs.map((s) => ({ ...s }));
const sumTokens = (segs: readonly Segment[]): number => segs.reduce((a, s) => a + estimatedTokens(s), 0);

describe("compact properties", () => {
  it("keep and evict partition the input by position, both in input order", () => {
    fc.assert(
      fc.property(segmentsArb(), targetArb, optionsArb, (raw, target, options) => {
        const segs = fresh(raw);
        const r = compact(segs, target, options);
        const k = positions(segs, r.keep);
        const e = positions(segs, r.evict);
        expect([...k, ...e].sort((a, b) => a - b)).toEqual(segs.map((_, i) => i));
        expect(r.keep.length + r.evict.length).toBe(segs.length);
      }),
      { numRuns },
    );
  });

  it("never evicts a pinned segment and keeps at least minKeep segments", () => {
    fc.assert(
      fc.property(segmentsArb(), targetArb, optionsArb, (segs, target, options) => {
        const r = compact(segs, target, options);
        expect(r.evict.every((s) => s.pinned !== true)).toBe(true);
        expect(r.keep.length).toBeGreaterThanOrEqual(Math.min(segs.length, target.minKeep ?? 0));
      }),
      { numRuns },
    );
  });

  it("meets the budget whenever it is feasible, and budgetMet tells the truth", () => {
    fc.assert(
      fc.property(segmentsArb(), targetArb, optionsArb, (segs, target, options) => {
        const r = compact(segs, target, options);
        expect(r.tokensBefore).toBe(sumTokens(segs));
        expect(r.tokensAfter).toBe(sumTokens(r.keep));
        const noBudget = !(target.maxTokens > 0);
        expect(r.budgetMet).toBe(noBudget || r.tokensAfter <= target.maxTokens);
        // Feasible for the policy: evicting every non-pinned segment allowed by minKeep gets under budget.
        const free = segs.filter((s) => s.pinned !== true).length;
        const minKeep = target.minKeep ?? 0;
        const pinnedTokens = sumTokens(segs.filter((s) => s.pinned === true));
        if (!noBudget && pinnedTokens <= target.maxTokens && segs.length - free >= minKeep)
          expect(r.budgetMet).toBe(true);
        if (noBudget) expect(r.evict).toEqual([]);
      }),
      { numRuns },
    );
  });

  it("evicts exactly a lowest-score prefix of the non-pinned rank (ties by position), as the reference does", () => {
    fc.assert(
      fc.property(segmentsArb(), targetArb, optionsArb, (raw, target, options) => {
        const segs = fresh(raw);
        const r = compact(segs, target, options);
        const order = rank(segs, options).filter((s) => s.pinned !== true);
        const evicted = new Set(r.evict);
        const prefix = order.slice(0, r.evict.length);
        expect(prefix.every((s) => evicted.has(s))).toBe(true);
        // Shortest such prefix: without its last element the budget would not hold (or minKeep binds).
        if (r.evict.length > 0 && r.budgetMet) {
          const last = prefix[prefix.length - 1]!;
          expect(r.tokensAfter + estimatedTokens(last)).toBeGreaterThan(target.maxTokens);
        }
        const ref = referenceCompact(segs, target, options);
        expect(r.evict).toEqual(ref.evict);
        expect(positions(segs, r.evict)).toEqual(positions(segs, ref.evict));
        expect([r.tokensBefore, r.tokensAfter, r.budgetMet]).toEqual([
          ref.tokensBefore,
          ref.tokensAfter,
          ref.budgetMet,
        ]);
      }),
      { numRuns },
    );
  });

  it("agrees with the reference on larger inputs with heavy ties (boundary bucket sorted by comparator)", () => {
    fc.assert(
      fc.property(
        fc.oneof(segmentsArb(400), tiedSegmentsArb()),
        fc.double({ min: 0, max: 1, noNaN: true }),
        optionsArb,
        (raw, frac, options) => {
          const segs = fresh(raw);
          const target = { maxTokens: Math.floor(sumTokens(segs) * frac) };
          const r = compact(segs, target, options);
          const ref = referenceCompact(segs, target, options);
          expect(positions(segs, r.evict)).toEqual(positions(segs, ref.evict));
        },
      ),
      { numRuns },
    );
  });

  it("compacting keep again under the same clock evicts nothing", () => {
    fc.assert(
      fc.property(segmentsArb(), targetArb, optionsArb, (segs, target, options) => {
        const first = compact(segs, target, options);
        if (!first.budgetMet) return;
        const again = compact(first.keep, target, options);
        expect(again.evict).toEqual([]);
        expect(again.keep).toEqual(first.keep);
      }),
      { numRuns },
    );
  });

  it("duplicate ids change nothing about which positions are evicted", () => {
    fc.assert(
      fc.property(segmentsArb(), targetArb, optionsArb, (raw, target, options) => {
        const unique = raw.map((s, i) => ({ ...s, id: `u${i}` }));
        const same = raw.map((s) => ({ ...s, id: "same" }));
        const a = positions(unique, compact(unique, target, options).evict);
        const b = positions(same, compact(same, target, options).evict);
        expect(b).toEqual(a);
      }),
      { numRuns },
    );
  });
});

describe("rank properties", () => {
  it("is sorted ascending, stable on position, pinned last, and equals the reference", () => {
    fc.assert(
      fc.property(fc.oneof(segmentsArb(200), tiedSegmentsArb()), optionsArb, (raw, anyOptions) => {
        // Scores of single segments equal the scores of the call on the clock without the newest-first tier.
        const options = { ...anyOptions, age: "clock" as const, keepNewest: 0 };
        const segs = fresh(raw);
        const order = rank(segs, options);
        const scores = order.map((s) => score(s, options));
        const at = order.map((s) => segs.indexOf(s));
        for (let k = 1; k < order.length; k++) {
          const prev = scores[k - 1]!;
          const cur = scores[k]!;
          expect(prev <= cur).toBe(true);
          if (prev === cur) expect(at[k - 1]! < at[k]!).toBe(true);
        }
        expect(new Set(at).size).toBe(segs.length);
        const firstPinned = order.findIndex((s) => s.pinned === true);
        if (firstPinned >= 0) expect(order.slice(firstPinned).every((s) => s.pinned === true)).toBe(true);
        const ref = referenceRank(segs, options);
        expect(order.every((s, k) => s === ref[k])).toBe(true);
      }),
      { numRuns },
    );
  });
});

describe("score properties", () => {
  it("is never NaN, finite unless pinned, and non-negative", () => {
    fc.assert(
      fc.property(segmentsArb(10), optionsArb, (segs, options) => {
        for (const s of segs) {
          const v = score(s, options);
          expect(Number.isNaN(v)).toBe(false);
          expect(v >= 0).toBe(true);
          expect(Number.isFinite(v)).toBe(s.pinned !== true);
        }
      }),
      { numRuns },
    );
  });

  it("is monotone in recency, reuse and size", () => {
    const segment = segmentsArb(1)
      .filter((a) => a.length === 1)
      .map((a) => ({ ...a[0]!, pinned: false }));
    fc.assert(
      fc.property(segment, optionsArb, fc.nat(1e9), fc.nat(1000), fc.nat(1e6), (s, options, dt, dn, dtok) => {
        const base = score(s, options);
        const last = s.lastAccessed ?? s.createdAt ?? NOW;
        expect(score({ ...s, lastAccessed: last + dt }, options)).toBeGreaterThanOrEqual(base);
        expect(score({ ...s, accessCount: (s.accessCount ?? 0) + dn }, options)).toBeGreaterThanOrEqual(base);
        const tokens = estimatedTokens(s);
        expect(score({ ...s, tokenCost: tokens + dtok }, options)).toBeLessThanOrEqual(base);
      }),
      { numRuns },
    );
  });
});
