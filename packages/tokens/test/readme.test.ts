import { describe, expect, it } from "vitest";
import { countAsync, encodingForModel, estimateTokens, memoCounter, tiktokenCounter, withTokenCost } from "@cc/tokens";
import { rawTiktoken } from "@cc/test-support/tokens";

describe("README example", () => {
  it("runs as documented", async () => {
    // --- README example start ---
    const counter = memoCounter(tiktokenCounter({ encoding: encodingForModel("gpt-4o") }), { maxEntries: 10_000 });

    // Token costs for importance scoring: an existing valid cost is kept.
    const segments = withTokenCost(
      [
        { id: "sys", content: "You are a careful coding agent." },
        { id: "obs", content: "<|endoftext|> is ordinary text here", tokenCost: 9 },
      ],
      counter,
    );

    // A whole chat request, with the per-message overhead of the chat format.
    const request = counter.countMessages([
      { role: "system", content: "You are a careful coding agent." },
      { role: "user", content: "List the files.", name: "dev" },
    ]);

    // A huge tool output, counted without blocking the event loop.
    const big = await countAsync(counter, "drwxr-xr-x  src\n".repeat(50_000));

    // No tokenizer at all: the calibrated estimate.
    const rough = estimateTokens("上下文窗口 context window 🚀");

    console.log(
      segments.map((s) => s.tokenCost),
      request,
      big,
      rough,
      counter.stats(),
    );
    counter.dispose();
    // --- README example end ---

    const raw = rawTiktoken("o200k_base");
    try {
      expect(segments.map((s) => s.tokenCost)).toEqual([raw.count("You are a careful coding agent."), 9]);
      expect(request).toBe(
        3 +
          (3 + raw.count("system") + raw.count("You are a careful coding agent.")) +
          (3 + raw.count("user") + raw.count("List the files.") + 1 + raw.count("dev")),
      );
      expect(big).toBe(raw.count("drwxr-xr-x  src\n".repeat(50_000)));
      expect(rough).toBeGreaterThanOrEqual(raw.count("上下文窗口 context window 🚀"));
    } finally {
      raw.dispose();
    }
  });
});
