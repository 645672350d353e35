// The adapter over both manager strategies, and the shorter-tail pass that brings a compaction
// under its target when the preserved tail alone is too big.
import { createAiSdkContext, fromModelMessages, prefixCompactor } from "@cc/ai-sdk";
import { createContextManager } from "@cc/context";
import type { ModelMessage } from "ai";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { fileText, hasNote, orphans } from "./script.js";

/** A user turn, then `n` steps that each call two tools in parallel and get both results in one tool message. */
function parallelSteps(n: number, words: number): ModelMessage[] {
  const out: ModelMessage[] = [{ role: "user", content: "Investigate the failing build." }];
  for (let i = 0; i < n; i++) {
    const ids = [`a${i}`, `b${i}`];
    out.push({
      role: "assistant",
      content: ids.map((id) => ({
        type: "tool-call" as const,
        toolCallId: id,
        toolName: "bash",
        input: { cmd: `cat ${id}` },
      })),
    });
    out.push({
      role: "tool",
      content: ids.map((id) => ({
        type: "tool-result" as const,
        toolCallId: id,
        toolName: "bash",
        output: { type: "text" as const, value: fileText(id, words) },
      })),
    });
  }
  return out;
}

describe("shorter tails", () => {
  it("a compaction whose preserved tail alone exceeds the target runs again with a shorter tail (the manager's fitTail) and reaches it", async () => {
    // lcm keeps preserveLast views verbatim: 6 views = three steps of two large results each.
    const manager = createContextManager({ maxTokens: 2000, strategy: "lcm", preserveLast: 6 });
    const target = manager.targetTokens();
    // The smallest result size at which lcm's own pass misses the target (the tail is fixed).
    let words = 20;
    let plain = await manager.compact(fromModelMessages(parallelSteps(6, words)));
    while (plain.tokensAfter <= target && words < 400) {
      words += 10;
      plain = await manager.compact(fromModelMessages(parallelSteps(6, words)));
    }
    const history = parallelSteps(6, words);
    // Without the retry the tail keeps the prompt above the target: the retry has work to do.
    expect(plain.tokensAfter).toBeGreaterThan(target);
    const compact = prefixCompactor<ModelMessage>(manager, 4, (v) => ({
      role: "user",
      content: [{ type: "text", text: v.content }],
    }));
    const r = await compact(history);
    if (E.isLeft(r)) throw new Error(r.left._tag);
    expect(r.right.tokens).toBeLessThanOrEqual(target);
    expect(manager.count(fromModelMessages(r.right.messages))).toBe(r.right.tokens);
    expect(orphans(r.right.messages)).toEqual([]);
    // The last step (its call and both results) is still there.
    expect(r.right.messages.slice(-2)).toEqual(history.slice(-2));
    expect(r.right.turn?.warnings.filter((w) => w._tag === "BudgetNotMet")).toEqual([]);
  });
});

describe("strategies", () => {
  it("lcm: the summary is the one new message; kept messages are the caller's objects; pairs intact", async () => {
    const cc = createAiSdkContext({
      manager: createContextManager({ maxTokens: 1500, strategy: "lcm", preserveLast: 4 }),
    });
    const history = parallelSteps(6, 60);
    const r = await cc.compact(history);
    expect(r.turn?.strategy).toBe("lcm");
    expect(r.turn?.compacted).toBe(true);
    expect(hasNote(r.messages)).toBe(true);
    expect(r.messages.filter((m) => !history.includes(m))).toHaveLength(1);
    expect(orphans(r.messages)).toEqual([]);
    expect(r.tokens).toBeLessThanOrEqual(1500);
  });

  it("hierarchical over a shared namespace: what prepareStep evicted is searchable through the tools", async () => {
    const manager = createContextManager({ maxTokens: 1200, namespace: "session-7" });
    const cc = createAiSdkContext({ manager });
    const history = parallelSteps(5, 60);
    const r = await cc.prepareStep({ messages: history, stepNumber: 5 });
    expect(r).toBeDefined();
    const call = { toolCallId: "t", messages: [], context: undefined } as never;
    const found = (await cc.tools.search_context.execute!({ query: "a0_1" }, call)) as unknown as {
      hits: { id: string }[];
    };
    expect(found.hits.length).toBeGreaterThan(0);
    const page = (await cc.tools.expand_context.execute!({ id: found.hits[0]!.id }, call)) as unknown as {
      content: string;
    };
    expect(page.content).toContain(fileText("a0", 60));
  });
});
