// The README's example, run verbatim.
import { describe, expect, it } from "vitest";

describe("README example", () => {
  it("compacts an OpenAI-format conversation with the offline summariser", async () => {
    // --- README example start ---
    const { estimateCounter } = await import("@cc/tokens");
    const { createLcmCompactor, memoryAlertSink, nextContext, offlineProvider } = await import("@cc/lcm");
    const { fromOpenAIMessages } = await import("@cc/messages");
    const E = await import("fp-ts/Either");

    const chat = [
      { role: "system", content: "You are a coding agent." },
      ...Array.from({ length: 30 }, (_, i) => [
        { role: "user", content: `Step ${i}: please fix the failing test in src/parser${i}.ts` },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: `call_${i}`,
              type: "function",
              function: { name: "bash", arguments: `{"command":"npm test -- parser${i}"}` },
            },
          ],
        },
        {
          role: "tool",
          tool_call_id: `call_${i}`,
          content: `FAIL src/parser${i}.test.ts\nError: expected 1 got 2\n${"stack frame\n".repeat(40)}`,
        },
      ]).flat(),
    ];
    const messages = fromOpenAIMessages(chat);
    if (E.isLeft(messages)) throw new Error(messages.left.message);

    const alerts = memoryAlertSink();
    const compactor = createLcmCompactor({
      provider: offlineProvider(),
      counter: estimateCounter(),
      alertSink: alerts,
      sessionId: "session-1",
    });

    const usage = compactor.shouldCompact(messages.right.messages, { maxTokens: 4000 }); // Right({ fraction, pressure: "hard", … })
    const result = await compactor.compact(messages.right.messages, { maxTokens: 4000, preserveLast: 6 })();
    if (E.isRight(result)) {
      const next = nextContext(result.right); // system + summary + the last messages, verbatim
      console.log(result.right.level, result.right.originalTokens, "→", result.right.compactedTokens, next.length);
    }
    // --- README example end ---
    expect(E.isRight(usage) && usage.right.pressure).toBe("hard");
    expect(E.isRight(result)).toBe(true);
    if (E.isLeft(result)) return;
    expect(result.right.level).toBe("detailed");
    expect(result.right.compactedTokens).toBeLessThan(result.right.originalTokens);
    expect(result.right.summary).toMatch(/Error: expected 1 got 2/);
    expect(nextContext(result.right)).toHaveLength(1 + 1 + result.right.messagesPreserved);
    expect(result.right.messages[0]?.role).not.toBe("tool");
    expect(alerts.alerts).toHaveLength(0);
  });
});
