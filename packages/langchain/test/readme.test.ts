// Runs the README's quick start (the lines between the markers are the README's, verbatim).
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compactionMiddleware } from "../src/index.js";

describe("README quick start", () => {
  it("runs an agent with the middleware", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "run_tests", args: {}, id: "c1" }])
      .respond(new AIMessage("Fixed: the test expected UTC."));
    const tools = [tool(async () => "1 failed: test_dates (expected UTC)", { name: "run_tests", description: "Run the tests", schema: z.object({}) })];
    // README-QUICKSTART-START
    const middleware = [compactionMiddleware({ maxTokens: 8000 })]; // a manager per thread; or { manager }
    const agent = createAgent({ model, tools, middleware, checkpointer: new MemorySaver() });
    const out = await agent.invoke({ messages: [{ role: "user", content: "Fix the failing test" }] }, { configurable: { thread_id: "1" } });
    // README-QUICKSTART-END
    expect(out.messages.at(-1)?.content).toBe("Fixed: the test expected UTC.");
    expect(model.calls.length).toBe(2);
  });
});
