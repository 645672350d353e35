import { describe, expect, it } from "vitest";
import { compact, type Segment } from "../src/index.js";

const NOW = 1_735_689_600_000;
const clock = { now: () => NOW };
const H = 3_600_000;
const seg = (id: string, tokenCost: number, ageH: number, pinned = false): Segment => ({
  id,
  content: "",
  tokenCost,
  lastAccessed: NOW - ageH * H,
  pinned,
});
const ids = (segs: readonly Segment[]): string[] => segs.map((s) => s.id);

describe("compact", () => {
  const segs = [seg("a", 100, 1), seg("b", 200, 3), seg("c", 300, 0), seg("d", 400, 2)];

  it("evicts nothing for empty input", () => {
    expect(compact([], { maxTokens: 10 }, clock)).toEqual({
      keep: [],
      evict: [],
      tokensBefore: 0,
      tokensAfter: 0,
      budgetMet: true,
    });
  });

  it("evicts nothing when there is no budget (maxTokens <= 0 or NaN)", () => {
    for (const maxTokens of [0, -5, Number.NaN]) {
      const r = compact(segs, { maxTokens }, clock);
      expect(r.evict).toEqual([]);
      expect(r.keep).toEqual(segs);
      expect(r.budgetMet).toBe(true);
      expect(r.tokensAfter).toBe(1000);
    }
  });

  it("evicts nothing when already under budget, and the keep list is a fresh array", () => {
    const r = compact(segs, { maxTokens: 1000 }, clock);
    expect(r.evict).toEqual([]);
    expect(r.keep).toEqual(segs);
    expect(r.keep).not.toBe(segs);
  });

  it("evicts lowest score first until the budget holds, keeping input order", () => {
    const r = compact(segs, { maxTokens: 500 }, clock);
    expect(ids(r.evict)).toEqual(["b", "d"]);
    expect(ids(r.keep)).toEqual(["a", "c"]);
    expect(r).toMatchObject({ tokensBefore: 1000, tokensAfter: 400, budgetMet: true });
  });

  it("stops exactly when the total reaches the budget", () => {
    // scores: d 0.1625 < b 0.182 < a 0.5 < c 1.125
    const r = compact(segs, { maxTokens: 600 }, clock);
    expect(ids(r.evict)).toEqual(["d"]);
    expect(r.tokensAfter).toBe(600);
    expect(r.budgetMet).toBe(true);
  });

  it("respects minKeep (counting segments, pinned included) and says the budget was missed", () => {
    const r = compact(segs, { maxTokens: 1, minKeep: 3 }, clock);
    expect(ids(r.evict)).toEqual(["d"]);
    expect(r.budgetMet).toBe(false);
    const all = compact(segs, { maxTokens: 1, minKeep: 10 }, clock);
    expect(all.evict).toEqual([]);
    expect(all.budgetMet).toBe(false);
  });

  it("treats invalid minKeep values as 0 and fractional ones as the next whole count", () => {
    expect(compact(segs, { maxTokens: 1, minKeep: Number.NaN }, clock).keep).toEqual([]);
    expect(compact(segs, { maxTokens: 1, minKeep: -2 }, clock).keep).toEqual([]);
    expect(compact(segs, { maxTokens: 1, minKeep: 1.2 }, clock).keep).toHaveLength(2);
  });

  it("never evicts pinned segments, even when only they exceed the budget", () => {
    const withPins = [seg("p", 5000, 9, true), ...segs];
    const r = compact(withPins, { maxTokens: 1000 }, clock);
    expect(ids(r.keep)).toEqual(["p"]);
    expect(r.budgetMet).toBe(false);
    expect(r.tokensAfter).toBe(5000);
  });

  it("evicts zero-token segments when they are in the lowest-score prefix", () => {
    const r = compact([seg("z", 0, 5), seg("big", 100, 4), seg("keep", 10, 0)], { maxTokens: 50 }, clock);
    expect(ids(r.evict)).toEqual(["big"]);
    const r2 = compact(
      [seg("z", 0, 50), seg("big", 100, 4), seg("keep", 10, 0)],
      { maxTokens: 50 },
      { ...clock, costWeight: 0 },
    );
    expect(ids(r2.evict)).toEqual(["z", "big"]);
  });

  it("is generic: keep and evict hold the caller's own objects", () => {
    interface Mine extends Segment {
      readonly turn: number;
    }
    const mine: Mine[] = segs.map((s, turn) => ({ ...s, turn }));
    const r = compact(mine, { maxTokens: 500 }, clock);
    expect(r.evict.map((s) => s.turn)).toEqual([1, 3]);
    expect(r.evict[0]).toBe(mine[1]);
  });

  it("estimates tokens from content (CJK, emoji) when tokenCost is absent", () => {
    const text = [
      { id: "cjk", content: "漢".repeat(400), lastAccessed: NOW - 3 * H },
      { id: "emoji", content: "🚀".repeat(100), lastAccessed: NOW },
    ];
    const r = compact(text, { maxTokens: 60 }, clock);
    expect(r.tokensBefore).toBe(150);
    expect(ids(r.evict)).toEqual(["cjk"]);
  });
});
