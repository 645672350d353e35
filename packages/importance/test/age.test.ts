import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { AGENT_PRESET, compact, rank, score, validateImportanceOptions, type Segment } from "../src/index.js";

const T0 = 1_700_000_000_000;
const seg = (id: string, extra: Partial<Segment> = {}): Segment => ({ id, content: "", tokenCost: 100, ...extra });

describe("age in turns", () => {
  it("halves recency every recencyHalfLifeTurns turns, from lastAccessedTurn ?? turn ?? position", () => {
    const only = {
      now: () => T0,
      age: "turns" as const,
      reuseWeight: 0,
      costWeight: 0,
      recencyHalfLifeTurns: 2,
      currentTurn: 4,
    };
    expect(score(seg("a", { turn: 2 }), only)).toBe(0.5);
    expect(score(seg("a", { turn: 0, lastAccessedTurn: 4 }), only)).toBe(1);
    expect(score(seg("a", { turn: 0 }), only)).toBe(0.25);
    expect(score(seg("a", { turn: 9 }), only)).toBe(1); // a future turn counts as now
  });

  it("auto uses turns on an evenly spaced (synthetic) clock, the clock on recorded times", () => {
    const synthetic = [0, 1, 2, 3].map((j) =>
      seg(`m${j}`, { createdAt: T0 + j * 30_000, lastAccessed: T0 + j * 30_000 }),
    );
    const recorded = [0, 7_000, 9_000, 60_000].map((d, j) => seg(`m${j}`, { createdAt: T0 + d, lastAccessed: T0 + d }));
    const opts = {
      now: () => T0 + 90_000,
      age: "auto" as const,
      reuseWeight: 0,
      costWeight: 0,
      recencyHalfLifeTurns: 1,
    };
    // In turns with a half-life of one turn the oldest goes first, at wildly different scores.
    const s = rank(synthetic, opts).map((x) => x.id);
    expect(s).toEqual(["m0", "m1", "m2", "m3"]);
    const clockOnly = rank(recorded, { ...opts, age: "clock" as const }).map((x) => x.id);
    expect(rank(recorded, opts).map((x) => x.id)).toEqual(clockOnly);
  });

  it("auto falls back to turns when there are no timestamps (the clock then cannot tell ages apart)", () => {
    const segs = [seg("old", { tokenCost: 10 }), seg("new", { tokenCost: 1000 })];
    // On the clock both have recency 0 and the big one goes; in turns the old one does.
    expect(compact(segs, { maxTokens: 1000 }, { now: () => T0, age: "clock" }).evict.map((x) => x.id)).toEqual(["new"]);
    expect(
      compact(segs, { maxTokens: 1000 }, { now: () => T0, age: "auto", recencyHalfLifeTurns: 0.1 }).evict.map(
        (x) => x.id,
      ),
    ).toEqual(["old"]);
  });
});

describe("kindWeights", () => {
  it("soft-pins a kind: the task outlives other segments but still goes when nothing else can", () => {
    const segs = [
      seg("task", { kind: "task", lastAccessed: T0 - 3_600_000 }),
      seg("demo", { kind: "demo", lastAccessed: T0 }),
      seg("out", { lastAccessed: T0 }),
    ];
    const opts = { now: () => T0, kindWeights: { task: 3 } };
    expect(compact(segs, { maxTokens: 200 }, opts).evict.map((x) => x.id)).toEqual(["demo"]);
    expect(compact(segs, { maxTokens: 200 }, { now: () => T0 }).evict.map((x) => x.id)).toEqual(["task"]);
    expect(compact(segs, { maxTokens: 50 }, opts).evict.map((x) => x.id)).toEqual(["task", "demo", "out"]);
  });

  it("is decoded: negative or non-numeric weights and unknown age measures are typed errors naming the field", () => {
    const bad = validateImportanceOptions({ kindWeights: { task: -1 }, age: "wall", keepNewest: 1.5 });
    expect(E.isLeft(bad) && bad.left.problems.map((p) => p.path).sort()).toEqual([
      "age",
      "keepNewest",
      "kindWeights.task",
    ]);
    expect(E.isRight(validateImportanceOptions({ ...AGENT_PRESET, now: () => T0 }))).toBe(true);
  });
});
