import { tiktokenCounter } from "@cc/tokens";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { createLcmCompactor, nextContext } from "../src/compactor.js";
import type { Message } from "@cc/messages";
import { offlineProvider } from "../src/providers/offline.js";
import { conversationArb } from "../../messages/test/support/conversation.js";

const exact = tiktokenCounter();

describe("compact and shouldCompact decode their messages", () => {
  const sparse: Message[] = [{ role: "user", content: "a" }];
  sparse[2] = { role: "user", content: "c" };
  const bad: ReadonlyArray<readonly [string, unknown]> = [
    ["null", null],
    ["a message without content", [{ role: "user" }]],
    ["a sparse array", sparse],
    ["a string", "hello"],
  ];
  for (const [name, input] of bad) {
    it(`compact(${name}) resolves to Left(InvalidInput, "messages")`, async () => {
      const r = await createLcmCompactor({ provider: offlineProvider() }).compact(input as readonly Message[], {
        maxTokens: 500,
      })();
      expect(E.isLeft(r)).toBe(true);
      if (E.isLeft(r)) {
        expect(r.left._tag).toBe("InvalidInput");
        if (r.left._tag === "InvalidInput") expect(r.left.subject).toBe("messages");
      }
    });
    it(`shouldCompact(${name}) returns Left(InvalidInput, "messages")`, () => {
      const r = createLcmCompactor().shouldCompact(input as readonly Message[], { maxTokens: 500 });
      expect(E.isLeft(r) && r.left._tag === "InvalidInput" && r.left.subject === "messages").toBe(true);
    });
  }
});

describe("budgetMet with the default counter", () => {
  it("is false when the exact count of the unchanged context exceeds maxTokens (text the estimate under-counts)", async () => {
    const messages: readonly Message[] = [{ role: "user", content: "a b c d e f ".repeat(40) }];
    const tokens = exact.countMessages(messages);
    const r = await createLcmCompactor().compact(messages, { maxTokens: tokens - 1, preserveLast: 1 })();
    expect(E.isRight(r) && r.right.budgetMet).toBe(false);
  });
  it("budgetMet implies the exact count of the next context is within maxTokens", async () => {
    const compactor = createLcmCompactor({ provider: offlineProvider() });
    await fc.assert(
      fc.asyncProperty(
        conversationArb,
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 0, max: 6 }),
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: "grapheme", maxLength: 200 }),
          fc.constantFrom("a b c d e f g h ", "\u0000\u0001\u0000\u0001", "ﷺﷺﷺﷺ", "𝕏𝕐𝕏𝕐", "日本語のテキスト"),
        ),
        async (conversation, maxTokens, preserveLast, filler) => {
          const messages = conversation.map((m) =>
            m.role === "user" ? { ...m, content: `${m.content} ${filler.repeat(6)}` } : m,
          );
          const r = await compactor.compact(messages, { maxTokens, preserveLast })();
          if (E.isLeft(r)) throw new Error(r.left._tag);
          if (r.right.budgetMet) expect(exact.countMessages(nextContext(r.right))).toBeLessThanOrEqual(maxTokens);
        },
      ),
      { numRuns: 60 },
    );
  });
});
