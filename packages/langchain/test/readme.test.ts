// Runs the README's snippets (the lines between the markers are the README's, verbatim).
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { createAgent, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { baseStoreSummaryStore, compactionMiddleware } from "../src/index.js";

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

describe("README: session memory in the agent's LangGraph store", () => {
  it("appends, saves a summary and reads it back", async () => {
    // README-BASESTORE-START
    const langGraphStore = new InMemoryStore(); // also given to createAgent({ …, store: langGraphStore })
    const made = baseStoreSummaryStore(langGraphStore, { namespace: ["my-app", "sessions"] });
    if (made._tag === "Left") throw new Error(made.left.message); // InvalidOptions, the field named
    const store = made.right;
    await store.append("thread-1", [{ role: "user", content: "Fix the failing test 🧪" }], Date.now())(); // right([{ id: 1, … }])
    await store.saveSummary("thread-1", { content: "## Goal\nfix the test", coversUpTo: 1, previousId: null }, Date.now())();
    const latest = await store.latestSummary("thread-1")(); // right(some({ id: 1, coversUpTo: 1, previousId: null, … }))
    // README-BASESTORE-END
    expect(latest).toMatchObject({ _tag: "Right", right: { _tag: "Some", value: { id: 1, coversUpTo: 1, previousId: null, content: "## Goal\nfix the test" } } });
    expect(await store.messagesAfter("thread-1", 0)()).toMatchObject({ _tag: "Right", right: [{ id: 1, message: { role: "user", content: "Fix the failing test 🧪" } }] });
    expect(await langGraphStore.listNamespaces({ prefix: ["my-app", "sessions"], maxDepth: 3 })).toEqual([["my-app", "sessions", Buffer.from("thread-1").toString("base64url")]]);
  });
});
