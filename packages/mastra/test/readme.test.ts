// Runs the README's quick start (between the markers, verbatim) with a mock model and in-memory storage.
import { Agent } from "@mastra/core/agent";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { Memory } from "@mastra/memory";
import { describe, expect, it } from "vitest";
import { contextTools, createCompactionProcessor } from "@cc/mastra";
import { asAgentModel, lastText, scriptedModel } from "./helpers.js";

describe("README quick start", () => {
  it("runs an agent with the compaction processor: the oversized build log never reaches the model whole", async () => {
    // A log far over the budget (~20,000 tokens): without the processor the second call would carry it all.
    const bigLog = Array.from({ length: 2000 }, (_, i) =>
      i === 1234 ? "FAIL test/parser.test.ts: expected 3, got 4" : `PASS test/unit_${i}.test.ts (${i % 97} ms)`,
    ).join("\n");
    const mock = scriptedModel((prompt) =>
      lastText(prompt).role === "user" ? { tool: "buildLog", input: {} } : { text: "The parser test failed." },
    );
    const model = asAgentModel(mock);
    const memory = new Memory({ storage: new InMemoryStore(), options: { lastMessages: 20 } });
    const tools = {
      buildLog: createTool({
        id: "buildLog",
        description: "The last build log.",
        inputSchema: { type: "object", properties: {} },
        execute: async () => ({ log: bigLog }),
      }),
    };
    // README-EXAMPLE-START
    const compaction = createCompactionProcessor({ maxTokens: 8000 });
    const agent = new Agent({
      id: "assistant",
      name: "assistant",
      instructions: "You are a careful assistant.",
      model,
      memory,
      tools: { ...tools, ...contextTools(compaction.manager) },
      inputProcessors: [compaction],
      outputProcessors: [compaction],
    });
    const { text } = await agent.generate("What failed in the last build?", {
      memory: { thread: "t1", resource: "u1" },
    });
    // README-EXAMPLE-END
    expect(text).toBe("The parser test failed.");
    expect(mock.doGenerateCalls).toHaveLength(2);
    expect(mock.doGenerateCalls[0]!.tools?.map((t) => t.name).sort()).toEqual([
      "buildLog",
      "expand_context",
      "search_context",
    ]);
    // The second call saw the manager's stub instead of the log, and stayed within the budget.
    const second = JSON.stringify(mock.doGenerateCalls[1]!.prompt);
    expect(second).not.toContain("PASS test/unit_1500.test.ts");
    expect(second).toMatch(/moved to the context index as r[0-9a-f]{32}/);
    expect(compaction.manager.count([{ role: "user", content: second }])).toBeLessThanOrEqual(8000);
  });
});
