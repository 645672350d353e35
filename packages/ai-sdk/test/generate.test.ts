// The adapter driven by ai v7's own mock model through generateText and streamText: a scripted
// agent reads files over many steps (parallel calls), the prompt is compacted at the threshold,
// the model reads the eviction note and calls search_context / expand_context.
import { createAiSdkContext, fromModelMessages, type AiSdkEvent } from "@cc/ai-sdk";
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel, type ModelMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  answer,
  FILES,
  fileText,
  hasNote,
  noteIds,
  orphans,
  readSearchExpand,
  streamResult,
  toolOutputs,
} from "./script.js";

const readFile = tool({
  description: "Read a file",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => FILES[path] ?? "missing",
});

/** The mock model following {@link readSearchExpand}, step by step. */
function scriptedModel(): MockLanguageModelV4 {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async (options) => readSearchExpand(step++, options.prompt),
    doStream: async (options) => streamResult(readSearchExpand(step++, options.prompt)),
  });
}

const MAX = 2000;

describe("@cc/ai-sdk with ai v7 (MockLanguageModelV4)", () => {
  it("generateText: every prompt within budget, no orphan, note present after compaction, search/expand return the original bytes", async () => {
    const events: AiSdkEvent[] = [];
    const cc = createAiSdkContext({ maxTokens: MAX, onEvent: (e) => events.push(e) });
    const model = scriptedModel();
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: cc.middleware }),
      instructions: "You are a careful coding agent.",
      messages: [{ role: "user", content: "Read the sources and tell me what f0 does." }],
      tools: { ...cc.tools, read_file: readFile },
      prepareStep: cc.prepareStep,
      stopWhen: stepCountIs(12),
    });
    expect(result.text).toBe("done");
    const prompts = model.doGenerateCalls.map((c) => c.prompt);
    expect(prompts).toHaveLength(8);
    for (const [n, prompt] of prompts.entries()) {
      expect(orphans(prompt), `prompt ${n}`).toEqual([]);
      expect(cc.manager.count(fromModelMessages(prompt)), `prompt ${n}`).toBeLessThanOrEqual(MAX);
    }
    const compactedAt = prompts.findIndex(hasNote);
    expect(compactedAt).toBeGreaterThan(0);
    for (const prompt of prompts.slice(compactedAt)) expect(hasNote(prompt)).toBe(true);
    expect(events.filter((e) => e._tag === "Compacted" && e.source === "prepareStep").length).toBeGreaterThan(0);
    expect(events.filter((e) => e._tag === "CompactionFailed")).toEqual([]);

    const [search] = toolOutputs(prompts[6]!, "search_context") as [{ hits: { id: string }[] }];
    expect(search.hits.length).toBeGreaterThan(0);
    const [expanded] = toolOutputs(prompts[7]!, "expand_context") as [{ id: string; content: string }];
    const id = noteIds(prompts[6]!)[0]!;
    expect(expanded.id).toBe(id);
    // The original bytes: the evicted unit's text holds a file exactly as the tool returned it.
    expect(Object.values(FILES).some((f) => expanded.content.includes(f))).toBe(true);
    expect(await cc.manager.expand(id)).toBe(expanded.content);
  });

  it("prepareStep: the same prefix gives the same compacted prefix at every later step (cached, no recompute)", async () => {
    const events: AiSdkEvent[] = [];
    const cc = createAiSdkContext({ maxTokens: MAX, onEvent: (e) => events.push(e) });
    const history: ModelMessage[] = [{ role: "user", content: "Read the sources." }];
    for (let i = 0; i < 4; i++) {
      history.push({
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "read_file", input: { path: `src/f${i}.ts` } }],
      });
      history.push({
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: `c${i}`,
            toolName: "read_file",
            output: { type: "text", value: FILES[`src/f${i}.ts`]! },
          },
        ],
      });
    }
    const first = await cc.prepareStep({ messages: history, stepNumber: 4 });
    expect(first).toBeDefined();
    expect(hasNote(first!.messages)).toBe(true);
    expect(events).toHaveLength(1);
    // The same messages again (ai v6 passes the uncompacted history every step): the same objects, no new compaction.
    const again = await cc.prepareStep({ messages: [...history], stepNumber: 5 });
    expect(again!.messages).toHaveLength(first!.messages.length);
    again!.messages.forEach((m, i) => expect(m).toBe(first!.messages[i]));
    // The history grows by a small step: the compacted prefix is reused object for object.
    const next: ModelMessage[] = [
      ...history,
      { role: "assistant", content: "Reading done." },
      { role: "user", content: "Go on." },
    ];
    const grown = await cc.prepareStep({ messages: next, stepNumber: 6 });
    first!.messages.forEach((m, i) => expect(grown!.messages[i]).toBe(m));
    expect(grown!.messages.slice(first!.messages.length)).toEqual(next.slice(history.length));
    expect(events).toHaveLength(1);
    // Kept messages are the caller's objects; only the note is new.
    for (const m of first!.messages) if (!hasNote([m])) expect(history).toContain(m);
  });

  it("streamText: the same guarantees through the streaming path", async () => {
    const cc = createAiSdkContext({ maxTokens: MAX });
    const model = scriptedModel();
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: cc.middleware }),
      messages: [{ role: "user", content: "Read the sources." }],
      tools: { ...cc.tools, read_file: readFile },
      prepareStep: cc.prepareStep,
      stopWhen: stepCountIs(12),
    });
    expect(await result.text).toBe("done");
    const prompts = model.doStreamCalls.map((c) => c.prompt);
    expect(prompts).toHaveLength(8);
    for (const prompt of prompts) {
      expect(orphans(prompt)).toEqual([]);
      expect(cc.manager.count(fromModelMessages(prompt))).toBeLessThanOrEqual(MAX);
    }
    expect(prompts.some(hasNote)).toBe(true);
  });

  it("the middleware alone keeps every prompt within budget (no prepareStep)", async () => {
    const events: AiSdkEvent[] = [];
    const cc = createAiSdkContext({ maxTokens: MAX, onEvent: (e) => events.push(e) });
    const model = scriptedModel();
    await generateText({
      model: wrapLanguageModel({ model, middleware: cc.middleware }),
      messages: [{ role: "user", content: "Read the sources." }],
      tools: { ...cc.tools, read_file: readFile },
      stopWhen: stepCountIs(12),
    });
    for (const c of model.doGenerateCalls) {
      expect(orphans(c.prompt)).toEqual([]);
      expect(cc.manager.count(fromModelMessages(c.prompt))).toBeLessThanOrEqual(MAX);
    }
    expect(events.some((e) => e._tag === "Compacted" && e.source === "middleware")).toBe(true);
  });

  it("the middleware refuses a prompt that cannot fit (BudgetExceeded) instead of sending it", async () => {
    const events: AiSdkEvent[] = [];
    const cc = createAiSdkContext({ maxTokens: 60, onEvent: (e) => events.push(e) });
    const model = new MockLanguageModelV4({ doGenerate: async () => answer("never") });
    await expect(
      generateText({
        model: wrapLanguageModel({ model, middleware: cc.middleware }),
        instructions: fileText("sys", 80),
        prompt: "hi",
        maxRetries: 0,
      }),
    ).rejects.toMatchObject({
      error: { _tag: "BudgetExceeded", maxTokens: 60 },
    });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(events.map((e) => e._tag)).toContain("CompactionFailed");
  });
});

describe("orphaned input tool results (ai v7)", () => {
  const history: ModelMessage[] = [
    { role: "user", content: "Read the sources." },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "gone",
          toolName: "read_file",
          output: { type: "text", value: fileText("lost", 20) },
        },
      ],
    },
    { role: "user", content: "Go on." },
  ];

  it("prepareStep leaves a result without its call out of the prompt and reports it; the caller's messages are unchanged", async () => {
    const events: AiSdkEvent[] = [];
    const cc = createAiSdkContext({ maxTokens: MAX, onEvent: (e) => events.push(e) });
    const model = new MockLanguageModelV4({ doGenerate: async () => answer("ok") });
    const messages = [...history];
    await generateText({ model, messages, prepareStep: cc.prepareStep });
    const prompt = model.doGenerateCalls[0]!.prompt;
    expect(orphans(prompt)).toEqual([]);
    expect(prompt.filter((m) => m.role === "user")).toHaveLength(2);
    expect(events).toContainEqual({
      _tag: "OrphanedToolResultDropped",
      source: "prepareStep",
      stepNumber: 0,
      messageIndex: 1,
      toolCallId: "gone",
    });
    expect(messages).toEqual(history);
  });

  it("the middleware alone does the same, also under the budget", async () => {
    const events: AiSdkEvent[] = [];
    const cc = createAiSdkContext({ maxTokens: MAX, onEvent: (e) => events.push(e) });
    const model = new MockLanguageModelV4({ doGenerate: async () => answer("ok") });
    await generateText({ model: wrapLanguageModel({ model, middleware: cc.middleware }), messages: history });
    expect(orphans(model.doGenerateCalls[0]!.prompt)).toEqual([]);
    expect(events.map((e) => e._tag)).toEqual(["OrphanedToolResultDropped"]);
  });

  it("a tool message answering a real call and a missing one keeps only the real answer", async () => {
    const cc = createAiSdkContext({ maxTokens: MAX });
    const model = new MockLanguageModelV4({ doGenerate: async () => answer("ok") });
    const messages: ModelMessage[] = [
      { role: "user", content: "Read f0." },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "src/f0.ts" } }],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "read_file", output: { type: "text", value: "f0" } },
          { type: "tool-result", toolCallId: "gone", toolName: "read_file", output: { type: "text", value: "lost" } },
        ],
      },
    ];
    await generateText({ model, messages, prepareStep: cc.prepareStep });
    const prompt = model.doGenerateCalls[0]!.prompt;
    expect(orphans(prompt)).toEqual([]);
    expect(toolOutputs(prompt, "read_file")).toEqual(["f0"]);
  });
});
