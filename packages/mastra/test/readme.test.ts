// Runs the README's quick start (between the markers, verbatim) with a mock model and in-memory storage.
import { Agent } from "@mastra/core/agent";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { Memory } from "@mastra/memory";
import { describe, expect, it } from "vitest";
import { contextTools, createCompactionProcessor } from "@cc/mastra";
import { asAgentModel, lastText, scriptedModel } from "./helpers.js";

describe("README quick start", () => {
  it("runs an agent with the compaction processor", async () => {
    const mock = scriptedModel((prompt) => (lastText(prompt).role === "user" ? { tool: "buildLog", input: {} } : { text: "The parser test failed." }));
    const model = asAgentModel(mock);
    const memory = new Memory({ storage: new InMemoryStore(), options: { lastMessages: 20 } });
    const tools = { buildLog: createTool({ id: "buildLog", description: "The last build log.", inputSchema: { type: "object", properties: {} }, execute: async () => ({ log: "FAIL test/parser.test.ts" }) }) };
    // README-EXAMPLE-START
    const compaction = createCompactionProcessor({ maxTokens: 8000 });
    const agent = new Agent({
      id: "assistant", name: "assistant", instructions: "You are a careful assistant.", model, memory,
      tools: { ...tools, ...contextTools(compaction.manager) },
      inputProcessors: [compaction], outputProcessors: [compaction],
    });
    const { text } = await agent.generate("What failed in the last build?", { memory: { thread: "t1", resource: "u1" } });
    // README-EXAMPLE-END
    expect(text).toBe("The parser test failed.");
    expect(mock.doGenerateCalls).toHaveLength(2);
    expect(mock.doGenerateCalls[0]!.tools?.map((t) => t.name).sort()).toEqual(["buildLog", "expand_context", "search_context"]);
  });
});
