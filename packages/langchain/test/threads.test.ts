// A manager per thread: one agent serving two threads keeps what each evicted apart, makes each
// thread's manager once, and a failing factory is reported while the run goes on.
import { createContextManager, type ContextManager } from "@cc/context";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, tool } from "langchain";
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { compactionMiddleware, EXPAND_TOOL, SEARCH_TOOL, type CompactionMiddlewareError } from "../src/index.js";
import { textOf } from "./support.js";

const base = createContextManager({ maxTokens: 2000, namespace: "base" });
afterAll(() => base.options.counter.dispose());

const secret = "the quokka config lives in /etc/quokka.toml\n".repeat(60);
const read = tool(async () => secret, { name: "read_file", description: "Read", schema: z.object({}) });
const call = (name: string, args: Record<string, unknown>, id: string) => ({
  name,
  args,
  id,
  type: "tool_call" as const,
});
const resultOf = (messages: readonly BaseMessage[], id: string): string =>
  textOf(messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === id)!);

it("keeps each thread's evicted context to that thread", async () => {
  const made: string[] = [];
  const errors: CompactionMiddlewareError[] = [];
  const evicted: string[] = [];
  const factory = (threadId: string): ContextManager => {
    made.push(threadId);
    if (threadId === "bad") throw new Error("no quota");
    // One shared index and counter; the namespace keeps threads apart.
    return createContextManager({
      maxTokens: 2000,
      namespace: threadId,
      counter: base.options.counter,
      index: base.options.index,
    });
  };
  const model = fakeModel()
    // thread A: read (evicted on arrival), answer
    .respond(new AIMessage({ content: "", tool_calls: [call("read_file", {}, "a1")] }))
    .respond(new AIMessage("read it"))
    // thread B: search and expand A's id: nothing
    .respond(
      () =>
        new AIMessage({
          content: "",
          tool_calls: [
            call(SEARCH_TOOL, { query: "quokka" }, "b1"),
            call(EXPAND_TOOL, { id: evicted[0] ?? "none" }, "b2"),
          ],
        }),
    )
    .respond(new AIMessage("nothing here"))
    // thread A again: expand works
    .respond(
      () =>
        new AIMessage({
          content: "",
          tool_calls: [call(EXPAND_TOOL, { id: evicted[0] ?? "none", maxChars: 100_000 }, "a2")],
        }),
    )
    .respond(new AIMessage("found it"))
    // thread "bad": the factory throws; the model still answers
    .respond(new AIMessage("fine"));
  const middleware = compactionMiddleware({
    manager: factory,
    maxExpandChars: 100_000,
    onToolResultEvicted: (e) => void evicted.push(e.id),
    onError: (e) => void errors.push(e),
  });
  const agent = createAgent({ model, tools: [read], middleware: [middleware], checkpointer: new MemorySaver() });
  const on = (thread: string) => ({ configurable: { thread_id: thread } });

  await agent.invoke({ messages: [new HumanMessage("read the config")] }, on("A"));
  expect(evicted.length).toBe(1);
  const b = await agent.invoke({ messages: [new HumanMessage("what is in the config?")] }, on("B"));
  expect(JSON.parse(resultOf(b.messages, "b1"))).toEqual({ hits: [] });
  expect(JSON.parse(resultOf(b.messages, "b2"))).toEqual({
    error: { _tag: "NotFound", message: `expand_context: no evicted entry with id ${JSON.stringify(evicted[0])}` },
  });
  const a = await agent.invoke({ messages: [new HumanMessage("show the config again")] }, on("A"));
  expect((JSON.parse(resultOf(a.messages, "a2")) as { content: string }).content).toBe(secret);
  const bad = await agent.invoke({ messages: [new HumanMessage("hi")] }, on("bad"));
  expect(textOf(bad.messages.at(-1)!)).toBe("fine");

  expect(made.filter((t) => t === "A")).toEqual(["A"]);
  expect(made.filter((t) => t === "B")).toEqual(["B"]);
  expect(errors.map((e) => [e._tag, e.subject])).toContainEqual(["CallbackFailed", "manager"]);
  expect(errors.find((e) => e._tag === "CallbackFailed")?.message).toBe('manager threw for thread "bad": no quota');
});
