import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { costVerdict, decodeContextManager, PRICE_SHEETS } from "@cc/context";
import {
  decide,
  decodePolicy,
  DEFAULT_CYCLE_CENTRE,
  estimateCost,
  initialPolicyState,
  settle,
  withoutCaching,
  type PolicySettings,
  type PolicyState,
} from "@cc/test-support/context";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = runsFor(200, 500);
const settingsOf = (options: unknown, trigger = 0.8): PolicySettings => {
  const d = decodePolicy(options, trigger);
  if (E.isLeft(d)) throw new Error(d.left.message);
  return d.right;
};
const turn = (promptTokens: number, maxTokens = 10_000, force = false) => ({
  promptTokens,
  maxTokens,
  force,
  summaryInputTokens: 0,
});
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
const c = 0.3 / 1e6;

describe("cost model", () => {
  it("the cycle is the EOQ gap sqrt(2·K·g/c) centred on the trigger, clamped to [floor, hard]", () => {
    // Fast growth: the gap is wider than the hard threshold allows, so wait until the hard threshold
    // and cut as far below the centre (the trigger here) as that is above it: 2 × 80k − 95k.
    const wide = estimateCost({ ...base, promptTokens: 80_000, prices: sonnet });
    expect(wide.rewriteCost).toBeCloseTo((65_000 * (3.75 - 0.3)) / 1e6, 10);
    expect(wide).toMatchObject({ breakEvenTokens: 95_000, targetTokens: 65_000 });
    // Slow growth: an unclamped cycle around the trigger.
    const slow = estimateCost({ ...base, growthPerTurn: 100, promptTokens: 80_000, prices: sonnet });
    const gap = Math.sqrt((2 * slow.rewriteCost * 100) / c);
    expect(Math.abs(slow.breakEvenTokens - slow.targetTokens - gap)).toBeLessThan(2);
    expect(Math.abs(slow.breakEvenTokens - (80_000 + gap / 2))).toBeLessThan(2);
    // K is priced at the first estimate of the target (one refinement): within 1% of the final one.
    expect(Math.abs(slow.rewriteCost / ((slow.targetTokens * (3.75 - 0.3)) / 1e6) - 1)).toBeLessThan(0.01);
    // Caching off and no LLM summary: nothing to amortise, compact at the trigger to the trigger.
    const off = estimateCost({ ...base, promptTokens: 80_000, prices: withoutCaching(sonnet) });
    expect(off).toMatchObject({ rewriteCost: 0, breakEvenTokens: 80_000, targetTokens: 80_000 });
  });

  it("waits below break-even, waits when the horizon cannot repay the rewrite, pays otherwise", () => {
    expect(costVerdict({ ...base, promptTokens: 90_000, prices: sonnet })._tag).toBe("BelowBreakEven");
    expect(costVerdict({ ...base, promptTokens: 95_000, prices: sonnet })._tag).toBe("Pays");
    expect(
      costVerdict({ ...base, promptTokens: 90_000, growthPerTurn: 100, remainingTurns: 0, prices: sonnet })._tag,
    ).toBe("HorizonTooShort");
    expect(
      costVerdict({ ...base, promptTokens: 90_000, growthPerTurn: 100, remainingTurns: 100, prices: sonnet })._tag,
    ).toBe("Pays");
    // An LLM summary adds its price to the rewrite: the cycle widens.
    const plain = estimateCost({ ...base, growthPerTurn: 100, promptTokens: 85_000, prices: sonnet });
    const llm = estimateCost({
      ...base,
      growthPerTurn: 100,
      promptTokens: 85_000,
      summaryInputTokens: 85_000,
      summaryOutputTokens: 1024,
      prices: sonnet,
    });
    expect(llm.breakEvenTokens).toBeGreaterThan(plain.breakEvenTokens);
    expect(llm.rewriteCost).toBeGreaterThan(plain.rewriteCost);
  });

  it("property: the target lies in [floor, trigger], the break-even in [trigger, hard], for any prices and growth", () => {
    const priceArb = fc.double({ min: 0, max: 100, noNaN: true });
    fc.assert(
      fc.property(
        priceArb,
        priceArb,
        priceArb,
        fc.integer({ min: 1, max: 50_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        (input, cached, write, g, P) => {
          const prices = { input, cachedInput: Math.min(cached, input), cacheWrite: Math.max(write, input), output: 1 };
          const e = estimateCost({ ...base, growthPerTurn: g, promptTokens: P, prices });
          return (
            e.targetTokens >= 50_000 &&
            e.targetTokens <= 80_000 &&
            e.breakEvenTokens >= 80_000 &&
            e.breakEvenTokens <= 95_000 &&
            Number.isFinite(e.rewriteCost)
          );
        },
      ),
      { numRuns: runs },
    );
  });

  it("every price sheet is finite, non-negative and caches no dearer than it reads", () => {
    for (const [name, s] of Object.entries(PRICE_SHEETS)) {
      for (const v of Object.values(s)) expect(Number.isFinite(v) && v >= 0, name).toBe(true);
      expect(s.cachedInput <= s.input && s.cacheWrite >= s.input, name).toBe(true);
    }
  });
});

describe("policy options", () => {
  it.each([
    [{ kind: "cost", target: Number.NaN }, "target"],
    [{ kind: "cost", hardThreshold: Number.POSITIVE_INFINITY }, "hardThreshold"],
    [{ kind: "cost", minSavedShare: 1 }, "minSavedShare"],
    [{ kind: "cost", backoffStep: -0.1 }, "backoffStep"],
    [{ kind: "cost", minTurnsBetween: 1.5 }, "minTurnsBetween"],
    [{ kind: "cost", prices: "acme/gpt-9" }, "prices"],
    [{ kind: "cost", prices: { input: 1, cachedInput: Number.NEGATIVE_INFINITY, cacheWrite: 1, output: 1 } }, "prices"],
    [{ kind: "cost", cooldownTurn: 3 }, "cooldownTurn"],
    [{ kind: "greedy" }, "kind"],
    [{ kind: "hermes", target: 0.9 }, "target"],
    [{ kind: "hermes", hardThreshold: 0.7 }, "hardThreshold"],
  ])("rejects %j naming %s", (policy, field) => {
    const m = decodeContextManager({ maxTokens: 1000, policy });
    expect(E.isLeft(m) && m.left._tag === "InvalidOptions" && m.left.message.includes(field)).toBe(true);
  });

  it("rejects a resume without a policy and a malformed snapshot", () => {
    const noPolicy = decodeContextManager({
      maxTokens: 1000,
      resume: { version: 1, state: initialPolicyState, rendering: null },
    });
    expect(E.isLeft(noPolicy) && noPolicy.left.message).toContain("resume");
    const bad = decodeContextManager({
      maxTokens: 1000,
      policy: { kind: "cost" },
      resume: { version: 1, state: { ...initialPolicyState, backoff: Number.NaN }, rendering: null },
    });
    expect(E.isLeft(bad) && bad.left.message).toContain("backoff");
  });

  it("defaults: trigger from the manager, hard 0.95; hermes cuts to 0.5 with a 1,024-token minimum and 3 turns apart; cost centred on DEFAULT_CYCLE_CENTRE above hermes's floor, economic minimums", () => {
    expect(settingsOf({ kind: "hermes" })).toMatchObject({
      trigger: 0.8,
      hardThreshold: 0.95,
      target: 0.5,
      minSavedTokens: 1024,
      minSavedShare: 0.1,
      minTurnsBetween: 3,
      backoffStep: 0.05,
    });
    expect(settingsOf({ kind: "cost" })).toMatchObject({
      trigger: 0.8,
      hardThreshold: 0.95,
      target: 0.5,
      cycleCentre: DEFAULT_CYCLE_CENTRE,
      minSavedTokens: 0,
      minTurnsBetween: 0,
      prices: sonnet,
    });
    expect(settingsOf({ kind: "threshold" }).target).toBe(0.8);
  });
});

const stateArb: fc.Arbitrary<PolicyState> = fc.record({
  turn: fc.nat(1000),
  lastCompactionTurn: fc.option(fc.nat(1000), { nil: null }),
  backoff: fc.double({ min: 0, max: 0.2, noNaN: true }),
  lastPromptTokens: fc.option(fc.nat(20_000), { nil: null }),
  grownTokens: fc.nat(1_000_000),
  grownTurns: fc.nat(1000),
  summariser: fc.constantFrom<PolicyState["summariser"]>(
    { _tag: "Ready" },
    { _tag: "CoolingDown", untilTurn: 5, error: "ProviderTimeout" },
    { _tag: "Disabled", error: "ProviderAuthError" },
  ),
});
const settingsArb = fc
  .record({
    kind: fc.constantFrom("threshold", "hermes", "cost"),
    minSavedTokens: fc.nat(5000),
    minTurnsBetween: fc.nat(10),
    prices: fc.constantFrom("openai/gpt-4.1", "anthropic/claude-sonnet-4", "deepseek/deepseek-chat"),
    remainingTurns: fc.nat(100),
  })
  .map((o) => settingsOf(o));

describe("decide / settle", () => {
  it("property: at the hard threshold or over the budget every policy compacts, and settle keeps it", () => {
    fc.assert(
      fc.property(
        settingsArb,
        stateArb,
        fc.integer({ min: 9_500, max: 50_000 }),
        fc.integer({ min: 0, max: 9_000 }),
        (s, state, P, after) => {
          const { plan, state: next } = decide(s, state, turn(P));
          if (plan._tag !== "Compact") return false;
          return settle(s, next, plan, { tokensBefore: P, tokensAfter: after, llmAsked: false }).keep;
        },
      ),
      { numRuns: runs },
    );
  });

  it("below the trigger nobody compacts; hermes skips a small saving and backs off", () => {
    const s = settingsOf({ kind: "hermes", minSavedTokens: 2000 });
    expect(decide(s, initialPolicyState, turn(7000)).plan).toMatchObject({
      _tag: "Done",
      decision: { _tag: "Waited", reason: "BelowTrigger" },
    });
    const small = settingsOf({ kind: "hermes", target: 0.7 });
    const r = decide(small, initialPolicyState, turn(8000));
    expect(r.plan).toMatchObject({
      _tag: "Done",
      decision: { _tag: "Skipped", reason: "SavingTooSmall", saved: 1000, minimum: 1024 },
    });
    expect(r.state.backoff).toBeCloseTo(0.05);
    // The trigger grew: 8,200 tokens no longer reach it.
    expect(decide(small, r.state, turn(8200)).plan).toMatchObject({
      decision: { _tag: "Waited", reason: "BelowTrigger", triggerTokens: 8500 },
    });
  });

  it("a compaction that saved little backs off; a good one resets; none within minTurnsBetween unless hard", () => {
    const s = settingsOf({ kind: "hermes", minSavedTokens: 100, minSavedShare: 0 });
    const a = decide(s, initialPolicyState, turn(8100));
    if (a.plan._tag !== "Compact") throw new Error("expected a compaction");
    const poor = settle(s, a.state, a.plan, { tokensBefore: 8100, tokensAfter: 7900, llmAsked: false });
    expect(poor.decision).toMatchObject({ _tag: "Compacted", reason: "Threshold" });
    expect(poor.state.backoff).toBeCloseTo(0.05);
    expect(decide(s, poor.state, turn(9000)).plan).toMatchObject({
      decision: { _tag: "Waited", reason: "MinInterval" },
    });
    expect(decide(s, poor.state, turn(9600)).plan).toMatchObject({ _tag: "Compact", reason: "HardThreshold" });
    const good = settle(s, a.state, a.plan, { tokensBefore: 8100, tokensAfter: 5000, llmAsked: false });
    expect(good.state.backoff).toBe(0);
    // An actual saving below the minimum is discarded (not at the hard threshold).
    const d = settingsOf({ kind: "hermes" });
    const b = decide(d, initialPolicyState, turn(8100));
    if (b.plan._tag !== "Compact") throw new Error("expected a compaction");
    const tiny = settle(d, b.state, b.plan, { tokensBefore: 8100, tokensAfter: 8000, llmAsked: false });
    expect(tiny).toMatchObject({ keep: false, decision: { _tag: "Skipped", reason: "SavingTooSmall", saved: 100 } });
  });

  it("summariser failures: a cooldown of cooldownTurns, then the LLM again; an auth failure disables it for good", () => {
    const s = settingsOf({ kind: "hermes", cooldownTurns: 2, minTurnsBetween: 0 });
    const llmTurn = { ...turn(9000), summaryInputTokens: 9000 };
    const a = decide(s, initialPolicyState, llmTurn);
    if (a.plan._tag !== "Compact") throw new Error("expected a compaction");
    expect(a.plan.useLlm).toBe(true);
    const failed = settle(s, a.state, a.plan, {
      tokensBefore: 9000,
      tokensAfter: 4000,
      llmAsked: true,
      summariserError: "ProviderTransientError",
    });
    expect(failed.summariserChanged).toBe(true);
    expect(failed.state.summariser).toEqual({ _tag: "CoolingDown", untilTurn: 4, error: "ProviderTransientError" });
    const b = decide(s, failed.state, llmTurn); // turn 2
    expect(b.plan).toMatchObject({ _tag: "Compact", useLlm: false });
    const c = decide(s, { ...b.state, turn: 3 }, llmTurn); // turn 4
    expect(c.plan).toMatchObject({ _tag: "Compact", useLlm: true });
    const auth = settle(s, a.state, a.plan, {
      tokensBefore: 9000,
      tokensAfter: 4000,
      llmAsked: true,
      summariserError: "ProviderAuthError",
    });
    expect(auth.state.summariser).toEqual({ _tag: "Disabled", error: "ProviderAuthError" });
    const later = decide(s, { ...auth.state, turn: 500 }, llmTurn);
    expect(later.plan).toMatchObject({ _tag: "Compact", useLlm: false });
    if (later.plan._tag !== "Compact") throw new Error("expected a compaction");
    const again = settle(s, later.state, later.plan, { tokensBefore: 9000, tokensAfter: 4000, llmAsked: false });
    expect(again.summariserChanged).toBe(false);
    expect(again.decision).toMatchObject({ summariser: "disabled" });
  });

  it("cost: with caching a prompt above the trigger waits for break-even; without caching it compacts at the trigger", () => {
    const cached = settingsOf({
      kind: "cost",
      prices: "anthropic/claude-sonnet-4",
      remainingTurns: 50,
      cycleCentre: 0.8,
    });
    const grown: PolicyState = {
      ...initialPolicyState,
      turn: 10,
      lastPromptTokens: 76_000,
      grownTokens: 9 * 5_000,
      grownTurns: 9,
    };
    const w = decide(cached, grown, turn(81_000, 100_000));
    expect(w.plan).toMatchObject({ _tag: "Done", decision: { _tag: "Waited", reason: "BelowBreakEven" } });
    const uncached = settingsOf({ kind: "cost", prices: { ...withoutCaching(sonnet) }, remainingTurns: 50 });
    expect(decide(uncached, grown, turn(81_000, 100_000)).plan).toMatchObject({ _tag: "Compact", reason: "CostPays" });
  });
});
