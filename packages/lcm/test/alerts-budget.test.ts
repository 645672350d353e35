import { describeWarnings } from "../src/warnings.js";
import { estimateCounter } from "@cc/tokens";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { describe, expect, it } from "vitest";
import { memoryAlertSink, type AlertSink, type BudgetExceededAlert } from "../src/alerts.js";
import { createLcmCompactor, nextContext, type CompactionResult } from "../src/compactor.js";
import type { Message } from "@cc/messages";
import { offlineProvider } from "../src/providers/offline.js";
import type { Provider } from "@cc/messages";
import { a, call, conversationArb, runs, sys, tool, u } from "../../messages/test/support/conversation.js";

const counter = estimateCounter();
const words = (n: number, tag = "w"): string => Array.from({ length: n }, (_, i) => `${tag}${i % 97}`).join(" ");
const failing: Provider = {
  name: "down",
  complete: () => TE.left({ _tag: "ProviderTransientError", message: "503" }),
  listModels: () => TE.right([{ id: "m", outputCostPerMTok: 1 }]),
};

async function compactWith(
  sink: AlertSink,
  messages: readonly Message[],
  maxTokens: number,
  preserveLast: number,
  provider?: Provider,
): Promise<CompactionResult> {
  const c = createLcmCompactor({
    counter,
    now: () => 7,
    alertSink: sink,
    sessionId: "s1",
    ...(provider === undefined ? {} : { provider }),
  });
  const r = await c.compact(messages, { maxTokens, preserveLast })();
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

const budgetAlerts = (alerts: readonly { readonly kind: string }[]): readonly BudgetExceededAlert[] =>
  alerts.filter((x): x is BudgetExceededAlert => x.kind === "budget_exceeded");

describe("budget_exceeded alert", () => {
  it("fires when the last step does not fit, with maxTokens, the tokens after and the reason", async () => {
    const sink = memoryAlertSink();
    const r = await compactWith(sink, history, 700, 6, failing);
    expect(r.budgetMet).toBe(false);
    expect(r.tail._tag).toBe("TailExceedsBudget");
    expect(sink.alerts.map((x) => x.kind)).toEqual(["compaction_skip", "budget_exceeded"]);
    expect(sink.alerts[1]).toEqual({
      kind: "budget_exceeded",
      sessionId: "s1",
      at: 7,
      maxTokens: 700,
      originalTokens: r.originalTokens,
      compactedTokens: r.compactedTokens,
      reason: expect.stringMatching(
        /^the last step alone takes \d+ of 700 tokens, leaving less than the minimum summary budget of 256$/,
      ) as unknown,
    });
    expect(r.compactedTokens).toBeGreaterThan(700);
    expect(describeWarnings(r.warnings)).not.toMatch(/alert sink failed/);
  });
  it("fires when nothing can be compacted and the context is over budget (level none)", async () => {
    const sink = memoryAlertSink();
    const r = await compactWith(sink, [sys(), u(words(3000))], 500, 6);
    expect(r.level).toBe("none");
    expect(r.budgetMet).toBe(false);
    expect(sink.alerts).toHaveLength(1);
    expect(sink.alerts[0]).toMatchObject({
      kind: "budget_exceeded",
      maxTokens: 500,
      compactedTokens: r.originalTokens,
    });
    expect((sink.alerts[0] as BudgetExceededAlert).reason).toMatch(
      /nothing before the preserved tail can be compacted; the last step alone/,
    );
  });
  it("does not fire when the budget is met", async () => {
    const sink = memoryAlertSink();
    const r = await compactWith(sink, history, 1600, 6, offlineProvider({ counter }));
    expect(r.budgetMet).toBe(true);
    expect(budgetAlerts(sink.alerts)).toEqual([]);
  });
  it("a throwing or rejecting sink never breaks compaction; the failure is reported in error", async () => {
    for (const bad of [
      {
        alert: () => {
          throw new Error("sink down");
        },
      },
      { alert: () => Promise.reject(new Error("sink down")) },
      {
        alert: () => {
          throw "plain";
        },
      },
    ]) {
      const r = await compactWith(bad, [sys(), u(words(3000))], 500, 6);
      expect(r.budgetMet).toBe(false);
      expect(describeWarnings(r.warnings)).toMatch(
        /nothing before the preserved tail.*; alert sink failed: (sink down|plain)$/,
      );
      const t = await compactWith(bad, history, 700, 6, failing);
      expect(t.budgetMet).toBe(false);
      expect(t.level).toBe("truncate");
      // Both the skip and the budget alert failed; each failure is reported once.
      expect(describeWarnings(t.warnings)?.match(/alert sink failed/g)).toHaveLength(2);
      expect(nextContext(t).length).toBeGreaterThan(0);
    }
  });
  it("a sink that fails only on budget_exceeded still received compaction_skip", async () => {
    const got: string[] = [];
    const picky: AlertSink = {
      alert: (x) => {
        if (x.kind === "budget_exceeded") throw new Error("budget sink down");
        got.push(x.kind);
      },
    };
    const r = await compactWith(picky, history, 700, 6, failing);
    expect(got).toEqual(["compaction_skip"]);
    expect(describeWarnings(r.warnings)).toMatch(/; alert sink failed: budget sink down$/);
    expect(r.warnings[r.warnings.length - 1]).toEqual({
      _tag: "AlertNotDelivered",
      kind: "budget_exceeded",
      message: "alert sink failed: budget sink down",
    });
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

describe("property: budget_exceeded fires exactly when budgetMet is false", () => {
  it("one alert carrying the result's figures when over budget, none otherwise; a failing sink changes nothing else", async () => {
    const seen = new Set<boolean>();
    await fc.assert(
      fc.asyncProperty(
        sizedArb,
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 20, max: 8000 }),
        fc.constantFrom("offline", "down", "none"),
        async (messages, keep, maxTokens, which) => {
          const provider = which === "offline" ? offlineProvider({ counter }) : which === "down" ? failing : undefined;
          const sink = memoryAlertSink();
          const r = await compactWith(sink, messages, maxTokens, keep, provider);
          const budget = budgetAlerts(sink.alerts);
          if (r.budgetMet) {
            expect(budget).toEqual([]);
          } else {
            expect(budget).toHaveLength(1);
            expect(budget[0]).toMatchObject({
              sessionId: "s1",
              at: 7,
              maxTokens,
              originalTokens: r.originalTokens,
              compactedTokens: r.compactedTokens,
            });
            expect(budget[0]!.compactedTokens).toBeGreaterThan(maxTokens);
            expect(budget[0]!.reason.length).toBeGreaterThan(0);
            expect(sink.alerts.at(-1)).toBe(budget[0]);
          }
          // The same compaction with a throwing sink yields the same context and says the sink failed.
          const broken = await compactWith(
            {
              alert: () => {
                throw new Error("down");
              },
            },
            messages,
            maxTokens,
            keep,
            provider,
          );
          expect(broken.messages).toEqual(r.messages);
          expect(broken.summary).toBe(r.summary);
          expect(broken.budgetMet).toBe(r.budgetMet);
          expect((describeWarnings(broken.warnings) ?? "").split("alert sink failed").length - 1).toBe(
            sink.alerts.length,
          );
          seen.add(r.budgetMet);
        },
      ),
      { numRuns: runs },
    );
    // Both outcomes were exercised.
    expect([...seen].sort()).toEqual([false, true]);
  });
});
