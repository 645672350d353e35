// The adapter driven by the real SDK runner: a ScriptedModel (the SDK's own testing model) over
// several turns with parallel tool calls, a MemorySession and the callModelInputFilter; the
// assertions read the input each model call received.
import { Agent, MemorySession, run, setTracingDisabled, type AgentInputItem } from "@openai/agents";
import {
  assistantMessage,
  functionCall,
  modelResponder,
  ScriptedModel,
  type RecordedModelCall,
} from "@openai/agents/testing";
import { createContextManager } from "@cc/context";
import { beforeAll, describe, expect, it } from "vitest";
import { createAgentsCompaction, isNoteItem, itemsToMessages } from "../src/index.js";
import { fileText, orphanedResults, readFile, unansweredCalls } from "./fixtures.js";

beforeAll(() => setTracingDisabled(true));

const inputOf = (call: RecordedModelCall): readonly AgentInputItem[] => {
  const input = call.request.input;
  return typeof input === "string" ? [{ role: "user", content: input }] : input;
};
const noteText = (items: readonly AgentInputItem[]): string | undefined => {
  const note = items.find(isNoteItem) as { content?: unknown } | undefined;
  return typeof note?.content === "string" ? note.content : undefined;
};
const outputOf = (items: readonly AgentInputItem[], callId: string): string | undefined => {
  const r = items.find((i) => i.type === "function_call_result" && i.callId === callId) as
    { output?: unknown } | undefined;
  const out = r?.output;
  if (typeof out === "string") return out;
  const text = (out as { type?: unknown; text?: unknown } | undefined)?.text;
  return typeof text === "string" ? text : undefined;
};

describe("callModelInputFilter through run()", () => {
  it("keeps every model input within budget, pair-safe, with the note, and the tools bring originals back", async () => {
    const maxTokens = 1500;
    const manager = createContextManager({ maxTokens, preserveLast: 2, noteTokens: 200 });
    const cc = createAgentsCompaction({ manager });
    let expandedId = "";
    const model = new ScriptedModel([
      [
        functionCall("read_file", { path: "a.py" }, { callId: "c1" }),
        functionCall("read_file", { path: "b.py" }, { callId: "c2" }),
      ],
      [assistantMessage("Read a.py and b.py.")],
      [functionCall("read_file", { path: "c.py" }, { callId: "c3" })],
      [assistantMessage("Read c.py.")],
      [functionCall("read_file", { path: "d.py" }, { callId: "c4" })],
      modelResponder((call) => {
        const note = noteText(inputOf(call)) ?? "";
        expandedId = /^- (\S+) /m.exec(note)?.[1] ?? "missing";
        return [
          functionCall("expand_context", { id: expandedId, offset: null }, { callId: "c5" }),
          functionCall("search_context", { query: "alpha_apy" }, { callId: "c6" }),
        ];
      }),
      [assistantMessage("Done.")],
    ]);
    const agent = new Agent({
      name: "coder",
      instructions: "You fix Python files. Be brief.",
      model,
      tools: [readFile, ...cc.tools],
    });
    const session = new MemorySession();
    const options = { session, callModelInputFilter: cc.callModelInputFilter };
    await run(agent, "Read a.py and b.py", options);
    await run(agent, "Now read c.py", options);
    const last = await run(agent, "Read d.py, then recall a.py", options);
    model.assertComplete();
    expect(model.calls).toHaveLength(7);
    for (const call of model.calls) {
      const input = inputOf(call);
      expect(orphanedResults(input), `call ${call.index}`).toEqual([]);
      const tokens = manager.count(itemsToMessages(input, call.request.systemInstructions).messages);
      expect(tokens, `call ${call.index}`).toBeLessThanOrEqual(maxTokens);
    }
    // Later calls carry the note: earlier file reads left the context.
    const withNote = model.calls.filter((c) => noteText(inputOf(c)) !== undefined).map((c) => c.index);
    expect(withNote.length).toBeGreaterThan(0);
    expect(withNote).toContain(5);
    // expand_context returned the original bytes of an evicted unit, search_context found a.py.
    const finalInput = inputOf(model.calls[6]!);
    const original = await manager.expand(expandedId);
    expect(original).toBeDefined();
    // The output is the core's JSON page: the whole original (it fits one page), from offset 0, no next page.
    const expanded = JSON.parse(outputOf(finalInput, "c5") ?? "null") as Record<string, unknown>;
    expect(expanded).toEqual({
      id: expandedId,
      kind: expect.any(String) as unknown,
      content: original,
      offset: 0,
      totalChars: original!.length,
    });
    expect("nextOffset" in expanded).toBe(false);
    expect(original).toMatch(/read_file|# [a-d]\.py/);
    const searched = outputOf(finalInput, "c6") ?? "";
    expect(searched).toContain('"hits"');
    expect(JSON.parse(searched).hits.length).toBeGreaterThan(0);
    // Among the evicted originals the text of a.py comes back verbatim.
    const hits = await manager.search("alpha_apy", 5);
    const texts = await Promise.all(hits.map((h) => manager.expand(h.id)));
    expect(texts.some((t) => t?.includes(fileText("a.py")) === true)).toBe(true);
    expect(last.finalOutput).toBe("Done.");
    // The session stores the conversation itself: every result, never an orphan.
    const stored = await session.getItems();
    expect(orphanedResults(stored)).toEqual([]);
    expect(stored.filter(isNoteItem)).toEqual([]);
    expect(
      stored.filter((i) => "role" in i && i.role === "user").map((i) => (i as { content: unknown }).content),
    ).toEqual(["Read a.py and b.py", "Now read c.py", "Read d.py, then recall a.py"]);
    expect(stored.filter((i) => i.type === "function_call").map((i) => (i as { callId: string }).callId)).toEqual([
      "c1",
      "c2",
      "c3",
      "c4",
      "c5",
      "c6",
    ]);
    expect(
      stored.filter((i) => i.type === "function_call_result").map((i) => (i as { callId: string }).callId),
    ).toEqual(["c1", "c2", "c3", "c4", "c5", "c6"]);
  });
});

describe("streaming", () => {
  it("the filter applies to streamed runs too", async () => {
    const maxTokens = 900;
    const manager = createContextManager({ maxTokens, preserveLast: 2, noteTokens: 150 });
    const cc = createAgentsCompaction({ manager });
    const model = new ScriptedModel([
      [
        functionCall("read_file", { path: "a.py" }, { callId: "s1" }),
        functionCall("read_file", { path: "b.py" }, { callId: "s2" }),
      ],
      [functionCall("read_file", { path: "c.py" }, { callId: "s3" })],
      [functionCall("read_file", { path: "d.py" }, { callId: "s4" })],
      [assistantMessage("Read all four.")],
    ]);
    const agent = new Agent({ name: "coder", instructions: "Be brief.", model, tools: [readFile, ...cc.tools] });
    const result = await run(agent, "Read a.py to d.py", {
      stream: true,
      callModelInputFilter: cc.callModelInputFilter,
    });
    for await (const _event of result) void _event;
    await result.completed;
    expect(result.finalOutput).toBe("Read all four.");
    expect(model.calls.every((c) => c.streamed)).toBe(true);
    for (const call of model.calls) {
      const input = inputOf(call);
      expect(orphanedResults(input)).toEqual([]);
      expect(manager.count(itemsToMessages(input, call.request.systemInstructions).messages)).toBeLessThanOrEqual(
        maxTokens,
      );
    }
    expect(model.calls.some((c) => noteText(inputOf(c)) !== undefined)).toBe(true);
  });
});

describe("compacting session", () => {
  it("getItems returns a compacted, pair-safe view within budget; storage keeps every item", async () => {
    const maxTokens = 1200;
    const manager = createContextManager({ maxTokens, preserveLast: 2, noteTokens: 200 });
    const reports: string[] = [];
    const cc = createAgentsCompaction({ manager, onReport: (r) => void reports.push(r.source) });
    const inner = new MemorySession();
    const history: AgentInputItem[] = [];
    for (const [i, path] of ["a.py", "b.py", "c.py", "d.py"].entries()) {
      history.push({ role: "user", content: `read ${path}` });
      history.push({ type: "reasoning", content: [{ type: "input_text", text: `I should read ${path}` }] });
      history.push({
        type: "function_call",
        callId: `h${i}`,
        name: "read_file",
        arguments: JSON.stringify({ path }),
        status: "completed",
      });
      history.push({
        type: "function_call_result",
        callId: `h${i}`,
        name: "read_file",
        status: "completed",
        output: fileText(path),
      });
    }
    await inner.addItems(history);
    const session = cc.session(inner);
    const view = await session.getItems();
    expect(orphanedResults(view)).toEqual([]);
    expect(unansweredCalls(view)).toEqual([]);
    expect(view.some(isNoteItem)).toBe(true);
    expect(manager.count(itemsToMessages(view).messages)).toBeLessThanOrEqual(maxTokens);
    // Kept items are the stored ones, unchanged; a reasoning item never stays without its call.
    const storedNow = await inner.getItems();
    for (const item of view.filter((i) => !isNoteItem(i))) expect(storedNow).toContainEqual(item);
    for (const [i, item] of view.entries())
      if (item.type === "reasoning") expect(view[i + 1]?.type).toBe("function_call");
    expect(storedNow).toHaveLength(history.length);
    expect(reports).toEqual(["session"]);

    const model = new ScriptedModel([[assistantMessage("ok")]]);
    const agent = new Agent({ name: "coder", instructions: "Be brief.", model, tools: [readFile, ...cc.tools] });
    await run(agent, "What did a.py contain?", { session });
    const input = inputOf(model.calls[0]!);
    expect(input.some(isNoteItem)).toBe(true);
    expect(orphanedResults(input)).toEqual([]);
    expect(await inner.getItems()).toHaveLength(history.length + 2);
    expect(await session.inner.getItems()).toHaveLength(history.length + 2);
  });
});

/** A stored history of four file reads whose newest result is large (`bigWords` words). */
const historyWithLargeNewest = (bigWords: number): AgentInputItem[] =>
  ["a.py", "b.py", "c.py", "d.py"].flatMap((path, i): AgentInputItem[] => [
    { role: "user", content: `read ${path}` },
    {
      type: "function_call",
      callId: `h${i}`,
      name: "read_file",
      arguments: JSON.stringify({ path }),
      status: "completed",
    },
    {
      type: "function_call_result",
      callId: `h${i}`,
      name: "read_file",
      status: "completed",
      output: fileText(path, i === 3 ? bigWords : 300),
    },
  ]);

describe("compacting session within budget", () => {
  for (const bigWords of [1200, 3000]) {
    it(`the model input of a run stays within budget when the newest stored result is large (${bigWords} words)`, async () => {
      const maxTokens = 4000;
      const manager = createContextManager({ maxTokens });
      const cc = createAgentsCompaction({ manager });
      const inner = new MemorySession();
      await inner.addItems(historyWithLargeNewest(bigWords));
      const instructions = "You fix Python files. Be brief.";
      const question = "What did a.py contain?";
      // The view leaves room for what the run adds: the instructions and the new input.
      const reserveTokens = manager.count([
        { role: "system", content: instructions },
        { role: "user", content: question },
      ]);
      const model = new ScriptedModel([[assistantMessage("It held alpha_apy.")]]);
      const agent = new Agent({ name: "coder", instructions, model, tools: [readFile, ...cc.tools] });
      await run(agent, question, { session: cc.session(inner, { reserveTokens }) });
      const call = model.calls[0]!;
      const input = inputOf(call);
      expect(manager.count(itemsToMessages(input, call.request.systemInstructions).messages)).toBeLessThanOrEqual(
        maxTokens,
      );
      expect(orphanedResults(input)).toEqual([]);
      expect(cc.lastReport()?.turn.budgetMet).toBe(true);
      expect(cc.lastReport()?.turn.warnings.filter((w) => w._tag === "BudgetNotMet")).toEqual([]);
      // The large result left the view, not the storage.
      expect(await inner.getItems()).toHaveLength(12 + 2);
      expect(noteText(input)).toBeDefined();
    });
  }

  it("with the filter as well, every call of a run that reads another large file stays within budget", async () => {
    const maxTokens = 4000;
    const manager = createContextManager({ maxTokens });
    const cc = createAgentsCompaction({ manager });
    const inner = new MemorySession();
    await inner.addItems(historyWithLargeNewest(1200));
    const model = new ScriptedModel([
      [functionCall("read_file", { path: "e.py" }, { callId: "n1" })],
      [assistantMessage("Read e.py.")],
    ]);
    const agent = new Agent({ name: "coder", instructions: "Be brief.", model, tools: [readFile, ...cc.tools] });
    await run(agent, "Read e.py", {
      session: cc.session(inner, { reserveTokens: 50 }),
      callModelInputFilter: cc.callModelInputFilter,
    });
    expect(model.calls).toHaveLength(2);
    for (const call of model.calls)
      expect(
        manager.count(itemsToMessages(inputOf(call), call.request.systemInstructions).messages),
      ).toBeLessThanOrEqual(maxTokens);
  });

  it("session options are decoded: an unknown key or a negative reserve throws an AgentsCompactionError naming it", () => {
    const cc = createAgentsCompaction({ maxTokens: 4000 });
    expect(() => cc.session(new MemorySession(), { reserveTokns: 5 } as never)).toThrow(
      /reserveTokns: unknown field \(did you mean reserveTokens\?\)/,
    );
    expect(() => cc.session(new MemorySession(), { reserveTokens: -1 })).toThrow(/reserveTokens/);
    expect(() => cc.session(new MemorySession(), { reserveTokens: Number.NaN })).toThrow(/reserveTokens/);
  });
});

describe("orphaned input tool results", () => {
  const orphan: AgentInputItem = {
    type: "function_call_result",
    callId: "gone",
    name: "read_file",
    status: "completed",
    output: fileText("lost.py"),
  };

  it("the filter leaves a result without its call out of the model input and reports it", async () => {
    const manager = createContextManager({ maxTokens: 4000 });
    const cc = createAgentsCompaction({ manager });
    const model = new ScriptedModel([[assistantMessage("ok")]]);
    const agent = new Agent({ name: "coder", instructions: "Be brief.", model });
    await run(agent, [orphan, { role: "user", content: "What now?" }], {
      callModelInputFilter: cc.callModelInputFilter,
    });
    const input = inputOf(model.calls[0]!);
    expect(orphanedResults(input)).toEqual([]);
    expect(input).toContainEqual({ role: "user", content: "What now?" });
    expect(cc.lastReport()?.warnings).toEqual([
      expect.objectContaining({ _tag: "OrphanedResultDropped", index: 0, callId: "gone" }),
    ]);
  });

  it("the session view leaves it out too; the session keeps it", async () => {
    const manager = createContextManager({ maxTokens: 4000 });
    const cc = createAgentsCompaction({ manager });
    const inner = new MemorySession();
    await inner.addItems([
      orphan,
      { role: "user", content: "read a.py" },
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Done." }] },
    ]);
    const model = new ScriptedModel([[assistantMessage("ok")]]);
    const agent = new Agent({ name: "coder", instructions: "Be brief.", model });
    await run(agent, "And now?", { session: cc.session(inner) });
    expect(orphanedResults(inputOf(model.calls[0]!))).toEqual([]);
    expect(cc.lastReport()?.warnings.map((w) => w._tag)).toEqual(["OrphanedResultDropped"]);
    expect((await inner.getItems())[0]).toEqual(orphan);
  });
});
