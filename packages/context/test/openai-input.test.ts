// OpenAI-shaped messages passed straight to the manager: one short line that names the converter,
// and the same messages converted with it compact.
import { createContextManager, ContextManagerError } from "@cc/context";
import { fromOpenAIMessages } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";

function openAIHistory(steps: number): unknown[] {
  const out: unknown[] = [
    { role: "developer", content: "You are a coding agent." },
    { role: "user", content: [{ type: "text", text: "Fix the failing test." }] },
  ];
  for (let i = 0; i < steps; i++) {
    out.push({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: `call_${i}`,
          type: "function",
          function: { name: "bash", arguments: JSON.stringify({ cmd: `cat f${i}.py` }) },
        },
      ],
    });
    out.push({ role: "tool", tool_call_id: `call_${i}`, content: `def f${i}():\n${"    pass\n".repeat(40)}` });
  }
  return out;
}

describe("OpenAI-shaped input to compact()", () => {
  it("is refused with one line that names fromOpenAIMessages and the first problem, the rest counted", async () => {
    const manager = createContextManager({ maxTokens: 1_000 });
    const history = openAIHistory(30);
    const r = await manager.compactTE(history)();
    expect(E.isLeft(r)).toBe(true);
    if (E.isRight(r)) return;
    expect(r.left._tag).toBe("InvalidInput");
    if (r.left._tag !== "InvalidInput") return;
    expect(r.left.problems).toHaveLength(2);
    expect(r.left.message).toContain("fromOpenAIMessages");
    expect(r.left.message).not.toContain("\n");
    expect(r.left.message.length).toBeLessThan(400);
    expect(r.left.more).toBeGreaterThan(0);
    await expect(manager.compact(history)).rejects.toThrow(ContextManagerError);
  });

  it("each OpenAI marker alone is recognised (snake_case fields, developer role, parts as content)", async () => {
    const manager = createContextManager({ maxTokens: 1_000 });
    for (const m of [
      { role: "tool", tool_call_id: "c1", content: "ok" },
      { role: "developer", content: "be brief" },
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: null, tool_calls: [] },
    ]) {
      const r = await manager.compactTE([m])();
      expect(E.isLeft(r) && r.left._tag === "InvalidInput" && r.left.message.includes("fromOpenAIMessages")).toBe(true);
    }
    // Our own shape with a plain mistake keeps the precise problem.
    const plain = await manager.compactTE([{ role: "user", content: 42 }])();
    expect(E.isLeft(plain) && plain.left._tag === "InvalidInput" && plain.left.message).toBe(
      "invalid messages: [0].content: expected a string, got 42",
    );
  });

  it("converted with fromOpenAIMessages, the same history compacts within budget", async () => {
    const converted = fromOpenAIMessages(openAIHistory(30));
    if (E.isLeft(converted)) throw new Error(converted.left.message);
    const r = await createContextManager({ maxTokens: 1_000 }).compact(converted.right.messages);
    expect(r.budgetMet).toBe(true);
  });
});
