import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { createContextManager, PRICE_SHEETS, type TurnResult } from "@cc/context";
import {
  decide,
  decodePolicy,
  DEFAULT_CYCLE_CENTRE,
  DEFAULT_CYCLE_CENTRES,
  defaultCycleCentre,
  estimateCost,
  hasPromptCaching,
  initialPolicyState,
  rewriteCharge,
  stablePrefixTokens,
  withoutCaching,
  type PolicySettings,
} from "@cc/test-support/context";
import { memoryIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = runsFor(200, 500);
const sonnet = PRICE_SHEETS["anthropic/claude-sonnet-4"];
const base = {
  triggerTokens: 80_000,
  floorTokens: 50_000,
  hardTokens: 95_000,
  summaryInputTokens: 0,
  summaryOutputTokens: 0,
  growthPerTurn: 2_000,
  remainingTurns: 40,
};
const settingsOf = (options: unknown, trigger = 0.8): PolicySettings => {
  const d = decodePolicy(options, trigger);
  if (E.isLeft(d)) throw new Error(d.left.message);
  return d.right;
};
const priceArb = fc
  .tuple(
    fc.double({ min: 0, max: 100, noNaN: true }),
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.double({ min: 1, max: 2, noNaN: true }),
  )
  .map(([input, cachedShare, writeFactor]) => ({
    input,
    cachedInput: input * cachedShare,
    cacheWrite: input * writeFactor,
    output: 1,
  }));

describe("rewrite charge: the cache write starts at the first changed message", () => {
  it("charges the suffix after the unchanged prefix at write − cached", () => {
    expect(rewriteCharge(50_000, 2_000, sonnet)).toBeCloseTo((48_000 * (3.75 - 0.3)) / 1e6, 12);
    expect(rewriteCharge(50_000, 0, sonnet)).toBeCloseTo((50_000 * (3.75 - 0.3)) / 1e6, 12);
    // A prefix longer than the prompt leaves nothing to write; caching off makes a write free.
    expect(rewriteCharge(1_000, 5_000, sonnet)).toBe(0);
    expect(rewriteCharge(50_000, 0, withoutCaching(sonnet))).toBe(0);
  });

  it("property: never negative, at most the whole-prompt charge, equal to it when the first message changes", () => {
    fc.assert(
      fc.property(priceArb, fc.nat(2_000_000), fc.nat(2_000_000), (prices, target, stable) => {
        const whole = rewriteCharge(target, 0, prices);
        const charged = rewriteCharge(target, stable, prices);
        return (
          charged >= 0 &&
          charged <= whole &&
          whole === target * Math.max(0, prices.cacheWrite / 1e6 - prices.cachedInput / 1e6)
        );
      }),
      { numRuns: runs },
    );
  });

  it("the cost model's rewrite cost uses it: a cached system prompt makes the rewrite cheaper, never dearer", () => {
    const whole = estimateCost({ ...base, promptTokens: 95_000, prices: sonnet });
    const stable = estimateCost({ ...base, promptTokens: 95_000, stablePrefixTokens: 3_000, prices: sonnet });
    expect(stable.rewriteCost).toBeCloseTo(whole.rewriteCost - (3_000 * (3.75 - 0.3)) / 1e6, 10);
    fc.assert(
      fc.property(
        priceArb,
        fc.integer({ min: 1, max: 50_000 }),
        fc.nat(200_000),
        fc.nat(100_000),
        (prices, g, P, s) => {
          const a = estimateCost({ ...base, growthPerTurn: g, promptTokens: P, prices });
          const b = estimateCost({ ...base, growthPerTurn: g, promptTokens: P, stablePrefixTokens: s, prices });
          return b.rewriteCost >= 0 && b.rewriteCost <= a.rewriteCost + 1e-12;
        },
      ),
      { numRuns: runs },
    );
  });

  it("the stable prefix is the leading system messages of the prompt", () => {
    const counter = tiktokenCounter();
    try {
      const count = (ms: readonly Message[]): number => counter.countMessages(ms);
      const sys: Message = { role: "system", content: "You are a careful engineer. Run the tests before you answer." };
      const user: Message = { role: "user", content: "fix the bug in parse_config" };
      expect(stablePrefixTokens([sys, user, sys], count)).toBe(count([sys]));
      expect(stablePrefixTokens([user, sys], count)).toBe(0);
      expect(stablePrefixTokens([], count)).toBe(0);
    } finally {
      counter.dispose();
    }
  });
});

describe("cycle centre: the cut-to target as part of the cost minimisation", () => {
  it("with caching the cycle keeps its mean at the centre: wait as long as the clamps allow, cut as far below", () => {
    const e = estimateCost({ ...base, centreTokens: 70_000, promptTokens: 95_000, prices: sonnet });
    // The floor (50k) is nearer the centre than the hard threshold: it narrows the cycle to ±20k.
    expect(e).toMatchObject({ breakEvenTokens: 90_000, targetTokens: 50_000 });
    const mid = estimateCost({ ...base, centreTokens: 75_000, promptTokens: 95_000, prices: sonnet });
    expect(mid).toMatchObject({ breakEvenTokens: 95_000, targetTokens: 55_000 });
    // Without caching nothing is amortised: compact at once down to the centre.
    const off = estimateCost({ ...base, centreTokens: 75_000, promptTokens: 80_000, prices: withoutCaching(sonnet) });
    expect(off).toMatchObject({ rewriteCost: 0, breakEvenTokens: 75_000, targetTokens: 75_000 });
  });

  it("property: the cycle's mean is the centre, its target in [floor, centre]; a lower centre never cuts to a higher target", () => {
    fc.assert(
      fc.property(
        priceArb,
        fc.integer({ min: 1, max: 50_000 }),
        fc.integer({ min: 50_000, max: 80_000 }),
        fc.integer({ min: 50_000, max: 80_000 }),
        (prices, g, x, y) => {
          const [lo, hi] = x <= y ? [x, y] : [y, x];
          const a = estimateCost({ ...base, growthPerTurn: g, promptTokens: 90_000, centreTokens: lo, prices });
          const b = estimateCost({ ...base, growthPerTurn: g, promptTokens: 90_000, centreTokens: hi, prices });
          const mean = (a.targetTokens + a.breakEvenTokens) / 2;
          return (
            a.targetTokens <= b.targetTokens &&
            a.targetTokens >= 50_000 &&
            a.targetTokens <= lo &&
            a.breakEvenTokens <= 95_000 &&
            Math.abs(mean - lo) <= 1
          );
        },
      ),
      { numRuns: runs },
    );
  });

  it("is a setting of the cost policy: default DEFAULT_CYCLE_CENTRE within [target, threshold]; rejected elsewhere or out of range", () => {
    expect(settingsOf({ kind: "cost" })).toMatchObject({ cycleCentre: DEFAULT_CYCLE_CENTRE, target: 0.5 });
    expect(settingsOf({ kind: "cost" }, 0.6).cycleCentre).toBe(Math.min(0.6, DEFAULT_CYCLE_CENTRE));
    expect(settingsOf({ kind: "cost", cycleCentre: 0.6 }).cycleCentre).toBe(0.6);
    for (const bad of [
      { kind: "cost", cycleCentre: 0.9 },
      { kind: "cost", cycleCentre: 0.4 },
      { kind: "cost", cycleCentre: Number.NaN },
      { kind: "hermes", cycleCentre: 0.7 },
    ]) {
      const d = decodePolicy(bad, 0.8);
      expect(
        E.isLeft(d) && d.left._tag === "InvalidOptions" && d.left.message.includes("cycleCentre"),
        JSON.stringify(bad),
      ).toBe(true);
    }
  });

  it("its default depends on the kind of sheet: with prompt caching (every named sheet) or without; a given centre overrides it; the clamp applies to both", () => {
    for (const name of Object.keys(PRICE_SHEETS) as (keyof typeof PRICE_SHEETS)[]) {
      expect(hasPromptCaching(PRICE_SHEETS[name]), name).toBe(true);
      expect(settingsOf({ kind: "cost", prices: name }).cycleCentre, name).toBe(DEFAULT_CYCLE_CENTRES.withCaching);
      expect(settingsOf({ kind: "cost", prices: withoutCaching(PRICE_SHEETS[name]) }).cycleCentre, name).toBe(
        DEFAULT_CYCLE_CENTRES.withoutCaching,
      );
    }
    expect(DEFAULT_CYCLE_CENTRE).toBe(DEFAULT_CYCLE_CENTRES.withCaching);
    expect(settingsOf({ kind: "cost", prices: withoutCaching(sonnet), cycleCentre: 0.75 }).cycleCentre).toBe(0.75);
    expect(settingsOf({ kind: "cost", prices: withoutCaching(sonnet) }, 0.6).cycleCentre).toBe(
      Math.min(0.6, DEFAULT_CYCLE_CENTRES.withoutCaching),
    );
    expect(settingsOf({ kind: "cost", prices: withoutCaching(sonnet), target: 0.7 }).cycleCentre).toBe(
      Math.max(0.7, DEFAULT_CYCLE_CENTRES.withoutCaching),
    );
    // A cache write dearer than input does not make a sheet "with caching": only a cheaper cache hit does.
    expect(defaultCycleCentre({ input: 1, cachedInput: 1, cacheWrite: 2, output: 1 })).toBe(
      DEFAULT_CYCLE_CENTRES.withoutCaching,
    );
    expect(defaultCycleCentre({ input: 1, cachedInput: 0.99, cacheWrite: 1, output: 1 })).toBe(
      DEFAULT_CYCLE_CENTRES.withCaching,
    );
  });

  it("the per-kind defaults are the development-split choices of bench/README.md (cost benchmark)", () => {
    expect(DEFAULT_CYCLE_CENTRES).toEqual({ withCaching: 0.7, withoutCaching: 0.66 });
  });

  it("decide cuts to the cycle's bottom: a lower centre plans a deeper cut", () => {
    const grown = { ...initialPolicyState, turn: 10, lastPromptTokens: 90_000, grownTokens: 9 * 5_000, grownTurns: 9 };
    const input = {
      promptTokens: 95_000,
      maxTokens: 100_000,
      force: false,
      summaryInputTokens: 0,
      stablePrefixTokens: 2_000,
    };
    const hi = decide(settingsOf({ kind: "cost", cycleCentre: 0.8 }), grown, input).plan;
    const lo = decide(settingsOf({ kind: "cost", cycleCentre: 0.65 }), grown, input).plan;
    if (hi._tag !== "Compact" || lo._tag !== "Compact") throw new Error("expected compactions");
    expect([hi.targetTokens, lo.targetTokens]).toEqual([65_000, 50_000]);
  });

  it("a manager with a low centre sends fewer tokens than one at the threshold on the same session (budget met)", async () => {
    const counter = tiktokenCounter();
    try {
      const history: Message[] = [{ role: "system", content: "You are a careful engineer." }];
      const sent: Record<string, number> = {};
      for (const centre of [0.8, 0.6]) {
        const m = createContextManager({
          maxTokens: 2_000,
          counter,
          index: memoryIndex(),
          namespace: `c${centre}`,
          now: () => 1_700_000_000_000,
          policy: { kind: "cost", cycleCentre: centre },
        });
        const h = [...history];
        let total = 0;
        for (let i = 0; i < 40; i++) {
          h.push({ role: "user", content: `step ${i}: ${"parse_config retry bucket value ".repeat(12)}` });
          const r: TurnResult = await m.compact(h);
          expect(r.budgetMet).toBe(true);
          total += r.tokensAfter;
        }
        sent[String(centre)] = total;
      }
      expect(sent["0.6"]!).toBeLessThan(sent["0.8"]!);
    } finally {
      counter.dispose();
    }
  });
});
