// Invariants of a whole conversation driven through many compactions.
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  SESSION_SUMMARY_PREFIX,
  decodeSessionCompactor,
  loadContext,
  memoryStore,
  type StoredSummary,
} from "@cc/session";
import { turnArb } from "./conversation.js";
import { scriptedProvider } from "./scripted.js";
import { right, runs } from "./support.js";

const scenario = fc.record({
  turns: fc.integer({ min: 1, max: 10 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => turnArb(i)))),
  reported: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 10, maxLength: 10 }),
  preserveLast: fc.integer({ min: 1, max: 8 }),
  empty: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
});

describe("session compaction over a whole conversation", () => {
  it("property (fallback none): nothing stored is lost or duplicated; the chain only moves forward; tool pairs stay together", async () => {
    let compactions = 0;
    let skippedEmpty = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ turns, reported, preserveLast, empty }) => {
        const store = memoryStore();
        const provider = scriptedProvider(
          Array.from({ length: 12 }, (_, i) => ({ text: empty[i % 10] === true ? " " : `summary ${i}` })),
        );
        const made = decodeSessionCompactor({
          store,
          provider,
          config: { maxTokens: 1000, threshold: 1, preserveLast, fallback: "none" },
          now: () => 1,
        });
        if (E.isLeft(made)) return expect.fail(made.left.message);
        const chain: StoredSummary[] = [];
        let total = 0;
        for (const [i, turn] of turns.entries()) {
          await right(store.append("s", turn, i));
          total += turn.length;
          const outcome = await right(made.right.tryCompact({ stackId: "s", lastInputTokens: reported[i] ?? 0 }));
          if (outcome._tag === "Compacted") chain.push(outcome.summary);
          if (outcome._tag === "Compacted") compactions++;
          if (outcome._tag === "Skipped" && outcome.reason === "EmptySummary") skippedEmpty++;
          const latest = O.toUndefined(await right(store.latestSummary("s")));
          const watermark = latest?.coversUpTo ?? 0;
          const prompt = await right(loadContext(store, "s", { compaction: true, systemPrompt: "SYS" }));
          const after = await right(store.messagesAfter("s", watermark));
          // Covered + sent = everything stored, each exactly once, in order.
          expect(watermark + after.length).toBe(total);
          expect(prompt.slice(latest === undefined ? 1 : 2)).toEqual(after.map((m) => m.message));
          expect(prompt.filter((m) => m.content.startsWith(SESSION_SUMMARY_PREFIX))).toHaveLength(
            latest === undefined ? 0 : 1,
          );
          // Every tool result sent has its call in the prompt.
          const sentCalls = new Set(
            prompt.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [])),
          );
          for (const m of prompt) if (m.role === "tool") expect(sentCalls.has(m.toolCallId)).toBe(true);
        }
        // The summary chain links each summary to its predecessor with strictly growing watermarks.
        chain.forEach((s, i) => {
          expect(s.previousId).toBe(i === 0 ? null : chain[i - 1]!.id);
          if (i > 0) expect(s.coversUpTo).toBeGreaterThan(chain[i - 1]!.coversUpTo);
          expect(s.content.trim()).not.toBe("");
        });
      }),
      { numRuns: runs(150) },
    );
    // The scenarios exercise both paths, not just the trivial one.
    expect(compactions).toBeGreaterThan(0);
    expect(skippedEmpty).toBeGreaterThan(0);
  });
});
