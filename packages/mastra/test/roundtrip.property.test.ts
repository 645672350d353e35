// Property: random conversations in Mastra's shapes (stored messages and provider prompts, with
// parallel and interleaved tool calls, reasoning parts and images), converted, compacted and mapped
// back, never split a unit and return every kept item as the very object that came in.
import { createContextManager } from "@cc/context";
import { messageUnits } from "@cc/messages";
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fromLLMPrompt,
  fromMastraDBMessages,
  mapBack,
  promptNote,
  type Converted,
  type LLMPrompt,
  type LLMPromptMessage,
} from "@cc/test-support/mastra";
import { pairingProblems } from "./helpers.js";

const words = fc
  .array(
    fc.constantFrom("parser", "config", "ValueError", "src/app.py", "retry", "token", "😀", "line", "fix", "test"),
    { minLength: 1, maxLength: 40 },
  )
  .map((w) => w.join(" "));
const image = { type: "file" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };

/** A prompt: turns of a user message, then steps of an assistant message (reasoning, text, parallel calls) and their results, sometimes in two tool messages. */
const promptArb: fc.Arbitrary<LLMPrompt> = fc
  .array(
    fc.record({
      user: words,
      withImage: fc.boolean(),
      steps: fc.array(
        fc.record({
          reasoning: fc.option(words, { nil: undefined }),
          text: fc.option(words, { nil: undefined }),
          results: fc.array(words, { minLength: 0, maxLength: 3 }),
          split: fc.boolean(),
        }),
        { maxLength: 3 },
      ),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((turns) => {
    const out: LLMPromptMessage[] = [{ role: "system", content: "You are terse." }];
    let n = 0;
    for (const t of turns) {
      out.push({ role: "user", content: [{ type: "text", text: t.user }, ...(t.withImage ? [image] : [])] });
      for (const s of t.steps) {
        const ids = s.results.map(() => `c${n++}`);
        out.push({
          role: "assistant",
          content: [
            ...(s.reasoning === undefined
              ? []
              : [
                  {
                    type: "reasoning" as const,
                    text: s.reasoning,
                    providerOptions: { anthropic: { signature: "sig" } },
                  },
                ]),
            ...(s.text === undefined ? [] : [{ type: "text" as const, text: s.text }]),
            ...ids.map((id) => ({ type: "tool-call" as const, toolCallId: id, toolName: "grep", input: { q: id } })),
          ],
        });
        const results = s.results.map((r, i) => ({
          type: "tool-result" as const,
          toolCallId: ids[i]!,
          toolName: "grep",
          output: { type: "text" as const, value: r },
        }));
        if (results.length === 0) continue;
        const cut = s.split ? Math.ceil(results.length / 2) : results.length;
        out.push({ role: "tool", content: results.slice(0, cut) });
        if (cut < results.length) out.push({ role: "tool", content: results.slice(cut) });
      }
    }
    return out;
  });

/** Stored messages: user messages (text, sometimes an image) and multi-step assistant messages whose tool invocations carry their results (or are pending, awaiting approval, failed). */
const dbArb: fc.Arbitrary<MastraDBMessage[]> = fc
  .array(
    fc.record({
      user: words,
      withImage: fc.boolean(),
      steps: fc.array(
        fc.record({
          reasoning: fc.option(words, { nil: undefined }),
          text: words,
          calls: fc.array(
            fc.tuple(words, fc.constantFrom("result", "result", "call", "approval-requested", "output-error")),
            { maxLength: 3 },
          ),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((turns) => {
    const out: MastraDBMessage[] = [];
    let n = 0;
    for (const t of turns) {
      out.push({
        id: `m${n++}`,
        role: "user",
        createdAt: new Date(1_700_000_000_000 + n),
        content: {
          format: 2,
          parts: [
            { type: "text", text: t.user },
            ...(t.withImage ? [{ type: "file" as const, mimeType: "image/png", data: "iVBORw0KGgo=" }] : []),
          ],
        },
      });
      const parts: MastraDBMessage["content"]["parts"] = [];
      for (const s of t.steps) {
        parts.push({ type: "step-start" });
        if (s.reasoning !== undefined)
          parts.push({ type: "reasoning", reasoning: s.reasoning, details: [{ type: "text", text: s.reasoning }] });
        for (const [c, state] of s.calls) {
          const base = { toolCallId: `c${n++}`, toolName: "grep", args: { q: c } };
          const invocation =
            state === "result"
              ? { ...base, state, result: { lines: [c] } }
              : state === "output-error"
                ? { ...base, state, errorText: `failed: ${c}` }
                : state === "approval-requested"
                  ? { ...base, state, approval: { id: `ap${n}` } }
                  : { ...base, state };
          parts.push({
            type: "tool-invocation",
            toolInvocation: invocation,
            providerMetadata: { openai: { itemId: `fc_${n}` } },
          });
        }
        parts.push({ type: "text", text: s.text });
      }
      out.push({
        id: `m${n++}`,
        role: "assistant",
        createdAt: new Date(1_700_000_000_000 + n),
        content: { format: 2, parts },
      });
    }
    return out;
  });

/** The items each unit of the converted conversation stands for. */
const unitItems = (c: Converted): number[][] =>
  messageUnits(c.messages).map((u) => [...new Set(c.origin.slice(u.start, u.end).filter((o) => o >= 0))]);

function checkRoundTrip<T extends object>(items: readonly T[], converted: Converted, out: readonly T[]): void {
  const inputs = new Set<T>(items);
  const kept = out.filter((x) => inputs.has(x));
  // Kept items are the original objects, in their original order.
  const positions = kept.map((x) => items.indexOf(x));
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  // No unit is split: all of its items are kept, or none.
  const keptSet = new Set(positions);
  for (const unit of unitItems(converted)) {
    const n = unit.filter((i) => keptSet.has(i)).length;
    expect(n === 0 || n === unit.length, `unit ${JSON.stringify(unit)}`).toBe(true);
  }
}

describe("convert → compact → map back", () => {
  const counter = createContextManager({ maxTokens: 100 }).options.counter;
  let evictions = 0;
  it("provider prompts: never split a unit, kept messages unchanged, no orphaned result", async () => {
    await fc.assert(
      fc.asyncProperty(
        promptArb,
        fc.integer({ min: 60, max: 1500 }),
        fc.integer({ min: 0, max: 4 }),
        async (prompt, maxTokens, preserveLast) => {
          const frozen = JSON.stringify(prompt);
          const manager = createContextManager({ maxTokens, preserveLast, counter });
          const converted = fromLLMPrompt(prompt);
          const turn = await manager.compact(converted.messages, { force: true });
          const out = mapBack(prompt, converted, turn.messages, promptNote);
          evictions += turn.evicted.length;
          checkRoundTrip(prompt, converted, out);
          expect(JSON.stringify(prompt)).toBe(frozen);
          expect(pairingProblems(fromLLMPrompt(out).messages)).toEqual([]);
          expect(out.filter((m) => !prompt.includes(m)).length).toBe(turn.summary === "" ? 0 : 1);
        },
      ),
      { numRuns: 60 },
    );
    expect(evictions).toBeGreaterThan(0);
  });
  it("stored messages: never split a unit, kept messages unchanged", async () => {
    const before = evictions;
    await fc.assert(
      fc.asyncProperty(
        dbArb,
        fc.integer({ min: 60, max: 1500 }),
        fc.integer({ min: 0, max: 4 }),
        async (messages, maxTokens, preserveLast) => {
          const frozen = JSON.stringify(messages);
          const manager = createContextManager({ maxTokens, preserveLast, counter });
          const converted = fromMastraDBMessages(messages, ["You are terse."]);
          const turn = await manager.compact(converted.messages, { force: true });
          const out = mapBack(messages, converted, turn.messages, () => undefined);
          evictions += turn.evicted.length;
          checkRoundTrip(messages, converted, out);
          expect(JSON.stringify(messages)).toBe(frozen);
          expect(out.every((m) => messages.includes(m))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
    expect(evictions).toBeGreaterThan(before);
  });
});
