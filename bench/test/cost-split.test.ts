import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCorpus } from "../cost/corpus.js";
import { centreOf, chooseCentre, type SweepPoint } from "../cost/selection.js";
import { addReplay, emptyTotals, goalOf, rowOf } from "../cost/totals.js";
import type { ReplayFigures } from "../cost/replay.js";
import { splitOf, taskOf } from "../retention/corpora.js";

const rivals = (threshold: number, hermes: number): SweepPoint[] => [
  { policy: "threshold", cost: threshold, retentionPct: 80 },
  { policy: "hermes", cost: hermes, retentionPct: 70 },
];
const sweep = (costs: Readonly<Record<string, number>>): SweepPoint[] =>
  Object.entries(costs).map(([c, cost]) => ({ policy: `cost@${c}`, cost, retentionPct: 100 * Number(c) }));

describe("the cost benchmark's rule for the default cycleCentre", () => {
  it("picks the highest centre no dearer than every rival; a tie counts as cheapest", () => {
    const c = chooseCentre([
      ...rivals(20, 10),
      { policy: "cost", cost: 1, retentionPct: 1 },
      ...sweep({ "0.6": 9, "0.65": 10, "0.7": 10.01, "0.8": 12 }),
    ]);
    expect(c).toMatchObject({ centre: 0.65, cheapest: true, vsBestRival: 0, retentionPct: 65 });
  });

  it("when no centre is cheapest, picks the cheapest centre, the lower one on a tie", () => {
    expect(chooseCentre([...rivals(20, 10), ...sweep({ "0.7": 11, "0.6": 11, "0.8": 12 })])).toMatchObject({
      centre: 0.6,
      cheapest: false,
    });
    expect(chooseCentre([...rivals(20, 10), ...sweep({ "0.7": 11, "0.6": 11.5 })])!.vsBestRival).toBeCloseTo(0.1);
  });

  it("no choice without a sweep or without a rival; sweep names parse", () => {
    expect(chooseCentre(rivals(1, 2))).toBeUndefined();
    expect(chooseCentre([{ policy: "hermes", cost: 1, retentionPct: 1 }, ...sweep({ "0.6": 1 })])).toBeUndefined();
    expect([centreOf("cost@0.65"), centreOf("cost"), centreOf("cost@x")]).toEqual([0.65, undefined, undefined]);
  });

  it("property: the choice is in the sweep; when cheapest, no higher centre is cheapest and it costs no more than a rival", () => {
    const arb = fc.record({
      threshold: fc.double({ min: 0, max: 100, noNaN: true }),
      hermes: fc.double({ min: 0, max: 100, noNaN: true }),
      costs: fc.uniqueArray(fc.tuple(fc.integer({ min: 50, max: 95 }), fc.double({ min: 0, max: 100, noNaN: true })), {
        minLength: 1,
        maxLength: 8,
        selector: ([c]) => c,
      }),
    });
    fc.assert(
      fc.property(arb, ({ threshold, hermes, costs }) => {
        const points = [
          ...rivals(threshold, hermes),
          ...costs.map(([c, cost]) => ({ policy: `cost@${c / 100}`, cost, retentionPct: c })),
        ];
        const choice = chooseCentre(points)!;
        const best = Math.min(threshold, hermes);
        const chosen = costs.find(([c]) => c / 100 === choice.centre);
        expect(chosen).toBeDefined();
        expect(choice.cheapest).toBe(costs.some(([, cost]) => cost <= best));
        if (choice.cheapest) {
          expect(chosen![1]).toBeLessThanOrEqual(best);
          expect(costs.some(([c, cost]) => c / 100 > choice.centre && cost <= best)).toBe(false);
        } else expect(costs.every(([, cost]) => cost >= chosen![1])).toBe(true);
      }),
    );
  });
});

describe("the cost benchmark's corpus: the retention benchmark's tasks, de-duplication and split", () => {
  const doc = (text: string): string =>
    JSON.stringify({
      info: {},
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: text },
      ],
    });
  const fixture = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "cc-cost-split-"));
    const gemini = join(dir, "agent-trajectories", "mini-swe-agent-gemini3pro");
    const deepseek = join(dir, "agent-trajectories", "mini-swe-agent-deepseek");
    mkdirSync(gemini, { recursive: true });
    mkdirSync(deepseek, { recursive: true });
    for (let i = 0; i < 12; i++) writeFileSync(join(gemini, `org__proj-${i}.traj.json`), doc(`task ${i}`));
    writeFileSync(join(gemini, "zz__proj-0.traj.json"), doc("a replay of task 0"));
    writeFileSync(join(deepseek, "org__proj-0.traj.json"), doc("the same task in another corpus"));
    return dir;
  };

  it("keeps the first replay of a task (reported), splits by SHA-256 of corpus:task, and limits per corpus and split", () => {
    const dir = fixture();
    try {
      const all = loadCorpus(dir);
      expect(all.sessions).toHaveLength(13);
      expect(all.notes.some((n) => n.includes("1 replay(s)") && n.includes("mini-gemini/zz__proj-0"))).toBe(true);
      expect(all.notes.filter((n) => n.includes("swe-agent-trajectories"))).toHaveLength(1); // the missing directory is reported
      for (const s of all.sessions) {
        expect(s.task).toBe(taskOf(`${s.name}.traj.json`));
        expect(s.split).toBe(splitOf(s.corpus, s.task));
      }
      expect(all.sessions.find((s) => s.corpus === "mini-deepseek")?.name).toBe("org__proj-0");
      const gemini = all.sessions.filter((s) => s.corpus === "mini-gemini");
      expect(new Set(gemini.map((s) => s.split))).toEqual(new Set(["dev", "eval"]));
      const dev = loadCorpus(dir, { splits: ["dev"] }).sessions;
      expect(dev.map((s) => s.name)).toEqual(all.sessions.filter((s) => s.split === "dev").map((s) => s.name));
      const one = loadCorpus(dir, { limit: 1 }).sessions;
      expect(one.map((s) => `${s.corpus}:${s.split}`).sort()).toEqual(
        [...new Set(all.sessions.map((s) => `${s.corpus}:${s.split}`))].sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the cost benchmark's rows and goals", () => {
  const figures = (cost: number, kept: number): ReplayFigures => ({
    turns: 2,
    maxTokens: 100,
    tokensSent: 10,
    cachedTokens: 5,
    cost: { s: cost },
    compactions: 1,
    decisions: { Waited: 2 },
    budgetMisses: 0,
    reaccessKept: kept,
    reaccessTotal: 4,
    neededKept: kept,
    neededTotal: 4,
  });
  it("a row carries its split; the goal compares `cost` with the other policies of that split, not the sweep", () => {
    const rows = [
      ["threshold", 10, 4],
      ["hermes", 5, 2],
      ["cost", 5, 3],
      ["cost@0.6", 1, 1],
    ].map(([p, c, k]) => {
      const t = emptyTotals();
      addReplay(t, figures(Number(c), Number(k)), "s");
      return rowOf(t, "eval", "all", "s", String(p), 10);
    });
    expect(rows[2]).toMatchObject({
      split: "eval",
      inputCostUsd: 5,
      cutVsThresholdPct: 50,
      retentionPct: 75,
      cacheHitPct: 50,
      sessions: 1,
    });
    expect(goalOf(rows, "eval", "s")).toEqual({
      split: "eval",
      sheet: "s",
      costModelCheapest: true,
      cheapestPolicy: "hermes",
      cheapestRetentionPct: 50,
      retentionGapPts: 25,
      bestRetentionPolicy: "threshold",
      cutVsThresholdPct: 50,
    });
    expect(goalOf(rows, "dev", "s")).toBeUndefined();
  });
});
