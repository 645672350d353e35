import { describe, it, expect } from "vitest";
import { readTranscript, runCompaction } from "@cc/cli";
import { decodeCompactOptions } from "@cc/lcm";
import { memoryIndex } from "@cc/hierarchical";
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
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"src/app.py"}' } }] },
      { role: "tool", tool_call_id: "c1", content: "def load_config():\n".repeat(400) },
      { role: "user", content: "Now run the tests." },
    ]);
    const read = readTranscript(text, { source: "chat.json" });
    const options = decodeCompactOptions({ maxTokens: 1000, preserveLast: 1 });
    if (E.isRight(read) && E.isRight(options)) {
      const run = await runCompaction(read.right.messages,
        { strategy: "hierarchical", options: options.right, force: false, namespace: "demo", noteTokens: 200 },
        { counter: estimateCounter(), now: Date.now, index: memoryIndex() })();
      if (E.isRight(run)) console.log(run.right.tokensBefore, "→", run.right.tokensAfter, run.right.evicted.map((e) => e.id));
    }
    // --- end ---
    expect(logs.length).toBe(1);
    const [before, , after, ids] = logs[0] as [number, string, number, string[]];
    expect(after).toBeLessThan(before);
    expect(ids).toContain("m2");
  });
});
