// A Mastra Agent with the processor as input and output processor, a scripted AI SDK mock model,
// multi-turn over Memory + InMemoryStore: asserts on the prompts the model received.
import { Agent } from "@mastra/core/agent";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { Memory } from "@mastra/memory";
import { describe, expect, it } from "vitest";
import {
  contextTools,
  createCompactionProcessor,
  type CompactionReport,
  type ContextExpandResult,
  type ContextSearchResult,
} from "@cc/mastra";
import { asAgentModel, asMessages, lastText, noteOf, pairingProblems, scriptedModel, type Reply } from "./helpers.js";
import type { LLMPrompt } from "@cc/test-support/mastra";

const MAX = 1200;
const fileText = (n: number): string =>
  Array.from(
    { length: 12 },
    (_, i) => `module${n}.ts line ${i}: export const value${n}_${i} = computeThing(${n * 100 + i});`,
  ).join("\n");
const bigLog = Array.from(
  { length: 120 },
  (_, i) =>
    `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z worker-${i % 7} ERROR code=E${1000 + i} retrying request ${i}`,
).join("\n");

function script(prompt: LLMPrompt): Reply {
  const last = lastText(prompt);
  if (last.role === "user") {
    const recall = /^recall (\S+)/.exec(last.text);
    if (recall !== null) {
      const note = noteOf(asMessages(prompt)) ?? "";
      const id = /- (u[0-9a-f]{32}(?:\.\d+)?) /.exec(note)?.[1] ?? "none";
      return { tool: "expand_context", input: { id } };
    }
    if (last.text.startsWith("logs")) return { tool: "fetchLogs", input: {} };
    return { tool: "readFile", input: { path: last.text.replace("read ", "") } };
  }
  return { text: `noted: ${last.text.slice(0, 40)}` };
}

/** A `readFile` tool answering `fileText(n)` for `moduleN.ts` (and the path itself when `withPath`). */
function readFileTool(withPath: boolean) {
  return createTool({
    id: "readFile",
    description: "Read a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    execute: async (input: unknown) => {
      const path = (input as { path: string }).path;
      const text = fileText(Number(/\d+/.exec(path)?.[0] ?? 0));
      return withPath ? { path, text } : { text };
    },
  });
}

describe("compaction processor in a Mastra Agent", () => {
  it("keeps every prompt within budget and pair-safe over several turns; the note and the tools bring evicted context back", async () => {
    const reports: CompactionReport[] = [];
    const compaction = createCompactionProcessor({
      maxTokens: MAX,
      preserveLast: 2,
      toolResultMaxTokens: 300,
      namespace: "thread-1",
      onCompaction: (r) => void reports.push(r),
    });
    const readFile = readFileTool(true);
    const fetchLogs = createTool({
      id: "fetchLogs",
      description: "Fetch logs.",
      inputSchema: { type: "object", properties: {} },
      execute: async () => ({ log: bigLog }),
    });
    const model = scriptedModel(script);
    const storage = new InMemoryStore();
    const memory = new Memory({ storage, options: { lastMessages: 100 } });
    const agent = new Agent({
      id: "coder",
      name: "coder",
      instructions: "You are a careful coding assistant.",
      model: asAgentModel(model),
      memory,
      tools: { readFile, fetchLogs, ...contextTools(compaction.manager) },
      inputProcessors: [compaction],
      outputProcessors: [compaction],
    });
    const thread = { thread: "thread-1", resource: "user-1" };
    for (let n = 1; n <= 6; n++) await agent.generate(`read module${n}.ts`, { memory: thread });
    await agent.generate("logs please", { memory: thread });
    await agent.generate("read module7.ts", { memory: thread });
    await agent.generate("recall module1", { memory: thread });

    const prompts = model.doGenerateCalls.map((c) => asMessages(c.prompt as unknown as LLMPrompt));
    expect(prompts.length).toBe(18);
    for (const [i, p] of prompts.entries()) {
      expect(pairingProblems(p), `prompt ${i}`).toEqual([]);
      expect(compaction.manager.count(p), `prompt ${i}`).toBeLessThanOrEqual(MAX);
      // The step the model is answering is always there: its tool call and result, or the user turn.
      const last = p[p.length - 1]!;
      if (last.role === "tool")
        expect(p.some((m) => m.role === "assistant" && m.toolCalls?.some((c) => c.id === last.toolCallId))).toBe(true);
    }
    expect(reports.some((r) => r.hook === "processInputStep" && r.turn?.compacted === true)).toBe(true);
    // Without compaction the history would be far over the budget.
    expect(reports.some((r) => r.turn !== undefined && r.turn.tokensBefore > MAX)).toBe(true);
    const withNote = prompts.filter((p) => noteOf(p)?.includes("Evicted to the journal") === true);
    expect(withNote.length).toBeGreaterThan(3);

    // The oversized log went to the index as it arrived; the prompt carried a pointer, not the log.
    const evictedLog = reports.find((r) => r.evictedToolResult !== undefined)?.evictedToolResult;
    expect(evictedLog?.toolName).toBe("fetchLogs");
    expect(evictedLog?.id).toMatch(/^r[0-9a-f]{32}$/); // 128 bits of SHA-256
    expect(prompts.some((p) => p.some((m) => m.content.includes(bigLog.slice(0, 200))))).toBe(false);
    expect(
      prompts.some((p) => p.some((m) => m.role === "tool" && m.content.includes(`"id":"${evictedLog!.id}"`))),
    ).toBe(true);
    // The pointer's instruction is the manager's stub: it names the id and the tool that reads it back.
    const pointer = prompts
      .flat()
      .find((m) => m.role === "tool" && m.content.includes(`"evicted":true`) && m.content.includes(evictedLog!.id));
    expect(pointer?.content).toContain(`moved to the context index as ${evictedLog!.id}.`);
    expect(pointer?.content).toContain(`Call expand_context with {\\"id\\":\\"${evictedLog!.id}\\"} to read it.`);
    const tools = contextTools(compaction.manager);
    // Page through the original (8,000 characters a page): the pages join to the exact original text.
    let original = "";
    for (let offset: number | undefined = 0; offset !== undefined;) {
      const page = (await tools.expand_context.execute!(
        { id: evictedLog!.id, offset },
        {} as never,
      )) as ContextExpandResult;
      original += page.content ?? "";
      offset = page.nextOffset;
    }
    expect(original === JSON.stringify({ log: bigLog })).toBe(true);
    const found = await tools.search_context.execute!({ query: "E1003 retrying" }, {} as never);
    expect((found as ContextSearchResult).hits?.map((h) => h.id)).toContain(evictedLog!.id);

    // The agent expanded the first id of the note through its own tool call: the original bytes came back.
    const final = model.doGenerateCalls[model.doGenerateCalls.length - 1]!.prompt as unknown as LLMPrompt;
    const expandResult = asMessages(final).at(-1)!;
    expect(expandResult.role).toBe("tool");
    expect(expandResult.content).toContain("module");
    const page = JSON.parse(expandResult.content) as ContextExpandResult;
    const k = Number(/module(\d+)\.ts/.exec(page.content ?? "")?.[1]);
    expect(page.content).toContain(JSON.stringify({ path: `module${k}.ts`, text: fileText(k) }));

    // Storage is never touched by compaction: every turn is still in memory.
    const stored = await memory.recall({ threadId: "thread-1", resourceId: "user-1", perPage: false });
    const texts = stored.messages.map((m) => JSON.stringify(m.content.parts));
    for (let n = 1; n <= 7; n++) expect(texts.some((t) => t.includes(`read module${n}.ts`))).toBe(true);
  });

  it("compacts a long run inside one turn at the prompt stage and never drops the pending tool call (no re-call loop)", async () => {
    const reports: CompactionReport[] = [];
    const compaction = createCompactionProcessor({
      maxTokens: MAX,
      preserveLast: 0,
      toolResultMaxTokens: 0,
      onCompaction: (r) => void reports.push(r),
    });
    const readFile = readFileTool(false);
    // The model reads module1..module12, each time reacting to the result it just got; had its
    // latest call been dropped from the prompt it would read the same file again.
    const model = scriptedModel((prompt) => {
      const last = lastText(prompt);
      if (last.role === "user") return { tool: "readFile", input: { path: "module1.ts" } };
      const k = Number(/module(\d+)\.ts line 0/.exec(last.text)?.[1] ?? 0);
      return k >= 12 ? { text: "all read" } : { tool: "readFile", input: { path: `module${k + 1}.ts` } };
    });
    const agent = new Agent({
      id: "reader",
      name: "reader",
      instructions: "Read every module.",
      model: asAgentModel(model),
      memory: new Memory({ storage: new InMemoryStore(), options: { lastMessages: 100 } }),
      tools: { readFile },
      inputProcessors: [compaction],
      outputProcessors: [compaction],
    });
    const r = await agent.generate("read all modules", { memory: { thread: "t", resource: "u" }, maxSteps: 20 });
    expect(r.text).toBe("all read");
    const prompts = model.doGenerateCalls.map((c) => asMessages(c.prompt as unknown as LLMPrompt));
    expect(prompts.length).toBe(13);
    for (const [i, p] of prompts.entries()) {
      expect(pairingProblems(p), `prompt ${i}`).toEqual([]);
      expect(compaction.manager.count(p), `prompt ${i}`).toBeLessThanOrEqual(MAX);
    }
    expect(reports.some((x) => x.hook === "processLLMRequest" && x.turn?.compacted === true)).toBe(true);
    expect(noteOf(prompts.at(-1)!)).toContain("Evicted to the journal");
  });

  it("streams: agent.stream goes through the same hooks (budget, pairs, the pending call)", async () => {
    const compaction = createCompactionProcessor({ maxTokens: MAX, preserveLast: 2, toolResultMaxTokens: 300 });
    const readFile = readFileTool(false);
    const model = scriptedModel((prompt) => {
      const last = lastText(prompt);
      if (last.role === "user") return { tool: "readFile", input: { path: "module1.ts" } };
      const k = Number(/module(\d+)\.ts line 0/.exec(last.text)?.[1] ?? 0);
      return k >= 8 ? { text: "all read" } : { tool: "readFile", input: { path: `module${k + 1}.ts` } };
    });
    const agent = new Agent({
      id: "streamer",
      name: "streamer",
      instructions: "Read every module.",
      model: asAgentModel(model),
      memory: new Memory({ storage: new InMemoryStore(), options: { lastMessages: 100 } }),
      tools: { readFile },
      inputProcessors: [compaction],
      outputProcessors: [compaction],
    });
    const stream = await agent.stream("read all modules", { memory: { thread: "s", resource: "u" }, maxSteps: 20 });
    expect(await stream.text).toBe("all read");
    expect(model.doGenerateCalls).toHaveLength(0);
    const prompts = model.doStreamCalls.map((c) => asMessages(c.prompt as unknown as LLMPrompt));
    expect(prompts.length).toBe(9);
    for (const [i, p] of prompts.entries()) {
      expect(pairingProblems(p), `prompt ${i}`).toEqual([]);
      expect(compaction.manager.count(p), `prompt ${i}`).toBeLessThanOrEqual(MAX);
    }
    expect(noteOf(prompts.at(-1)!)).toContain("Evicted to the journal");
  });
});

describe("a unit is one tool call with its result", () => {
  it("a turn of several tool steps (one stored message) loses only the steps it must: the next prompt keeps the others", async () => {
    const max = 1500;
    const reps: CompactionReport[] = [];
    const compaction = createCompactionProcessor({
      maxTokens: max,
      preserveLast: 2,
      toolResultMaxTokens: 0,
      onCompaction: (r) => void reps.push(r),
    });
    const readFile = readFileTool(true);
    // Turn 1 reads module1..module6, one step each; turn 2 asks a question.
    const model = scriptedModel((prompt) => {
      const last = lastText(prompt);
      if (last.role === "user")
        return last.text.startsWith("read")
          ? { tool: "readFile", input: { path: "module1.ts" } }
          : { text: "answered" };
      const k = Number(/"path":"module(\d+)\.ts"/.exec(last.text)?.[1] ?? 0);
      return k >= 6 ? { text: "all read" } : { tool: "readFile", input: { path: `module${k + 1}.ts` } };
    });
    const memory = new Memory({ storage: new InMemoryStore(), options: { lastMessages: 100 } });
    const agent = new Agent({
      id: "steps",
      name: "steps",
      instructions: "Read the modules.",
      model: asAgentModel(model),
      memory,
      tools: { readFile },
      inputProcessors: [compaction],
      outputProcessors: [compaction],
    });
    const thread = { memory: { thread: "steps", resource: "u" }, maxSteps: 10 };
    expect((await agent.generate("read the modules", thread)).text).toBe("all read");
    const firstTurnCalls = model.doGenerateCalls.length;
    expect((await agent.generate("which module defines value3_0?", thread)).text).toBe("answered");
    const prompt = asMessages(model.doGenerateCalls[firstTurnCalls]!.prompt as unknown as LLMPrompt);
    expect(pairingProblems(prompt)).toEqual([]);
    const tokens = compaction.manager.count(prompt);
    // The stored history itself met the budget by evicting single steps (the earliest reads),
    // so the prompt stage had nothing left to do.
    const stored = reps.filter((r) => r.hook === "processInputStep");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.turn?.tokensAfter).toBeLessThanOrEqual(max);
    expect(stored[0]?.turn?.evicted.length).toBeGreaterThan(1);
    expect(reps.filter((r) => r.hook === "processLLMRequest" && r.stepNumber === 0)).toEqual([]);
    expect(tokens).toBeLessThanOrEqual(max);
    // Some reads left, the newer ones stayed: eviction went step by step, not the whole turn at once.
    const results = prompt.filter((m) => m.role === "tool");
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThan(6);
    expect(results.some((m) => m.content.includes("module6.ts"))).toBe(true);
    expect(noteOf(prompt)).toContain("Evicted to the journal");
    expect(tokens).toBeGreaterThan(max / 3);
  });
});
