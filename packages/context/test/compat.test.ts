import { estimateCounter } from "@cc/tokens";
import { offlineProvider } from "@cc/lcm";
import * as E from "fp-ts/lib/Either.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { describe, expect, it } from "vitest";
import { agentPromptCompressor, createAgentCompactor, createPromptCompressor } from "@cc/context/compat";
import { call, tool, u } from "../../messages/test/support/conversation.js";

const counter = estimateCounter();

describe("compatibility layer", () => {
  const history = [
    u("question about src/a.ts ".repeat(50)),
    call("c"),
    tool("c", "Error: boom\n".repeat(200)),
    u("next"),
  ];
  it("AgentCompactor returns system + tail and the summary", async () => {
    const agent = createAgentCompactor({ provider: offlineProvider({ counter }), counter, preserveLast: 1 });
    const r = await agent.compact(history, "gpt-4o-mini", 500)();
    expect(E.isRight(r) && r.right.messages).toEqual([history[3]]);
    expect(E.isRight(r) && r.right.summary).toMatch(/Error: boom/);
  });
  it("PromptCompressor skips for each reason and compresses when it saves ≥ 30%", async () => {
    const prompt = "Please read src/a.ts and fix it.\n" + "padding text that repeats itself\n".repeat(200);
    const off = createPromptCompressor({ counter });
    expect((await off.compress(prompt)())._tag === "Skipped" && (await off.compress(prompt)())).toMatchObject({
      reason: "no_provider",
    });
    const pc = createPromptCompressor({ provider: offlineProvider({ counter }), counter });
    expect(await pc.compress("short")()).toMatchObject({ _tag: "Skipped", reason: "too_short" });
    const done = await pc.compress(prompt)();
    expect(done._tag).toBe("Compressed");
    pc.setMinSavingRatio(0.999);
    expect(await pc.compress(prompt)()).toMatchObject({ reason: "below_ratio" });
    pc.setEnabled(false);
    expect(await pc.compress(prompt)()).toMatchObject({ reason: "disabled" });
    const failing = createPromptCompressor({
      counter,
      provider: {
        name: "f",
        complete: () => {
          throw new Error("x");
        },
        listModels: () => TE.right([{ id: "m", outputCostPerMTok: 1 }]),
      },
    });
    expect(await failing.compress(prompt)()).toMatchObject({ reason: "provider_error" });
    const agent = agentPromptCompressor(createPromptCompressor({ provider: offlineProvider({ counter }), counter }));
    const r = await agent.compress(prompt)();
    expect(r.tokensSaved).toBeGreaterThan(0);
    expect(await agent.compress("short")()).toEqual({ prompt: "short", tokensSaved: 0 });
  });
});
