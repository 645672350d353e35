// A real SWE-agent run driven through a ChatSession with the offline summariser: the prompt stays
// bounded, nothing stored is lost, and the summary keeps the paths the agent worked on.
import { estimateCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { SESSION_SUMMARY_PREFIX, createChatSession, decodeSessionCompactor, memoryStore } from "@cc/session";
import { offlineProvider } from "@cc/lcm";
import { type Message } from "@cc/messages";
import { right } from "./support.js";
import { readTrajectory } from "./trajectory.js";

const FILE =
  "replay__marshmallow-code__marshmallow-1867__function_calling__install-1__marshmallow-code__marshmallow-1867.traj";

describe("a real agent run through the session layer", () => {
  it("compacts as the run grows, keeps every message stored, and keeps the prompt bounded", async () => {
    const { messages, unreadable } = readTrajectory(FILE);
    expect(unreadable).toBe(0);
    const [system, task, ...steps] = messages;
    if (system?.role !== "system" || task?.role !== "user") return expect.fail("unexpected trajectory shape");
    const counter = estimateCounter();
    const store = memoryStore();
    const threshold = 3000;
    const made = decodeSessionCompactor({
      store,
      provider: offlineProvider(),
      config: { maxTokens: threshold, threshold: 1, preserveLast: 4 },
      counter,
    });
    if (E.isLeft(made)) return expect.fail(made.left.message);
    const session = createChatSession({
      store,
      compactor: made.right,
      stackId: "swe",
      systemPrompt: system.content,
      prune: { maxChars: 2000, protectTurns: 0, protectResults: 2 },
    });

    // Each agent step: the model's call and the tool's result arrive, the next prompt is built.
    const batches: Message[][] = [[task]];
    for (let i = 0; i < steps.length; i += 2) batches.push(steps.slice(i, i + 2));
    const promptTokens: number[] = [];
    let compactions = 0;
    for (const batch of batches) {
      const turn = await right(session.prepareTurn(batch));
      if (turn.compaction._tag === "Compacted") compactions++;
      const tokens = counter.countMessages(turn.prompt);
      promptTokens.push(tokens);
      await right(session.finishTurn([], tokens));
    }

    expect(compactions).toBeGreaterThan(0);
    // Stored history is complete and in order.
    const stored = await right(store.messagesAfter("swe", 0));
    expect(stored.map((m) => m.message)).toEqual([task, ...steps]);
    // After each compaction the prompt falls back under the threshold plus one step's growth.
    const largestStep = Math.max(...batches.map((b) => counter.countMessages(b)));
    for (const tokens of promptTokens)
      expect(tokens).toBeLessThan(threshold + largestStep + counter.count(system.content) + 1000);
    const uncompacted = counter.countMessages([system, task, ...steps]);
    expect(promptTokens[promptTokens.length - 1]!).toBeLessThan(uncompacted);
    // The final prompt carries one summary that still names the file the agent reproduced the bug in.
    const last = await right(session.prepareTurn([]));
    const summaries = last.prompt.filter((m) => m.content.startsWith(SESSION_SUMMARY_PREFIX));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.content).toMatch(/reproduce\.py|fields\.py/);
  });
});
