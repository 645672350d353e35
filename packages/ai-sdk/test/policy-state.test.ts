// A cost-policy manager used through the adapter keeps its policy's memory across steps: every
// step (the shorter-tail retry included) runs on the one manager the caller gave, never a clone
// that would start from a fresh policy state.
import { createAiSdkContext } from "@cc/ai-sdk";
import { createContextManager } from "@cc/context";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { fileText } from "./script.js";

function step(i: number, words: number): ModelMessage[] {
  return [
    {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "bash", input: { cmd: `cat f${i}` } }],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: `c${i}`,
          toolName: "bash",
          output: { type: "text", value: fileText(`f${i}`, words) },
        },
      ],
    },
  ];
}

describe("policy state through the adapter", () => {
  it("the cost policy's turn counter and growth history advance with every step the manager ran", async () => {
    const manager = createContextManager({
      maxTokens: 1500,
      policy: { kind: "cost" },
      preserveLast: 4,
      noteTokens: 150,
    });
    const cc = createAiSdkContext({ manager });
    let messages: ModelMessage[] = [{ role: "user", content: "Investigate the failing build." }];
    const turns: number[] = [];
    for (let i = 0; i < 8; i++) {
      messages = [...messages, ...step(i, 60)];
      const r = await cc.prepareStep({ messages, stepNumber: i });
      if (r !== undefined) messages = r.messages;
      turns.push(manager.snapshot()?.state.turn ?? -1);
    }
    // One policy turn per step, counted by the caller's manager itself.
    expect(turns).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(manager.snapshot()?.state.grownTurns ?? 0).toBeGreaterThan(1);
    expect(manager.snapshot()?.state.lastCompactionTurn).not.toBeNull();
  });
});
