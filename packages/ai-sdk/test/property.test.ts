// Property: for random conversations in the AI SDK's shape (parallel and interleaved tool calls,
// approvals, reasoning parts, images, pending calls), the converted-compacted-converted-back
// messages never split a unit (a call, its results, its approval request and response, and the
// reasoning in the same message) and return every kept message as the same, unchanged object.
import { AiSdkError, createAiSdkContext, fromModelMessages } from "@cc/ai-sdk";
import { createContextManager } from "@cc/context";
import { fc, test } from "@fast-check/vitest";
import type { ModelMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect } from "vitest";
import { hasNote, orphans } from "./script.js";

type Step =
  | { readonly kind: "user"; readonly words: number; readonly image: boolean }
  | { readonly kind: "text"; readonly words: number; readonly reasoning: boolean }
  | {
      readonly kind: "calls";
      readonly n: number;
      readonly reasoning: boolean;
      readonly approve: readonly boolean[];
      readonly size: number;
      readonly grouping: "one" | "each" | "interleaved";
      readonly pending: boolean;
    };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("user" as const), words: fc.integer({ min: 1, max: 60 }), image: fc.boolean() }),
  fc.record({ kind: fc.constant("text" as const), words: fc.integer({ min: 1, max: 60 }), reasoning: fc.boolean() }),
  fc.record({
    kind: fc.constant("calls" as const),
    n: fc.integer({ min: 1, max: 3 }),
    reasoning: fc.boolean(),
    approve: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    size: fc.integer({ min: 5, max: 400 }),
    grouping: fc.constantFrom("one" as const, "each" as const, "interleaved" as const),
    pending: fc.boolean(),
  }),
);

const words = (tag: string, n: number): string => Array.from({ length: n }, (_, i) => `${tag}w${i % 13}`).join(" ");

/** Renders steps as AI SDK messages. */
function render(steps: readonly Step[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  let id = 0;
  steps.forEach((s, si) => {
    const add = (m: ModelMessage): void => {
      messages.push(m);
    };
    if (s.kind === "user") {
      add({
        role: "user",
        content: s.image
          ? [
              { type: "text", text: words(`u${si}`, s.words) },
              { type: "image", image: new Uint8Array([si % 256, 1, 2]), mediaType: "image/png" },
            ]
          : words(`u${si}`, s.words),
      });
      return;
    }
    if (s.kind === "text") {
      add({
        role: "assistant",
        content: [
          ...(s.reasoning
            ? [{ type: "reasoning" as const, text: words(`r${si}`, 5), providerOptions: { p: { sig: `s${si}` } } }]
            : []),
          { type: "text" as const, text: words(`a${si}`, s.words) },
        ],
      });
      return;
    }
    const calls = Array.from({ length: s.n }, () => `call${id++}`);
    const approvals = calls.filter((_, k) => s.approve[k] === true);
    add({
      role: "assistant",
      content: [
        ...(s.reasoning ? [{ type: "reasoning" as const, text: words(`r${si}`, 8) }] : []),
        ...calls.map((c) => ({
          type: "tool-call" as const,
          toolCallId: c,
          toolName: "bash",
          input: { cmd: `run ${c}` },
        })),
        ...approvals.map((c) => ({ type: "tool-approval-request" as const, approvalId: `ap-${c}`, toolCallId: c })),
      ],
    });
    if (approvals.length > 0)
      add({
        role: "tool",
        content: approvals.map((c, k) => ({
          type: "tool-approval-response" as const,
          approvalId: `ap-${c}`,
          approved: k % 2 === 0,
        })),
      });
    const answered = s.pending ? calls.slice(0, -1) : calls;
    const result = (c: string) => ({
      type: "tool-result" as const,
      toolCallId: c,
      toolName: "bash",
      output: { type: "text" as const, value: words(c, s.size) },
    });
    if (s.grouping === "interleaved") {
      const extra = `call${id++}`;
      add({
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: extra, toolName: "grep", input: { q: extra } }],
      });
      add({ role: "tool", content: [...answered, extra].map(result) });
    } else if (s.grouping === "one") {
      if (answered.length > 0) add({ role: "tool", content: answered.map(result) });
    } else for (const c of answered) add({ role: "tool", content: [result(c)] });
  });
  return messages;
}

/** The units of a conversation by the AI SDK's own links (tool call ids, approval ids), by union-find. */
function unitsOf(messages: readonly ModelMessage[]): number[][] {
  const parent = messages.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const union = (a: number, b: number | undefined): void => {
    if (b !== undefined) parent[find(a)] = find(b);
  };
  const issuer = new Map<string, number>();
  const approvalCall = new Map<string, string>();
  messages.forEach((m, i) => {
    if (typeof m.content === "string") return;
    for (const p of m.content) {
      if (p.type === "tool-call") issuer.set(p.toolCallId, i);
      else if (p.type === "tool-approval-request") {
        approvalCall.set(p.approvalId, p.toolCallId);
        union(i, issuer.get(p.toolCallId));
      } else if (p.type === "tool-result") union(i, issuer.get(p.toolCallId));
      else if (p.type === "tool-approval-response") union(i, issuer.get(approvalCall.get(p.approvalId) ?? ""));
    }
  });
  const groups = new Map<number, number[]>();
  messages.forEach((_, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), i]));
  return [...groups.values()];
}

const base = createContextManager({ maxTokens: 1000 });

describe("conversion and compaction of AI SDK conversations", () => {
  test.prop(
    [
      fc.array(stepArb, { minLength: 1, maxLength: 24 }),
      fc.integer({ min: 150, max: 3000 }),
      fc.integer({ min: 0, max: 8 }),
    ],
    { numRuns: 60 },
  )(
    "never splits a unit; kept messages are the same unchanged objects, in order",
    async (steps, maxTokens, preserveLast) => {
      const messages = render(steps);
      const snapshot = structuredClone(messages);
      const cc = createAiSdkContext({
        manager: createContextManager({ maxTokens, preserveLast, counter: base.options.counter }),
      });
      const r = await cc.compact(messages);
      const out = r.messages;
      expect(orphans(out)).toEqual([]);
      // Kept messages: the caller's objects, in their order; the only new message is the note.
      let last = -1;
      const kept = new Set<number>();
      for (const m of out) {
        const i = messages.indexOf(m);
        if (i === -1) {
          expect(hasNote([m])).toBe(true);
          continue;
        }
        expect(i).toBeGreaterThan(last);
        last = i;
        kept.add(i);
      }
      expect(out.filter((m) => messages.indexOf(m) === -1).length).toBeLessThanOrEqual(1);
      // Units: a call with its results, approval request and response (reasoning shares the call's message): all or none.
      for (const members of unitsOf(messages)) {
        const inside = members.filter((i) => kept.has(i)).length;
        expect(inside === 0 || inside === members.length, `unit ${members.join(",")}`).toBe(true);
      }
      // Nothing was mutated.
      expect(messages).toEqual(snapshot);
      if (r.turn !== undefined && !r.turn.budgetMet)
        expect(r.turn.warnings.some((w) => w._tag === "BudgetNotMet")).toBe(true);
    },
  );

  test.prop([fc.array(stepArb, { minLength: 1, maxLength: 24 }), fc.integer({ min: 100, max: 3000 })], { numRuns: 30 })(
    "the middleware sends a prompt within budget, pair-safe, or refuses it with BudgetExceeded",
    async (steps, maxTokens) => {
      const prompt = render(steps);
      const cc = createAiSdkContext({ manager: createContextManager({ maxTokens, counter: base.options.counter }) });
      const transform = cc.middleware.transformParams!;
      try {
        const out = await transform({
          type: "generate",
          params: { prompt } as never,
          model: new MockLanguageModelV4(),
        });
        expect(cc.manager.count(fromModelMessages(out.prompt))).toBeLessThanOrEqual(maxTokens);
        expect(orphans(out.prompt)).toEqual([]);
        for (const m of out.prompt) expect(prompt.includes(m as ModelMessage) || hasNote([m])).toBe(true);
      } catch (e) {
        expect(e).toBeInstanceOf(AiSdkError);
        expect((e as AiSdkError).error._tag).toBe("BudgetExceeded");
      }
    },
  );
});
