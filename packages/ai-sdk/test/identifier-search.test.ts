// The agent's own words find the evicted file through the adapter's `search_context` tool: for
// each of four shapes of an identifier, the entry that holds it ranks first, although every entry
// shares its words and digits (`module`, `3`: each file defines `handler_N_3`).
import { createAiSdkContext } from "@cc/ai-sdk";
import { createContextManager } from "@cc/context";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";

function moduleFile(n: number): string {
  const lines = [`# src/module_${n}.py`, `SECRET_${n} = ${3000 + n}`, ""];
  for (let i = 1; i <= 12; i++)
    lines.push(`def handler_${n}_${i}(request, context):`, `    return dispatch(request, ${n}, ${i})`, "");
  return lines.join("\n");
}

function readingSteps(files: number): ModelMessage[] {
  const out: ModelMessage[] = [{ role: "user", content: "Find which handler leaks the secret." }];
  for (let n = 1; n <= files; n++) {
    const toolCallId = `call_${n}`;
    out.push({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId, toolName: "read_file", input: { path: `src/module_${n}.py` } }],
    });
    out.push({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId, toolName: "read_file", output: { type: "text", value: moduleFile(n) } },
      ],
    });
  }
  return out;
}

describe("search_context on identifiers", () => {
  it("ranks module_N's entry first for module_N, src/module_N.py, SECRET_N and handler_N_7, and expands it", async () => {
    const cc = createAiSdkContext({ manager: createContextManager({ maxTokens: 2_000 }) });
    const step = await cc.prepareStep({ messages: readingSteps(20), stepNumber: 20 });
    expect(step).toBeDefined();
    const call = { toolCallId: "t", messages: [], context: undefined } as never;
    const search = async (query: string) =>
      (await cc.tools.search_context.execute!({ query }, call)) as unknown as { hits: { id: string }[] };
    const expand = async (id: string) =>
      ((await cc.tools.expand_context.execute!({ id }, call)) as unknown as { content: string }).content;
    const checked: number[] = [];
    const wrong: string[] = [];
    for (let n = 1; n <= 20; n++) {
      const first = (await search(`module_${n}`)).hits[0];
      if (first === undefined) continue;
      const original = await expand(first.id);
      if (!original.includes(`# src/module_${n}.py\n`)) {
        // Still in context (not evicted) only when no entry holds it at all.
        const all = await search(`src/module_${n}.py`);
        for (const h of all.hits) expect(await expand(h.id)).not.toContain(`# src/module_${n}.py\n`);
        continue;
      }
      checked.push(n);
      for (const q of [`src/module_${n}.py`, `SECRET_${n}`, `handler_${n}_7`])
        if ((await search(q)).hits[0]?.id !== first.id) wrong.push(q);
    }
    expect(checked.length).toBeGreaterThanOrEqual(16);
    expect(wrong).toEqual([]);
  });
});
