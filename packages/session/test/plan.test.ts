import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decideTrigger, planCompaction } from "@cc/test-support/session";
import { type StoredMessage } from "@cc/session";
import { type Message } from "@cc/messages";
import { chat, conversationArb } from "./conversation.js";
import { runs } from "./support.js";

const stored = (messages: readonly Message[], firstId = 1): StoredMessage[] =>
  messages.map((message, i) => ({ stackId: "s", id: firstId + i, message, createdAt: 0 }));

describe("decideTrigger", () => {
  const base = { ephemeral: false, maxTokens: 1000, threshold: 1, estimate: () => 5000 };
  it("uses the reported tokens of the previous turn when there are any", () => {
    expect(decideTrigger({ ...base, lastInputTokens: 999 })).toEqual({
      _tag: "Hold",
      reason: "BelowThreshold",
      effectiveTokens: 999,
      source: "reported",
    });
    expect(decideTrigger({ ...base, lastInputTokens: 1000 })).toEqual({
      _tag: "Trigger",
      effectiveTokens: 1000,
      source: "reported",
    });
  });
  it("falls back to the estimate when 0 tokens were reported", () => {
    expect(decideTrigger({ ...base, lastInputTokens: 0 })).toEqual({
      _tag: "Trigger",
      effectiveTokens: 5000,
      source: "estimated",
    });
  });
  it("never triggers for an ephemeral session, and does not even estimate", () => {
    let estimated = false;
    const d = decideTrigger({
      ...base,
      ephemeral: true,
      lastInputTokens: 1e9,
      estimate: () => ((estimated = true), 0),
    });
    expect(d).toMatchObject({ _tag: "Hold", reason: "Ephemeral" });
    expect(estimated).toBe(false);
  });
});

describe("planCompaction", () => {
  it("does nothing when at most preserveLast messages lie past the watermark", () => {
    expect(planCompaction(stored(chat(6)), 6)).toEqual({ _tag: "Nothing", reason: "TooFewMessages" });
    expect(planCompaction([], 6)._tag).toBe("Nothing");
  });
  it("folds all but the newest preserveLast; the watermark is the last folded id", () => {
    const plan = planCompaction(stored(chat(8), 11), 6);
    expect(plan).toMatchObject({ _tag: "Fold", coversUpTo: 12 });
    if (plan._tag === "Fold") expect([plan.summarise.length, plan.keep.length]).toEqual([2, 6]);
  });
  it("moves the boundary back to the assistant that issued the calls of kept results (GO-FINDINGS 13/14)", () => {
    const messages: Message[] = [
      { role: "user", content: "u1" },
      { role: "user", content: "u2" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: "{}" }] },
      { role: "tool", content: "r", toolCallId: "c1" },
      { role: "user", content: "u3" },
    ];
    const plan = planCompaction(stored(messages), 2);
    expect(plan).toMatchObject({ _tag: "Fold", coversUpTo: 2 });
  });
  it("GO-FINDINGS 13 (regression): 1 user + 100 tool cycles with preserveLast 20 folds 181 messages, not 1", () => {
    const messages: Message[] = [{ role: "user", content: "go" }];
    for (let i = 0; i < 100; i++) {
      messages.push({ role: "assistant", content: "", toolCalls: [{ id: `c${i}`, name: "bash", arguments: "{}" }] });
      messages.push({ role: "tool", content: `r${i}`, toolCallId: `c${i}` });
    }
    const plan = planCompaction(stored(messages), 20);
    expect(plan._tag === "Fold" && [plan.summarise.length, plan.keep.length]).toEqual([181, 20]);
  });
  it("GO-FINDINGS 14 (regression): [a+call, tool, tool, u] never leaves a kept tool result without its call", () => {
    const messages: Message[] = [
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "a", name: "bash", arguments: "{}" },
          { id: "b", name: "bash", arguments: "{}" },
        ],
      },
      { role: "tool", content: "ra", toolCallId: "a" },
      { role: "tool", content: "rb", toolCallId: "b" },
      { role: "user", content: "u" },
    ];
    expect(planCompaction(stored(messages), 3)).toEqual({ _tag: "Nothing", reason: "TooFewMessages" });
  });
  it("folds stored system messages like any other history", () => {
    const messages: Message[] = [{ role: "system", content: "old prompt" }, ...chat(3)];
    expect(planCompaction(stored(messages), 2)).toMatchObject({ _tag: "Fold", coversUpTo: 2 });
  });
  it("property: kept = newest messages, never fewer than preserveLast, no kept result without its call", () => {
    fc.assert(
      fc.property(conversationArb(), fc.integer({ min: 1, max: 10 }), (messages, preserveLast) => {
        const plan = planCompaction(stored(messages), preserveLast);
        if (plan._tag === "Nothing") return;
        expect([...plan.summarise, ...plan.keep].map((m) => m.id)).toEqual(messages.map((_, i) => i + 1));
        expect(plan.keep.length).toBeGreaterThanOrEqual(preserveLast);
        expect(plan.summarise.length).toBeGreaterThan(0);
        const keptCalls = new Set(
          plan.keep.flatMap((m) =>
            m.message.role === "assistant" ? (m.message.toolCalls ?? []).map((c) => c.id) : [],
          ),
        );
        for (const m of plan.keep)
          if (m.message.role === "tool") expect(keptCalls.has(m.message.toolCallId)).toBe(true);
      }),
      { numRuns: runs(500) },
    );
  });
});
