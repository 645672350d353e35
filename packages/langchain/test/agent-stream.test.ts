// The middleware inside a streamed createAgent run (`agent.stream`, stream modes "updates" and
// "values" together), driven by LangChain's own fake model over several tool-calling steps in two
// turns: what every model call received is checked (budget by the exact counter, no orphaned tool
// result, the note right after the system prompt), and what the stream carried.
import { createContextManager, type ContextManager } from "@cc/context";
import { SUMMARY_PREFIX } from "@cc/messages";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
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

const MAX = 1400;
const fileText = (path: string): string =>
  Array.from(
    { length: 14 },
    (_, i) => `// ${path} line ${i}: export const w${i} = stream("${path}", ${i * 11}); // okapi-${path.length}`,
  ).join("\n");
const logText = Array.from(
  { length: 300 },
  (_, i) => `2026-02-02T10:00:${String(i % 60).padStart(2, "0")}Z shard-${i % 5} flushed segment ${i * 17} ok`,
).join("\n");

const readFile = tool(async ({ path }: { path: string }) => fileText(path), {
  name: "read_file",
  description: "Read a file",
  schema: z.object({ path: z.string() }),
});
const tailLog = tool(async () => logText, {
  name: "tail_log",
  description: "Print the service log",
  schema: z.object({}),
});
const call = (name: string, args: Record<string, unknown>, id: string) => ({
  name,
  args,
  id,
  type: "tool_call" as const,
});

/** One chunk of a stream with modes ["updates", "values"]. */
type Chunk =
  | readonly ["updates", Readonly<Record<string, unknown>>]
  | readonly ["values", { readonly messages: readonly BaseMessage[] }];

let shared: ContextManager | undefined;
afterAll(() => shared?.options.counter.dispose());

async function run(mode: CompactionMode) {
  const manager = createContextManager({
    maxTokens: MAX,
    preserveLast: 2,
    namespace: `stream-${mode}`,
    ...(shared === undefined ? {} : { counter: shared.options.counter }),
  });
  shared ??= manager;
  const events: CompactionEvent[] = [];
  const errors: CompactionMiddlewareError[] = [];
  const model = fakeModel()
    // turn 1: parallel reads, two more reads, an oversized log (evicted as it arrives), an answer
    .respondWithTools([
      { name: "read_file", args: { path: "src/x.ts" }, id: "s1" },
      { name: "read_file", args: { path: "src/yy.ts" }, id: "s2" },
    ])
    .respond(new AIMessage({ content: "", tool_calls: [call("read_file", { path: "src/zzz.ts" }, "s3")] }))
    .respond(new AIMessage({ content: "", tool_calls: [call("read_file", { path: "src/wwww.ts" }, "s4")] }))
    .respond(new AIMessage({ content: "", tool_calls: [call("tail_log", {}, "s5")] }))
    .respond(new AIMessage("The shard flush is fine."))
    // turn 2: search what left, then answer
    .respond(new AIMessage({ content: "", tool_calls: [call(SEARCH_TOOL, { query: "okapi" }, "s6")] }))
    .respond(new AIMessage({ content: "", tool_calls: [call(EXPAND_TOOL, { id: "r-none" }, "s7")] }))
    .respond(new AIMessage("src/x.ts streams w0..w13."));
  const agent = createAgent({
    model,
    tools: [readFile, tailLog],
    systemPrompt: "You are a careful coding agent.",
    middleware: [
      compactionMiddleware({
        manager,
        mode,
        maxToolResultTokens: 500,
        onTurn: (e) => void events.push(e),
        onError: (e) => void errors.push(e),
      }),
    ],
    checkpointer: new MemorySaver(),
  });
  const config = {
    configurable: { thread_id: `stream-${mode}` },
    streamMode: ["updates", "values"] as ["updates", "values"],
  };
  const chunks: Chunk[] = [];
  for (const text of ["Check the shard flush", "What does src/x.ts export?"]) {
    const stream = await agent.stream({ messages: [new HumanMessage(text)] }, config);
    for await (const chunk of stream) chunks.push(chunk as Chunk);
  }
  return { manager, model, events, errors, chunks };
}

/** The messages that updates of `node` carried, in stream order. */
const updatesOf = (chunks: readonly Chunk[], node: string): BaseMessage[] =>
  chunks.flatMap((c) => {
    if (c[0] !== "updates") return [];
    const update = c[1][node] as { messages?: BaseMessage[] } | undefined;
    return update?.messages ?? [];
  });

const values = (chunks: readonly Chunk[]): (readonly BaseMessage[])[] =>
  chunks.flatMap((c) => (c[0] === "values" ? [c[1].messages] : []));

describe.each(["model", "state"] as const)("agent.stream with the middleware (mode %s)", (mode) => {
  let result: ReturnType<typeof run>;
  beforeAll(async () => {
    result = run(mode);
    await result;
  });

  it("every model call received a valid order within the budget (exact counter)", async () => {
    const { model, manager, errors } = await result;
    expect(errors).toEqual([]);
    expect(model.calls.length).toBe(8);
    for (const [i, c] of model.calls.entries()) {
      expect(orderProblems(c.messages), `call ${i}`).toEqual([]);
      expect(c.messages[0]?.type, `call ${i}`).toBe("system");
      expect(promptTokens(manager, c.messages), `call ${i}`).toBeLessThanOrEqual(MAX);
    }
  });

  it("the note sits right after the system prompt and the task once the history outgrows the budget", async () => {
    const { model, events } = await result;
    expect(events.some((e) => e.turn.evicted.length > 0)).toBe(true);
    const withNote = model.calls
      .map((c, i) => [i, c.messages] as const)
      .filter(([, ms]) => ms.some((m) => textOf(m).startsWith(SUMMARY_PREFIX)));
    expect(withNote.length).toBeGreaterThan(0);
    for (const [i, ms] of withNote) {
      // The task (the request the agent first answered) stays pinned in front of the note.
      expect(textOf(ms[1]!), `call ${i}`).toBe("Check the shard flush");
      expect(textOf(ms[2]!).startsWith(SUMMARY_PREFIX), `call ${i}`).toBe(true);
    }
    // Once a note is sent, every later call carries one (what left stays announced).
    const first = withNote[0]![0];
    expect(withNote.map(([i]) => i)).toEqual(Array.from({ length: model.calls.length - first }, (_, k) => first + k));
  });

  it("the stream carries each model response once, in order, and the tool results as the agent saw them", async () => {
    const { model, chunks } = await result;
    const responses = updatesOf(chunks, "model_request").filter((m) => AIMessage.isInstance(m));
    expect(responses.length).toBe(model.calls.length);
    expect(responses.map((m) => (m as AIMessage).tool_calls?.map((c) => c.id) ?? [])).toEqual([
      ["s1", "s2"],
      ["s3"],
      ["s4"],
      ["s5"],
      [],
      ["s6"],
      ["s7"],
      [],
    ]);
    const toolResults = updatesOf(chunks, "tools").filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(toolResults.map((m) => m.tool_call_id)).toEqual(["s1", "s2", "s3", "s4", "s5", "s6", "s7"]);
    const log = toolResults.find((m) => m.tool_call_id === "s5")!;
    expect(textOf(log)).toMatch(/^\[Tool result of \d+ tokens moved to the context index as /);
    for (const c of model.calls)
      expect(c.messages.some((m) => textOf(m).includes("shard-3 flushed segment 51 "))).toBe(false);
  });

  it("every streamed snapshot of the state is in an order strict providers accept", async () => {
    const { chunks } = await result;
    const snapshots = values(chunks);
    expect(snapshots.length).toBeGreaterThan(8);
    for (const [i, messages] of snapshots.entries()) {
      // A snapshot taken between a call and its results ends with the call pending; nothing else may be wrong.
      expect(
        orderProblems(messages).filter((p) => !p.startsWith("unanswered tool calls at the end")),
        `snapshot ${i}`,
      ).toEqual([]);
    }
    const last = snapshots.at(-1)!;
    expect(textOf(last.at(-1)!)).toBe("src/x.ts streams w0..w13.");
    const notes = last.filter((m) => textOf(m).startsWith(SUMMARY_PREFIX));
    // two turns: 2 human, 8 AI and 7 tool messages
    if (mode === "state") {
      expect(notes.length).toBe(1);
      expect(last.length).toBeLessThan(17);
    } else {
      expect(notes).toEqual([]);
      expect(last.length).toBe(17);
    }
  });
});
