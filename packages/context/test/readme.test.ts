import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it, vi } from "vitest";
import { createContextManager, describeDecision } from "@cc/context";
import { decodeSnapshot } from "@cc/test-support/context";
import type { Message } from "@cc/messages";

describe("README: compaction policies", () => {
  it("the cost policy example runs: a decision line and a snapshot that decodes", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      const history: Message[] = [{ role: "user", content: "Fix the failing test in src/app.py" }];
      const manager = createContextManager({ maxTokens: 32_000, policy: { kind: "cost", prices: "openai/gpt-4.1" } });
      const turn = await manager.compact(history);
      if (turn.decision !== undefined) console.log(describeDecision(turn.decision)); // "waited: below the trigger (… tokens, trigger 22400)"
      const saved = JSON.stringify(manager.snapshot()); // keep it with the session; after a restart pass the decoded value back as `resume`
      expect(log).toHaveBeenCalledWith(
        expect.stringMatching(/^waited: below the trigger \(\d+ tokens, trigger 22400\)$/),
      );
      expect(E.isRight(decodeSnapshot(JSON.parse(saved)))).toBe(true);
    } finally {
      log.mockRestore();
    }
  });
});
