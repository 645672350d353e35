import { describe, it, expect } from "vitest";
import { readTranscript } from "@cc/cli";
import { createContextManager } from "@cc/context";
import { memoryIndex } from "@cc/search";
import { estimateCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";

describe("README example", () => {
  it("runs and evicts the large tool result", async () => {
    const logs: unknown[][] = [];
    const console = { log: (...a: unknown[]) => logs.push(a) };
    // --- README snippet ---
    const text = JSON.stringify([
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: "Fix src/app.py" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"src/app.py"}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "def load_config():\n".repeat(400) },
      { role: "user", content: "Now run the tests." },
    ]);
    const read = readTranscript(text, { source: "chat.json" });
    const manager = createContextManager({
      strategy: "hierarchical",
      maxTokens: 1000,
      preserveLast: 1,
      namespace: "demo",
      noteTokens: 200,
      counter: estimateCounter(),
      index: memoryIndex(),
    });
    if (E.isRight(read)) {
      const turn = await manager.compact(read.right.messages);
      console.log(
        turn.tokensBefore,
        "→",
        turn.tokensAfter,
        turn.evicted.map((e) => e.id),
      );
    }
    // --- end ---
    expect(logs.length).toBe(1);
    const [before, , after, ids] = logs[0] as [number, string, number, string[]];
    expect(after).toBeLessThan(before);
    expect(ids.length).toBe(1);
    // The evicted unit is the tool call with its large result; its id expands back to the original.
    const original = await manager.expand(ids[0]!);
    expect(original).toContain("def load_config():");
  });
});
