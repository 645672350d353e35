import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import type { Message } from "@cc/messages";
import { lastStepStart } from "@cc/test-support/messages";
import { tiktokenCounter } from "@cc/tokens";
import { evictUnits, withNote } from "../../src/strategy/evict.js";
import { memoryIndex } from "@cc/search";
import { runsFor } from "../../../../.ci/support/runs.js";

const counter = tiktokenCounter();
afterAll(() => counter.dispose());
const NOW = 1_700_000_000_000;

function cycle(i: number, lines: number): Message[] {
  return [
    {
      role: "assistant",
      content: `step ${i}`,
      toolCalls: [{ id: `c${i}`, name: "bash", arguments: `{"command":"cat f${i}.py"}` }],
    },
    {
      role: "tool",
      content: `output ${i} src/m${i}.py\n${`line ${i} of output with some_identifier_${i}\n`.repeat(lines)}`,
      toolCallId: `c${i}`,
    },
    { role: "user", content: `continue after ${i}` },
  ];
}

const orphans = (prompt: readonly Message[]): number => {
  const calls = new Set(prompt.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [])));
  return prompt.filter((m) => m.role === "tool" && !calls.has(m.toolCallId)).length;
};

describe("preserveLast is the longest verbatim tail, not a pin that breaks the budget", () => {
  it("a tail of large tool outputs that alone exceeds the target shrinks to what fits, and the budget is met", async () => {
    // Six preserved messages hold two 700-token outputs: with the system prompt and the note they
    // exceed 1,500 tokens, while the last step alone fits.
    const history: Message[] = [
      { role: "system", content: "agent" },
      ...Array.from({ length: 6 }, (_, i) => cycle(i, 60)).flat(),
    ];
    const r = await evictUnits(
      history,
      { targetTokens: 1500, preserveLast: 6, namespace: "run", noteTokens: 300, concurrency: 2 },
      { index: memoryIndex(), counter, now: NOW },
    )();
    if (E.isLeft(r)) throw new Error(r.left.message);
    const prompt = withNote(r.right.kept, r.right.note);
    expect(counter.countMessages(prompt)).toBeLessThanOrEqual(1500);
    expect(r.right.budgetMet).toBe(true);
    expect(orphans(prompt)).toBe(0);
    // The newest step is still there verbatim.
    expect(prompt.at(-1)).toEqual(history.at(-1));
  });

  it("a history that already fits the target reports the budget met, even when the inner target (which reserves a note) is not", async () => {
    // Found by the property below: two steps of 431 tokens against 600, nothing evicted, yet budgetMet was false.
    const history: Message[] = [
      { role: "system", content: "agent" },
      ...[24, 7].map((lines, i) => cycle(i, lines)).flat(),
    ];
    const r = await evictUnits(
      history,
      { targetTokens: 600, preserveLast: 5, namespace: "run", noteTokens: 300, concurrency: 2 },
      { index: memoryIndex(), counter, now: NOW },
    )();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(counter.countMessages(withNote(r.right.kept, r.right.note))).toBeLessThanOrEqual(600);
    expect(r.right.budgetMet).toBe(true);
  });

  it("property: whenever the system prompt, the last step and the largest note fit, the pass meets the target without orphaning a tool result", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 9 }),
        fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 2, maxLength: 9 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 600, max: 4000 }),
        async (n, sizes, preserveLast, target) => {
          const history: Message[] = [
            { role: "system", content: "agent" },
            ...Array.from({ length: n }, (_, i) => cycle(i, sizes[i % sizes.length]!)).flat(),
          ];
          const settings = { targetTokens: target, preserveLast, namespace: "run", noteTokens: 300, concurrency: 2 };
          const r = await evictUnits(history, settings, { index: memoryIndex(), counter, now: NOW })();
          if (E.isLeft(r)) throw new Error(r.left.message);
          const prompt = withNote(r.right.kept, r.right.note);
          expect(orphans(prompt)).toBe(0);
          const lastStep = [history[0]!, ...history.slice(lastStepStart(history))];
          const noteRoom = Math.min(300, Math.floor(target / 4)) + 60;
          if (counter.countMessages(lastStep) + noteRoom <= target) {
            expect(counter.countMessages(prompt)).toBeLessThanOrEqual(target);
            expect(r.right.budgetMet).toBe(true);
          }
        },
      ),
      { numRuns: runsFor(25, 60) },
    );
  });
});
