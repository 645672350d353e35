import { estimateCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { describe, expect, it } from "vitest";
import { createAgentCompactor } from "@cc/context";
import { agentPromptCompressor, createPromptCompressor } from "@cc/context";
import { createLcmCompactor } from "../src/compactor.js";
import { cheapestModel, chooseCompactionModel } from "../src/model-choice.js";
import { decodeCompactOptions, defaultCompactOptions } from "../src/options.js";
import { offlineProvider } from "../src/providers/offline.js";
import type { Provider } from "@cc/messages";
import { serialiseTranscript } from "../src/transcript.js";
import { call, tool, u } from "../../messages/test/support/conversation.js";

const counter = estimateCounter();

describe("serialiseTranscript", () => {
  it("labels roles, shows calls with arguments and results with their call id", () => {
    expect(serialiseTranscript([u("fix it"), call("c1"), tool("c1", "ok")])).toBe(
      '[user]\nfix it\n\n[assistant]\n→ call bash #c1: {"command":"ls c1"}\n\n[tool result bash #c1]\nok',
    );
  });
  it("clips messages 6000+1500, tool results 4000+1500, arguments 1200, surrogate-safe", () => {
    const big = "😀".repeat(5000);
    const t = serialiseTranscript([u(big), tool("c", big), { role: "assistant", content: "", toolCalls: [{ id: "c", name: "w", arguments: "x".repeat(5000) }] }]);
    expect(t).toMatch(/\[… 2500 chars omitted …\]/);
    expect(t).toMatch(/\[… 4500 chars omitted …\]/);
    expect(t).toMatch(/\[… 3800 chars omitted …\]/);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(t)).toBe(false);
  });
});

describe("options", () => {
  it("defaults: preserveLast 20, soft 0.5, hard 0.95", () => {
    expect(defaultCompactOptions()).toMatchObject({ preserveLast: 20, softThreshold: 0.5, hardThreshold: 0.95 });
    expect(decodeCompactOptions({})).toEqual(E.right(defaultCompactOptions()));
  });
  it("rejects soft ≥ hard, thresholds outside (0,1], negative/NaN/huge counts, non-objects", () => {
    const bad = [{ softThreshold: 0.9, hardThreshold: 0.9 }, { hardThreshold: 1.5 }, { softThreshold: 0 }, { preserveLast: -1 }, { maxTokens: Number.NaN }, { maxTokens: 2 ** 60 }, { preserveLast: 1.5 }, null, [], "x"];
    for (const b of bad) expect(E.isLeft(decodeCompactOptions(b))).toBe(true);
    const r = decodeCompactOptions({ preserveLast: -1, hardThreshold: 2 });
    expect(E.isLeft(r) && r.left.problems).toEqual(["preserveLast: expected a non-negative integer, got -1", "hardThreshold: expected a number in (0, 1], got 2"]);
  });
});

describe("model choice", () => {
  const models = [
    { id: "big", outputCostPerMTok: 15, strength: "very_high" as const },
    { id: "mid", outputCostPerMTok: 2, strength: "average" as const },
    { id: "tiny", outputCostPerMTok: 0.5, strength: "very_low" as const },
    { id: "free?", strength: "low" as const },
  ];
  it("picks the cheapest priced model, honouring a minimum strength", () => {
    expect(cheapestModel(models)).toEqual({ _tag: "Some", value: models[2] });
    expect(cheapestModel(models, "average")).toEqual({ _tag: "Some", value: models[1] });
    expect(cheapestModel([{ id: "nan", outputCostPerMTok: Number.NaN }])._tag).toBe("None");
  });
  it("prefers compactionModel, else lists, else a typed error", async () => {
    const p: Provider = { name: "p", complete: () => TE.left({ _tag: "ProviderAborted" }), listModels: () => TE.right([{ id: "unpriced" }]) };
    expect(await chooseCompactionModel(p, "set")()).toEqual(E.right("set"));
    const r = await chooseCompactionModel(p, "")();
    expect(E.isLeft(r) && r.left._tag).toBe("NoCompactionModel");
  });
});

describe("adapters", () => {
  const history = [u("question about src/a.ts ".repeat(50)), call("c"), tool("c", "Error: boom\n".repeat(200)), u("next")];
  it("AgentCompactor returns system + tail and the summary", async () => {
    const agent = createAgentCompactor(createLcmCompactor({ provider: offlineProvider({ counter }), counter }), { preserveLast: 1 });
    const r = await agent.compact(history, "gpt-4o-mini", 500)();
    expect(E.isRight(r) && r.right.messages).toEqual([history[3]]);
    expect(E.isRight(r) && r.right.summary).toMatch(/Error: boom/);
  });
  it("PromptCompressor skips for each reason and compresses when it saves ≥ 30%", async () => {
    const prompt = "Please read src/a.ts and fix it.\n" + "padding text that repeats itself\n".repeat(200);
    const off = createPromptCompressor({ counter });
    expect((await off.compress(prompt)())._tag === "Skipped" && (await off.compress(prompt)())).toMatchObject({ reason: "no_provider" });
    const pc = createPromptCompressor({ provider: offlineProvider({ counter }), counter });
    expect(await pc.compress("short")()).toMatchObject({ _tag: "Skipped", reason: "too_short" });
    const done = await pc.compress(prompt)();
    expect(done._tag).toBe("Compressed");
    pc.setMinSavingRatio(0.999);
    expect(await pc.compress(prompt)()).toMatchObject({ reason: "below_ratio" });
    pc.setEnabled(false);
    expect(await pc.compress(prompt)()).toMatchObject({ reason: "disabled" });
    const failing = createPromptCompressor({ counter, provider: { name: "f", complete: () => { throw new Error("x"); }, listModels: () => TE.right([{ id: "m", outputCostPerMTok: 1 }]) } });
    expect(await failing.compress(prompt)()).toMatchObject({ reason: "provider_error" });
    const agent = agentPromptCompressor(createPromptCompressor({ provider: offlineProvider({ counter }), counter }));
    const r = await agent.compress(prompt)();
    expect(r.tokensSaved).toBeGreaterThan(0);
    expect(await agent.compress("short")()).toEqual({ prompt: "short", tokensSaved: 0 });
  });
});
