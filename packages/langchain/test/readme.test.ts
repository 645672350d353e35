// Runs the README's snippets (the lines between the markers are the README's, verbatim).
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createContextManager } from "@cc/context";
import { fakeModel } from "@langchain/core/testing";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { createAgent, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { baseStoreSummaryStore, compactionMiddleware } from "../src/index.js";

describe("README quick start", () => {
  it("runs an agent with the middleware: every model call within the budget, the evicted output found again", async () => {
    // The README's lines, with a model that reads ten large test logs: far over 8,000 tokens.
    const log = (n: number): string =>
      Array.from(
        { length: 120 },
        (_, i) =>
          `test_${n}_${i} ... ${i % 17 === 0 ? `FAILED (expected UTC, got CET) at tests/test_dates_${n}.py:${i}` : "ok"}`,
      ).join("\n");
    let model = fakeModel();
    // (Tool calls as messages: the fake model's respondWithTools would echo every input into the call's content.)
    const calling = (name: string, args: Record<string, unknown>, id: string): AIMessage =>
      new AIMessage({ content: "", tool_calls: [{ name, args, id, type: "tool_call" }] });
    for (let n = 1; n <= 10; n++) model = model.respond(calling("run_tests", { n }, `c${n}`));
    model = model
      .respond(calling("search_context", { query: "test_dates_2.py" }, "s1"))
      .respond(new AIMessage("Fixed: the test expected UTC."));
    const tools = [
      tool(async ({ n }: { n: number }) => log(n), {
        name: "run_tests",
        description: "Run the tests",
        schema: z.object({ n: z.number() }),
      }),
    ];
    const middleware = [compactionMiddleware({ maxTokens: 8000 })]; // a manager per thread; or { manager }
    const agent = createAgent({ model, tools, middleware, checkpointer: new MemorySaver() });
    const out = await agent.invoke(
      { messages: [{ role: "user", content: "Fix the failing test" }] },
      { configurable: { thread_id: "1" } },
    );
    expect(out.messages.at(-1)?.content).toBe("Fixed: the test expected UTC.");
    expect(model.calls.length).toBe(12);
    const counting = createContextManager({ maxTokens: 8000 });
    const sizes = model.calls.map((c) =>
      counting.count(
        (c.messages as BaseMessage[]).map((m) => ({
          role: "user" as const,
          content: typeof m.content === "string" ? m.content : JSON.stringify(m.content),
        })),
      ),
    );
    // Without the middleware the last calls would carry all ten logs (~25,000 tokens).
    expect(Math.max(...sizes)).toBeLessThanOrEqual(8000);
    expect(
      model.calls.some(
        (c) =>
          JSON.stringify(c.messages).includes("Evicted to the journal") ||
          JSON.stringify(c.messages).includes("moved to the context index"),
      ),
    ).toBe(true);
    // The search the model ran found the evicted log of run 2.
    const found = out.messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "s1");
    expect(String(found?.content)).toContain("test_dates_2.py");
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
    await store.saveSummary(
      "thread-1",
      { content: "## Goal\nfix the test", coversUpTo: 1, previousId: null },
      Date.now(),
    )();
    const latest = await store.latestSummary("thread-1")(); // right(some({ id: 1, coversUpTo: 1, previousId: null, … }))
    // README-BASESTORE-END
    expect(latest).toMatchObject({
      _tag: "Right",
      right: { _tag: "Some", value: { id: 1, coversUpTo: 1, previousId: null, content: "## Goal\nfix the test" } },
    });
    expect(await store.messagesAfter("thread-1", 0)()).toMatchObject({
      _tag: "Right",
      right: [{ id: 1, message: { role: "user", content: "Fix the failing test 🧪" } }],
    });
    expect(await langGraphStore.listNamespaces({ prefix: ["my-app", "sessions"], maxDepth: 3 })).toEqual([
      ["my-app", "sessions", Buffer.from("thread-1").toString("base64url")],
    ]);
  });
});
