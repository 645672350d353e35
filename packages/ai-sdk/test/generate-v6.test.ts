// The adapter under the previous major, ai v6 (MockLanguageModelV3 from ai-v6/test), where the
// messages prepareStep returns are not carried to the next step: the prefix cache must give every
// step the same compacted prefix. The history carries approvals, reasoning and an image.
import { createAiSdkContext, fromModelMessages, type AiSdkEvent } from "@cc/ai-sdk";
import {
  generateText,
  stepCountIs,
  streamText,
  tool,
  wrapLanguageModel,
  type LanguageModelMiddleware,
  type ModelMessage,
  type ToolSet,
} from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FILES, hasNote, orphans, readSearchExpand, streamResult, toolOutputs } from "./script.js";

const readFile = tool({
  description: "Read a file",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => FILES[path] ?? "missing",
});

/** The mock model following {@link readSearchExpand}, step by step. */
function scriptedModel(): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => readSearchExpand(step++, options.prompt),
    doStream: async (options) => streamResult(readSearchExpand(step++, options.prompt)),
  });
}

/** An earlier turn: reasoning before an approved tool call, an image from the user. */
const earlier: ModelMessage[] = [
  {
    role: "user",
    content: [
      { type: "text", text: "Here is the failing screen." },
      { type: "image", image: new Uint8Array([137, 80, 78, 71]), mediaType: "image/png" },
    ],
  },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "I should run the tests first.", providerOptions: { test: { signature: "sig-1" } } },
      { type: "tool-call", toolCallId: "a0", toolName: "read_file", input: { path: "src/f11.ts" } },
      { type: "tool-approval-request", approvalId: "ap0", toolCallId: "a0" },
    ],
  },
  { role: "tool", content: [{ type: "tool-approval-response", approvalId: "ap0", approved: true }] },
  {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: "a0",
        toolName: "read_file",
        output: { type: "text", value: FILES["src/f11.ts"]! },
      },
    ],
  },
  { role: "assistant", content: "Read it." },
  { role: "user", content: "Now read the sources and tell me what f0 does." },
];

const MAX = 2000;
// The adapter is typed against the installed major (v7 in this repository); at runtime both majors
// take the same objects, which is what this file checks.
const asV6 = (cc: ReturnType<typeof createAiSdkContext>) => ({
  prepareStep: cc.prepareStep as unknown as NonNullable<Parameters<typeof generateText<ToolSet>>[0]["prepareStep"]>,
  middleware: cc.middleware as unknown as LanguageModelMiddleware,
  tools: cc.tools as unknown as ToolSet,
});

describe("@cc/ai-sdk with ai v6 (MockLanguageModelV3)", () => {
  it("generateText: within budget, no orphaned result or approval, note present, search/expand return the original bytes", async () => {
    const events: AiSdkEvent[] = [];
    const cc = createAiSdkContext({ maxTokens: MAX, onEvent: (e) => events.push(e) });
    const v6 = asV6(cc);
    const model = scriptedModel();
    const seen: ModelMessage[][] = [];
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: v6.middleware }),
      system: "You are a careful coding agent.",
      messages: earlier,
      tools: { ...v6.tools, read_file: readFile } as ToolSet,
      prepareStep: async (o) => {
        const r = await v6.prepareStep(o);
        seen.push(r?.messages ?? o.messages);
        return r;
      },
      stopWhen: stepCountIs(12),
    });
    expect(result.text).toBe("done");
    const prompts = model.doGenerateCalls.map((c) => c.prompt);
    expect(prompts).toHaveLength(8);
    for (const [n, prompt] of prompts.entries()) {
      expect(orphans(prompt), `prompt ${n}`).toEqual([]);
      expect(cc.manager.count(fromModelMessages(prompt)), `prompt ${n}`).toBeLessThanOrEqual(MAX);
    }
    for (const [n, messages] of seen.entries()) expect(orphans(messages), `step ${n}`).toEqual([]);
    expect(prompts.findIndex(hasNote)).toBeGreaterThan(0);
    const [search] = toolOutputs(prompts[6]!, "search_context") as [{ hits: { id: string }[] }];
    expect(search.hits.length).toBeGreaterThan(0);
    const [expanded] = toolOutputs(prompts[7]!, "expand_context") as [{ id: string; content: string }];
    expect(Object.values(FILES).some((f) => expanded.content.includes(f))).toBe(true);
    expect(events.filter((e) => e._tag === "CompactionFailed")).toEqual([]);
  });

  it("prepareStep: v6 passes the uncompacted history each step, and each step gets the previous step's compacted prefix", async () => {
    const events: AiSdkEvent[] = [];
    const cc = createAiSdkContext({ maxTokens: MAX, onEvent: (e) => events.push(e) });
    const v6 = asV6(cc);
    const inputs: ModelMessage[][] = [];
    const outputs: ModelMessage[][] = [];
    await generateText({
      model: scriptedModel(),
      messages: earlier,
      tools: { ...v6.tools, read_file: readFile } as ToolSet,
      prepareStep: async (o) => {
        inputs.push(o.messages);
        const r = await v6.prepareStep(o);
        outputs.push(r?.messages ?? o.messages);
        return r;
      },
      stopWhen: stepCountIs(6),
    });
    // v6: step n+1's input starts with step n's input (never with what prepareStep returned).
    for (let n = 1; n < inputs.length; n++) inputs[n - 1]!.forEach((m, i) => expect(inputs[n]![i]).toBe(m));
    // Whenever a step is answered without a new compaction, its prompt extends the previous one object for object.
    const compactedAt = new Set(
      events.flatMap((e) => (e._tag === "Compacted" && e.stepNumber !== undefined ? [e.stepNumber] : [])),
    );
    expect(compactedAt.size).toBeGreaterThan(0);
    expect(compactedAt.size).toBeLessThan(outputs.length);
    for (let n = 1; n < outputs.length; n++) {
      if (compactedAt.has(n) || !hasNote(outputs[n - 1]!)) continue;
      outputs[n - 1]!.forEach((m, i) => expect(outputs[n]![i]).toBe(m));
    }
  });

  it("streamText: within budget and pair-safe", async () => {
    const cc = createAiSdkContext({ maxTokens: MAX });
    const v6 = asV6(cc);
    const model = scriptedModel();
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: v6.middleware }),
      messages: earlier,
      tools: { ...v6.tools, read_file: readFile } as ToolSet,
      prepareStep: v6.prepareStep,
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
});
