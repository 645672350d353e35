import { AGENT_PRESET } from "@cc/importance";
import type { Message } from "@cc/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RuleKind } from "../retention/metrics.js";
import { checkStep } from "../retention/replay.js";
import {
  fifoRule,
  importanceRule,
  largestFirstRule,
  lruRule,
  maskingRule,
  observationMaskingRule,
  pairsValid,
  toolResultClearingRule,
  truncateMessage,
  unitsOf,
  withoutOrphans,
  type ContextEntry,
  type Rule,
} from "../retention/rules.js";
import { runsFor } from "../../.ci/support/runs.js";

const numRuns = runsFor(200, 1000);
const count = (m: Message): number => Math.max(1, Math.ceil(m.content.length / 4));

const entry = (source: number, message: Message, kind: RuleKind, extra: Partial<ContextEntry> = {}): ContextEntry => ({
  source,
  message,
  tokens: count(message),
  kind,
  createdAt: source,
  lastAccessed: source,
  accessCount: 0,
  lastAccessedTurn: source,
  ...extra,
});
const text = (n: number): string => "w".repeat(4 * n);
const sys = entry(0, { role: "system", content: text(10) }, "system");
const task = entry(1, { role: "user", content: text(10) }, "task");
const callOf = (source: number, id: string, tokens = 5): ContextEntry =>
  entry(
    source,
    { role: "assistant", content: text(tokens), toolCalls: [{ id, name: "bash", arguments: "{}" }] },
    "action",
  );
const resultOf = (source: number, id: string, tokens: number): ContextEntry =>
  entry(source, { role: "tool", toolCallId: id, content: text(tokens) }, "observation");
const sources = (es: readonly ContextEntry[]): number[] => es.map((e) => e.source);
const apply = (rule: Rule, context: readonly ContextEntry[], budget: number): readonly ContextEntry[] =>
  rule.apply({ context, budget, now: 100, count });

/** system 10, task 10, then four call/result pairs of 5 + (40, 10, 30, 10) tokens: 140 in all. */
const context: ContextEntry[] = [
  sys,
  task,
  callOf(2, "a"),
  resultOf(3, "a", 40),
  callOf(4, "b"),
  resultOf(5, "b", 10),
  callOf(6, "c"),
  resultOf(7, "c", 30),
  callOf(8, "d"),
  resultOf(9, "d", 10),
];

describe("units and pairs", () => {
  it("groups a call with its results; a result never stays without its call", () => {
    expect(unitsOf(context)).toEqual([[0], [1], [2, 3], [4, 5], [6, 7], [8, 9]]);
    expect(
      pairsValid(
        context,
        context.filter((e) => e.source !== 2),
      ),
    ).toBe(false);
    expect(
      pairsValid(
        context,
        context.filter((e) => e.source !== 3),
      ),
    ).toBe(false);
    expect(
      pairsValid(
        context,
        context.filter((e) => e.source !== 2 && e.source !== 3),
      ),
    ).toBe(true);
    expect(sources(withoutOrphans([sys, resultOf(3, "a", 4)]))).toEqual([0]);
  });
});

describe("the simple rules", () => {
  it("do nothing under the budget", () => {
    for (const r of [
      fifoRule,
      lruRule,
      largestFirstRule,
      observationMaskingRule,
      toolResultClearingRule,
      importanceRule(AGENT_PRESET),
    ])
      expect(apply(r, context, 140)).toBe(context);
  });

  it("FIFO drops the oldest units after the system prompt and the task", () => {
    expect(sources(apply(fifoRule, context, 100))).toEqual([0, 1, 4, 5, 6, 7, 8, 9]);
  });

  it("LRU drops the unit referred to longest ago", () => {
    const touched = context.map((e) => (e.source === 2 ? { ...e, lastAccessed: 50 } : e));
    expect(sources(apply(lruRule, touched, 100))).toEqual([0, 1, 2, 3, 8, 9]);
  });

  it("largest-first drops the largest unit first, the newest last", () => {
    expect(sources(apply(largestFirstRule, context, 100))).toEqual([0, 1, 4, 5, 6, 7, 8, 9]);
    expect(sources(apply(largestFirstRule, context, 60))).toEqual([0, 1, 4, 5, 8, 9]);
    // Only the newest unit left to drop: it goes last.
    expect(sources(apply(largestFirstRule, [sys, task, callOf(2, "a"), resultOf(3, "a", 40)], 30))).toEqual([0, 1]);
  });

  it("observation masking replaces observations older than the last 5 with a placeholder (the call stays); tool-result clearing keeps 3", () => {
    const many = [
      sys,
      task,
      ...Array.from({ length: 8 }, (_, i) => [callOf(2 + 2 * i, `k${i}`, 2), resultOf(3 + 2 * i, `k${i}`, 20)]).flat(),
    ];
    const masked = apply(observationMaskingRule, many, 150);
    expect(masked.filter((e) => e.replaced === "placeholder").map((e) => e.source)).toEqual([3, 5, 7]);
    expect(masked.find((e) => e.source === 3)?.message).toEqual({
      role: "tool",
      toolCallId: "k0",
      content: "[output omitted]",
    });
    expect(checkStep(many, masked)).toBeUndefined();
    const cleared = apply(toolResultClearingRule, many, 150);
    expect(cleared.filter((e) => e.replaced === "placeholder").map((e) => e.source)).toEqual([3, 5, 7, 9, 11]);
    expect(cleared.find((e) => e.source === 3)?.message.content).toBe("[cleared]");
    // Still over: the oldest units go, the newest last.
    expect(sources(apply(observationMaskingRule, many, 60)).slice(-2)).toEqual([16, 17]);
    // An excluded tool keeps its results.
    const named = many.map((e) => (e.message.role === "tool" ? { ...e, toolName: "read" } : e));
    expect(
      apply(maskingRule({ name: "m", keep: 1, placeholder: "[x]", excludeTools: ["read"] }), named, 150).some(
        (e) => e.replaced === "placeholder",
      ),
    ).toBe(false);
  });

  it("a task larger than half the room is truncated, head and tail, and the newest messages stay", () => {
    const big = entry(1, { role: "user", content: `HEAD ${text(200)} TAIL` }, "task");
    const out = apply(fifoRule, [sys, big, callOf(2, "a"), resultOf(3, "a", 10)], 100);
    const t = out.find((e) => e.source === 1)!;
    expect(t.replaced).toBe("truncated");
    expect(t.tokens).toBeLessThanOrEqual(45);
    expect(t.message.content.startsWith("HEAD")).toBe(true);
    expect(t.message.content.endsWith("TAIL")).toBe(true);
    expect(sources(out)).toEqual([0, 1, 2, 3]);
    expect(truncateMessage({ role: "user", content: "short" }, 100, count)).toEqual({ role: "user", content: "short" });
    expect(count(truncateMessage({ role: "user", content: text(100) }, 10, count))).toBeLessThanOrEqual(10);
  });

  it("importance is @cc/importance compact on the units, system prompts pinned", () => {
    const out = apply(importanceRule(AGENT_PRESET), context, 100);
    expect(sources(out)).toContain(0);
    expect(checkStep(context, out)).toBeUndefined();
    expect(out.reduce((s, e) => s + e.tokens, 0)).toBeLessThanOrEqual(100);
  });
});

describe("every rule (property)", () => {
  const rules: readonly Rule[] = [
    fifoRule,
    lruRule,
    largestFirstRule,
    observationMaskingRule,
    toolResultClearingRule,
    importanceRule(AGENT_PRESET),
    importanceRule({}),
  ];
  const turn = fc.record({
    kind: fc.constantFrom("call", "text", "observation"),
    tokens: fc.integer({ min: 1, max: 60 }),
    accessed: fc.nat(50),
  });

  it("keeps a valid context (a subsequence, pairs together, roles and call ids kept), never touches the system prompt, keeps the task but under importance, and meets the budget when the system prompt and half the room allow", () => {
    fc.assert(
      fc.property(
        fc.array(turn, { maxLength: 20 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 80 }),
        (turns, budget, taskTokens) => {
          const es: ContextEntry[] = [sys, entry(1, { role: "user", content: text(taskTokens) }, "task")];
          turns.forEach((t, i) => {
            const at = es.length;
            if (t.kind === "call") {
              es.push(callOf(at, `id${i}`, 2), resultOf(at + 1, `id${i}`, t.tokens));
            } else {
              es.push(
                entry(
                  at,
                  { role: t.kind === "text" ? "assistant" : "user", content: text(t.tokens) },
                  t.kind === "text" ? "action" : "observation",
                  { lastAccessed: at + t.accessed },
                ),
              );
            }
          });
          for (const r of rules) {
            const out = apply(r, es, budget);
            expect(checkStep(es, out)).toBeUndefined();
            expect(out[0]).toBe(sys);
            if (r.name !== "importance") expect(out.some((e) => e.kind === "task")).toBe(true);
            if (budget >= sys.tokens + 12) expect(out.reduce((s, e) => s + e.tokens, 0)).toBeLessThanOrEqual(budget);
          }
        },
      ),
      { numRuns },
    );
  });
});
