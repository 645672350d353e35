import { describeWarnings } from "../src/warnings.js";
import { estimateCounter } from "@cc/tokens";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { describe, expect, it } from "vitest";
import { createLcmCompactor, minSummaryBudget, nextContext, type CompactionResult } from "../src/compactor.js";
import { summaryMessage } from "@cc/messages";
import type { Message } from "@cc/messages";
import { offlineProvider } from "../src/providers/offline.js";
import type { Provider } from "@cc/messages";
import { leadingSystemCount, safeSplit } from "@cc/messages";
import { safeBoundaries } from "@cc/test-support/messages";
import { lastStepStart } from "../../messages/src/split.js";
import { a, call, conversationArb, issued, runs, sys, tool, u } from "../../messages/test/support/conversation.js";

const counter = estimateCounter();
const tokensOf = (m: readonly Message[]): number => counter.countMessages(m);
const words = (n: number, tag = "w"): string => Array.from({ length: n }, (_, i) => `${tag}${i % 97}`).join(" ");
const failing: Provider = {
  name: "down",
  complete: () => TE.left({ _tag: "ProviderTransientError", message: "503" }),
  listModels: () => TE.right([{ id: "m", outputCostPerMTok: 1 }]),
};

async function compact(
  messages: readonly Message[],
  maxTokens: number,
  preserveLast: number,
  provider: Provider = offlineProvider({ counter }),
): Promise<CompactionResult> {
  const r = await createLcmCompactor({ provider, counter }).compact(messages, { maxTokens, preserveLast })();
  if (E.isLeft(r)) throw new Error(r.left._tag);
  return r.right;
}

// An agent loop whose last steps carry large tool outputs.
const history: readonly Message[] = [
  sys("You are a coding agent."),
  u(`Fix the failing parser test. ${words(40, "task")}`),
  ...Array.from({ length: 8 }, (_, i) => [
    call(`c${i}`),
    tool(`c${i}`, words(i < 6 ? 40 : 300, `out${i}`)),
    a(`step ${i} done`),
  ]).flat(),
];

describe("minSummaryBudget", () => {
  it("is max(256, 10% of maxTokens), capped at half of maxTokens, at least 1", () => {
    expect(minSummaryBudget(8000)).toBe(800);
    expect(minSummaryBudget(1000)).toBe(256);
    expect(minSummaryBudget(300)).toBe(150);
    expect(minSummaryBudget(1)).toBe(1);
    expect(minSummaryBudget(128_000)).toBe(12_800);
  });
});

describe("safe boundaries and the last step", () => {
  it("lists where a tail may begin: never at a tool result, never inside a tool chain", () => {
    expect(safeBoundaries([u(), call("c1"), tool("c1"), u()])).toEqual([0, 1, 3, 4]);
    expect(safeBoundaries([sys(), u(), call("x", "y"), tool("x"), a(), tool("y"), u()])).toEqual([1, 2, 6, 7]);
    expect(safeBoundaries([])).toEqual([0]);
  });
  it("the last step starts at the later of the last user message and the last tool-calling assistant", () => {
    expect(lastStepStart([sys(), u(), call("c1"), tool("c1")])).toBe(2);
    expect(lastStepStart([sys(), u(), call("c1"), tool("c1"), u(), a()])).toBe(4);
    expect(lastStepStart([sys(), call("c1"), tool("c1"), a()])).toBe(1);
    expect(lastStepStart([sys(), a(), a()])).toBe(2);
    expect(lastStepStart([sys()])).toBe(1);
  });
  it("property: boundaries and the last step never orphan a tool result", () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        const step = lastStepStart(messages);
        for (const b of [...safeBoundaries(messages), step]) {
          const tail = messages.slice(b);
          const before = issued(messages.slice(0, b));
          expect(tail[0]?.role).not.toBe("tool");
          for (const m of tail) if (m.role === "tool") expect(before.has(m.toolCallId)).toBe(false);
        }
        expect(step).toBeGreaterThanOrEqual(leadingSystemCount(messages));
        if (messages.length > leadingSystemCount(messages)) expect(step).toBeLessThan(messages.length);
      }),
      { numRuns: runs },
    );
  });
});

describe("a preserved tail over the budget", () => {
  it("moves the split forward to a safe boundary so the summary gets its minimum budget", async () => {
    const maxTokens = 1600;
    // The requested tail leaves the summary less than its minimum budget.
    expect(
      tokensOf([history[0]!, ...history.slice(-6)]) + tokensOf([summaryMessage("")]) + minSummaryBudget(maxTokens),
    ).toBeGreaterThan(maxTokens);
    const r = await compact(history, maxTokens, 6);
    expect(r.tail).toEqual({ _tag: "TailShortened", requested: 6, preserved: 4 });
    expect(r.messages).toEqual(history.slice(-4));
    expect(r.messages[1]).toMatchObject({ role: "assistant", toolCalls: [{ id: "c7" }] });
    expect(r.messages[2]).toMatchObject({ role: "tool", toolCallId: "c7" });
    expect(r.attempts[0]!.target).toBeGreaterThanOrEqual(minSummaryBudget(maxTokens));
    expect(r.level).toBe("detailed");
    expect(r.budgetMet).toBe(true);
    expect(tokensOf(nextContext(r))).toBeLessThanOrEqual(maxTokens);
    expect(describeWarnings(r.warnings)).toBeUndefined();
    expect(r.warnings).toEqual([]);
  });
  it("past the floor it keeps the minimum summary budget, never a 1-token summary, and says the budget was missed", async () => {
    const maxTokens = 700;
    const r = await compact(history, maxTokens, 6, failing);
    expect(r.tail).toMatchObject({
      _tag: "TailExceedsBudget",
      requested: 6,
      preserved: 3,
      maxTokens,
      minSummaryTokens: 256,
    });
    expect(r.messages).toEqual(history.slice(-3));
    expect(r.level).toBe("truncate");
    expect(r.attempts.at(-1)!.target).toBe(256);
    expect(counter.count(r.summary)).toBeGreaterThan(200);
    expect(r.budgetMet).toBe(false);
    expect(r.compactedTokens).toBeGreaterThan(maxTokens);
    expect(r.compactedTokens).toBeLessThan(r.originalTokens);
    expect(describeWarnings(r.warnings)).toMatch(/fell to truncation.*last step alone takes \d+ of 700 tokens/);
    expect(r.warnings.map((w) => w._tag)).toEqual(["FellToTruncation", "TailExceedsBudget"]);
    expect(r.warnings[1]).toMatchObject({ maxTokens: 700 });
  });
  it("compacts even when preserveLast covers the whole conversation", async () => {
    const r = await compact(history, 1600, 100);
    expect(r.level).not.toBe("none");
    expect(r.tail._tag).toBe("TailShortened");
    expect(r.budgetMet).toBe(true);
  });
  it("a lone oversized last message cannot be compacted: level none, budget missed, reason given", async () => {
    const input = [sys(), u(words(3000))];
    const r = await compact(input, 500, 6);
    expect(r.level).toBe("none");
    expect(r.budgetMet).toBe(false);
    expect(r.tail._tag).toBe("TailExceedsBudget");
    expect(describeWarnings(r.warnings)).toMatch(/nothing before the preserved tail.*last step alone/);
    expect(r.warnings.map((w) => w._tag)).toEqual(["NothingCompacted", "TailExceedsBudget"]);
    expect(r.warnings[0]).toMatchObject({ reason: "only_tail" });
    expect(nextContext(r)).toEqual(input);
  });
  it("keeps the requested tail when it leaves enough room", async () => {
    const r = await compact(history, 6000, 6);
    expect(r.tail).toEqual({ _tag: "TailKept", requested: 6, preserved: 6 });
    expect(r.budgetMet).toBe(true);
  });
});

// Conversations with message sizes from a word to a large tool output.
const sizedArb = fc
  .tuple(conversationArb, fc.array(fc.integer({ min: 0, max: 600 }), { minLength: 8, maxLength: 8 }))
  .map(([messages, sizes]) =>
    messages.map((m, i): Message =>
      m.role === "system" ? m : { ...m, content: `${m.content} ${words(sizes[i % sizes.length]!)}` },
    ),
  );

describe("property: budgeting the tail", () => {
  it("no squeezed summary, no orphaned tool result, within budget whenever the floor fits, budgetMet truthful, input untouched", async () => {
    const overhead = tokensOf([summaryMessage("")]);
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        sizedArb,
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 20, max: 8000 }),
        fc.constantFrom("offline", "down"),
        async (messages, keep, maxTokens, which) => {
          const input = structuredClone(messages);
          const r = await compact(input, maxTokens, keep, which === "offline" ? offlineProvider({ counter }) : failing);
          expect(input).toEqual(messages);
          const next = nextContext(r);
          expect(r.budgetMet).toBe(tokensOf(next) <= maxTokens);
          expect(r.compactedTokens).toBe(tokensOf(next));
          const sysCount = leadingSystemCount(messages);
          const split = messages.length - r.messages.length;
          expect(r.messages).toEqual(messages.slice(split));
          // The tail only ever shrinks from what preserveLast asks for, down to the last step.
          const requested = safeSplit(messages, keep);
          const floor = Math.max(requested, lastStepStart(messages));
          if (r.level !== "none") {
            expect(split).toBeGreaterThanOrEqual(requested);
            expect(split).toBeLessThanOrEqual(floor);
            const calls = issued(messages.slice(sysCount, split));
            expect(r.messages[0]?.role).not.toBe("tool");
            for (const m of r.messages) if (m.role === "tool") expect(calls.has(m.toolCallId)).toBe(false);
            const source = tokensOf(messages.slice(sysCount, split)) - overhead;
            // Never a summary squeezed below its minimum budget (or all its source could need).
            expect(r.attempts[0]!.target).toBeGreaterThanOrEqual(Math.min(minSummaryBudget(maxTokens), source - 1));
            expect(r.compactedTokens).toBeLessThan(r.originalTokens);
          }
          // Whenever the floor leaves the summary its minimum room, the budget is met.
          const floorSource = tokensOf(messages.slice(sysCount, floor)) - overhead;
          const floorRest = tokensOf([...messages.slice(0, sysCount), ...messages.slice(floor)]);
          const floorFits =
            floor > sysCount &&
            floorSource >= 2 &&
            floorRest + overhead + Math.min(minSummaryBudget(maxTokens), floorSource - 1) <= maxTokens;
          if (floorFits || tokensOf(messages) <= maxTokens) expect(r.budgetMet).toBe(true);
          expect(r.tail._tag === "TailExceedsBudget").toBe(!floorFits && tokensOf(messages) > maxTokens);
          seen.add(`${r.tail._tag}/${r.budgetMet}`);
        },
      ),
      { numRuns: runs },
    );
    // The generator reaches every decision.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining(["TailExceedsBudget/false", "TailKept/true", "TailShortened/true"]),
    );
  });
});
