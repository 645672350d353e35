// Runs the README's quick start verbatim (the lines between the imports and the assertions) with
// ai's own mock model standing in for a provider.
import { createAiSdkContext, fromModelMessages } from "@cc/ai-sdk";
import { generateText, stepCountIs, tool, wrapLanguageModel, type ModelMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answer, callTools, fileText } from "./script.js";

describe("README quick start", () => {
  it("runs an agent loop with compaction, the context tools and the budget guard", async () => {
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () =>
        step++ < 8 ? callTools([{ id: `c${step}`, name: "cat", input: { n: step } }]) : answer("done"),
    });
    const tools = {
      cat: tool({
        description: "print a file",
        inputSchema: z.object({ n: z.number() }),
        execute: async ({ n }) => fileText(`n${n}`, 400),
      }),
    };
    const messages: ModelMessage[] = [{ role: "user", content: "Print the files." }];
    // README-EXAMPLE-START
    const cc = createAiSdkContext({ maxTokens: 8000 });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: cc.middleware }),
      tools: { ...cc.tools, ...tools },
      prepareStep: cc.prepareStep,
      stopWhen: stepCountIs(20),
      messages,
    });
    // README-EXAMPLE-END
    expect(result.text).toBe("done");
    expect(Object.keys(cc.tools)).toEqual(["search_context", "expand_context"]);
    for (const c of model.doGenerateCalls)
      expect(cc.manager.count(fromModelMessages(c.prompt))).toBeLessThanOrEqual(8000);
    expect(result.steps.length).toBe(9);
    expect(model.doGenerateCalls.some((c) => JSON.stringify(c.prompt).includes("Evicted to the journal"))).toBe(true);
  });
});
