// The middleware inside a real createAgent loop driven by LangChain's own fake model, multi-turn
// with parallel tool calls, checkpointed by MemorySaver: what every model call received is checked.
import { createContextManager, type ContextManager } from "@cc/context";
import { SUMMARY_PREFIX } from "@cc/messages";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { createAgent, tool } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  compactionMiddleware,
  EXPAND_TOOL,
  SEARCH_TOOL,
  type CompactionEvent,
  type CompactionMiddlewareError,
  type CompactionMode,
} from "../src/index.js";
import { orderProblems, promptTokens, textOf } from "./support.js";

const MAX = 1500;
const animal: Readonly<Record<string, string>> = {
  "src/a.ts": "quokka",
  "src/b.ts": "narwhal",
  "src/c.ts": "axolotl",
  "src/d.ts": "pangolin",
};
const fileText = (path: string): string =>
  Array.from(
    { length: 14 },
    (_, i) => `// ${path} (${animal[path] ?? "x"}) line ${i}: export const v${i} = compute("${path}", ${i * 7});`,
  ).join("\n");
const logText = Array.from(
  { length: 400 },
  (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z worker-${i % 7} processed batch ${i * 13} ok`,
).join("\n");

const readFile = tool(async ({ path }: { path: string }) => fileText(path), {
  name: "read_file",
  description: "Read a file",
  schema: z.object({ path: z.string() }),
});
const dumpLog = tool(async () => logText, {
  name: "dump_log",
  description: "Print the service log",
  schema: z.object({}),
});

const call = (name: string, args: Record<string, unknown>, id: string) => ({
  name,
  args,
  id,
  type: "tool_call" as const,
});
const lastTool = (messages: BaseMessage[]): ToolMessage =>
  messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).at(-1)!;

let shared: ContextManager | undefined;
afterAll(() => shared?.options.counter.dispose());

async function run(mode: CompactionMode) {
  const base = createContextManager({
    maxTokens: MAX,
    preserveLast: 2,
    namespace: `agent-${mode}`,
    ...(shared === undefined ? {} : { counter: shared.options.counter }),
  });
  shared ??= base;
  const manager = base;
  const events: CompactionEvent[] = [];
  const errors: CompactionMiddlewareError[] = [];
  const evictedIds: string[] = [];
  const model = fakeModel()
    // turn 1: parallel reads, one more read, a huge log (evicted as it arrives), an answer
    .respondWithTools([
      { name: "read_file", args: { path: "src/a.ts" }, id: "c1" },
      { name: "read_file", args: { path: "src/b.ts" }, id: "c2" },
    ])
    .respond(new AIMessage({ content: "", tool_calls: [call("read_file", { path: "src/c.ts" }, "c3")] }))
    .respond(new AIMessage({ content: "", tool_calls: [call("read_file", { path: "src/d.ts" }, "c4")] }))
    .respond(new AIMessage({ content: "", tool_calls: [call("dump_log", {}, "c5")] }))
    .respond(new AIMessage("The parser is fixed."))
    // turn 2: search the evicted context, expand the first hit, expand the evicted log
    .respond(new AIMessage({ content: "", tool_calls: [call(SEARCH_TOOL, { query: "quokka" }, "c6")] }))
    .respond((messages) => {
      const hits = JSON.parse(textOf(lastTool(messages))) as { hits: { id: string }[] };
      return new AIMessage({ content: "", tool_calls: [call(EXPAND_TOOL, { id: hits.hits[0]?.id ?? "none" }, "c7")] });
    })
    .respond(
      () =>
        new AIMessage({
          content: "",
          tool_calls: [call(EXPAND_TOOL, { id: evictedIds[0] ?? "none", offset: 2000, maxChars: 2000 }, "c8")],
        }),
    )
    .respond(new AIMessage("a.ts computes v0..v39."));
  const agent = createAgent({
    model,
    tools: [readFile, dumpLog],
    systemPrompt: "You are a careful coding agent.",
    middleware: [
      compactionMiddleware({
        manager,
        mode,
        maxToolResultTokens: 400,
        maxExpandChars: 100_000,
        onTurn: (e) => void events.push(e),
        onToolResultEvicted: (e) => void evictedIds.push(e.id),
        onError: (e) => void errors.push(e),
      }),
    ],
    checkpointer: new MemorySaver(),
    store: new InMemoryStore(),
  });
  const config = { configurable: { thread_id: `thread-${mode}` } };
  const first = await agent.invoke({ messages: [new HumanMessage("Fix the parser in src/")] }, config);
  const second = await agent.invoke({ messages: [new HumanMessage("What did src/a.ts contain?")] }, config);
  return { manager, model, events, errors, first, second, evictedIds };
}

/** The result of tool call `id` as a later model call received it. */
function resultSeen(model: ReturnType<typeof fakeModel>, id: string): ToolMessage {
  for (const c of model.calls)
    for (const m of c.messages) if (ToolMessage.isInstance(m) && m.tool_call_id === id) return m;
  throw new Error(`no model call received the result of ${id}`);
}

describe.each(["model", "state"] as const)("createAgent with the middleware (mode %s)", (mode) => {
  let result: ReturnType<typeof run>;
  beforeAll(async () => {
    result = run(mode);
    await result;
  });

  it("sends every model call a valid order within the budget (exact counter)", async () => {
    const { model, manager, errors } = await result;
    expect(errors).toEqual([]);
    expect(model.calls.length).toBe(9);
    for (const [i, c] of model.calls.entries()) {
      expect(orderProblems(c.messages), `call ${i}`).toEqual([]);
      expect(c.messages[0]?.type, `call ${i}`).toBe("system");
      expect(promptTokens(manager, c.messages), `call ${i}`).toBeLessThanOrEqual(MAX);
    }
  });

  it("puts the note right after the system prompt and the task once the history outgrows the budget", async () => {
    const { model, events } = await result;
    expect(events.some((e) => e.turn.evicted.length > 0)).toBe(true);
    const withNote = model.calls.filter((c) => c.messages.some((m) => textOf(m).startsWith(SUMMARY_PREFIX)));
    expect(withNote.length).toBeGreaterThan(0);
    for (const c of withNote) {
      // The task (the request the agent first answered) stays pinned in front of the note.
      expect(textOf(c.messages[1]!)).toBe("Fix the parser in src/");
      expect(textOf(c.messages[2]!).startsWith(SUMMARY_PREFIX)).toBe(true);
    }
    // "model": the last call's full history is far over the budget; "state": the thread was compacted more than once.
    if (mode === "model") expect(events.at(-1)!.turn.tokensBefore).toBeGreaterThan(MAX);
    else expect(events.filter((e) => e.hook === "beforeModel" && e.turn.compacted).length).toBeGreaterThan(1);
  });

  it("evicts the oversized tool result as it arrives: the model never sees it, expand returns the original bytes", async () => {
    const { model, evictedIds, manager } = await result;
    for (const c of model.calls)
      expect(c.messages.some((m) => textOf(m).includes("worker-3 processed batch 3 "))).toBe(false);
    expect(evictedIds.length).toBe(1);
    expect(evictedIds[0]).toMatch(/^r[0-9a-f]{32}$/); // 128 bits of SHA-256
    expect(textOf(resultSeen(model, "c5"))).toMatch(
      new RegExp(`^\\[Tool result of \\d+ tokens moved to the context index as ${evictedIds[0]!}\\.`),
    );
    const page = JSON.parse(textOf(resultSeen(model, "c8"))) as {
      content: string;
      offset: number;
      nextOffset: number;
      totalChars: number;
    };
    expect(page).toEqual({
      id: evictedIds[0],
      kind: "tool_result:dump_log",
      content: logText.slice(2000, 4000),
      offset: 2000,
      nextOffset: 4000,
      totalChars: logText.length,
    });
    expect(await manager.expand(evictedIds[0]!)).toBe(logText);
  });

  it("search_context finds the evicted read and expand_context returns its original text", async () => {
    const { model } = await result;
    const hits = (JSON.parse(textOf(resultSeen(model, "c6"))) as { hits: { id: string }[] }).hits;
    expect(hits.length).toBeGreaterThan(0);
    const expanded = resultSeen(model, "c7");
    const content = (JSON.parse(textOf(expanded)) as { content: string }).content;
    expect(content).toContain(fileText("src/a.ts"));
  });

  it(
    mode === "state"
      ? "persists the compacted history: the thread holds the note and fewer messages"
      : "keeps every message in the thread's state",
    async () => {
      const { second } = await result;
      const notes = second.messages.filter((m) => textOf(m).startsWith(SUMMARY_PREFIX));
      // turn 1 + turn 2 produced 2 human, 9 AI and 8 tool messages
      if (mode === "state") {
        expect(notes.length).toBe(1);
        expect(second.messages.length).toBeLessThan(19);
        expect(orderProblems(second.messages)).toEqual([]);
      } else {
        expect(notes).toEqual([]);
        expect(second.messages.length).toBe(19);
      }
    },
  );
});

describe("the model's view of odd threads", () => {
  const setup = () => {
    const errors: CompactionMiddlewareError[] = [];
    const manager = createContextManager({
      maxTokens: MAX,
      preserveLast: 2,
      ...(shared === undefined ? {} : { counter: shared.options.counter }),
    });
    shared ??= manager;
    const model = fakeModel().respond(new AIMessage("ok"));
    const agent = createAgent({
      model,
      tools: [readFile],
      systemPrompt: "You are a careful coding agent.",
      middleware: [compactionMiddleware({ manager, onError: (e) => void errors.push(e) })],
    });
    return { errors, model, agent };
  };

  it("a tool result without its call never reaches the model, and is reported", async () => {
    const { errors, model, agent } = setup();
    const orphan = new ToolMessage({ content: fileText("src/a.ts"), tool_call_id: "gone", id: "t-gone" });
    const out = await agent.invoke({
      messages: [new HumanMessage("Look at this"), orphan, new HumanMessage("What now?")],
    });
    const seen = model.calls[0]!.messages;
    expect(orderProblems(seen)).toEqual([]);
    expect(seen.some((m) => ToolMessage.isInstance(m))).toBe(false);
    expect(errors).toEqual([
      expect.objectContaining({ _tag: "OrphanedToolResultDropped", toolCallId: "gone", index: 1 }),
    ]);
    // The thread itself keeps it: nothing is lost.
    expect(out.messages.some((m) => m.id === "t-gone")).toBe(true);
  });

  it("a system message in mid-conversation is folded into the system prompt, in order", async () => {
    const { errors, model, agent } = setup();
    await agent.invoke({
      messages: [
        new HumanMessage("Fix the parser"),
        new AIMessage("On it."),
        new SystemMessage("Answer in French from now on."),
        new HumanMessage("Status?"),
      ],
    });
    const seen = model.calls[0]!.messages;
    expect(orderProblems(seen)).toEqual([]);
    expect(seen.filter((m) => m.type === "system")).toHaveLength(1);
    expect(textOf(seen[0]!)).toBe("You are a careful coding agent.\n\nAnswer in French from now on.");
    expect(seen.slice(1).map((m) => textOf(m))).toEqual(["Fix the parser", "On it.", "Status?"]);
    expect(errors).toEqual([]);
  });
});
