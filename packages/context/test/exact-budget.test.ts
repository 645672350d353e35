// Budget decisions rest on the exact count, never on the estimate (which can be far low per text:
// @cc/tokens README, "The estimate").
import { createContextManager } from "@cc/context";
import { estimateCounter } from "@cc/tokens";
import { rawTiktoken } from "@cc/test-support/tokens";
import { describe, expect, it } from "vitest";

describe("budget decisions count exactly", () => {
  it("the manager's default counter equals encode_ordinary where the estimate is 84 % low", () => {
    const raw = rawTiktoken("o200k_base");
    try {
      const text = "a\n".repeat(200);
      const manager = createContextManager({ maxTokens: 1_000 });
      const one = [{ role: "user" as const, content: text }];
      const base = manager.count([{ role: "user", content: "" }]);
      expect(estimateCounter().count(text)).toBeLessThan(0.2 * raw.count(text));
      expect(manager.count(one) - base).toBe(raw.count(text));
    } finally {
      raw.dispose();
    }
  });
});
