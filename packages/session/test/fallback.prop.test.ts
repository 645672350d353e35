// With the truncation fallback on, any mix of failing and succeeding summariser calls keeps the
// history whole: every stored message is covered by exactly one summary of the chain or lies
// after the watermark, and every saved summary fits the budget.
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import { estimateCounter } from "@cc/tokens";
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
import { scriptedProvider, type Reply } from "./scripted.js";
import { right, runs } from "./support.js";

const replyArb: fc.Arbitrary<Reply> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }).map((s) => ({ text: `summary ${s}` })),
  fc.constantFrom<Reply>(
    { text: "  " },
    { error: { _tag: "ProviderTransientError", status: 503, message: "overloaded" } },
    { error: { _tag: "ProviderAuthError", status: 401, message: "bad key" } },
    { error: { _tag: "ProviderInvalidResponse", message: "no choices" } },
    { throws: "provider bug" },
    { rejects: "socket hang up" },
  ),
);

const scenario = fc.record({
  turns: fc.integer({ min: 1, max: 10 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => turnArb(i)))),
  reported: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 10, maxLength: 10 }),
  replies: fc.array(replyArb, { minLength: 10, maxLength: 10 }),
  preserveLast: fc.integer({ min: 1, max: 8 }),
  maxSummaryTokens: fc.integer({ min: 16, max: 200 }),
});

describe("truncation fallback over a whole conversation", () => {
  it("property: every stored message is covered exactly once by the chain or lies after it; nothing fails", async () => {
    const counter = estimateCounter();
    let truncated = 0;
    let written = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ turns, reported, replies, preserveLast, maxSummaryTokens }) => {
        const store = memoryStore();
        const made = decodeSessionCompactor({
          store,
          provider: scriptedProvider(replies),
          config: { maxTokens: 1000, threshold: 1, preserveLast, maxSummaryTokens },
          counter,
          now: () => 1,
        });
        if (E.isLeft(made)) return expect.fail(made.left.message);
        const chain: StoredSummary[] = [];
        let total = 0;
        for (const [i, turn] of turns.entries()) {
          await right(store.append("s", turn, i));
          total += turn.length;
          // Never a Left: with the fallback on, a summariser failure still compacts.
          const outcome = await right(made.right.tryCompact({ stackId: "s", lastInputTokens: reported[i] ?? 0 }));
          if (outcome._tag === "Compacted") {
            chain.push(outcome.summary);
            if (outcome.event.level === "truncate") truncated++;
            else written++;
            expect(outcome.event.level === "truncate").toBe(outcome.warning !== undefined);
            expect(counter.count(outcome.summary.content)).toBeLessThanOrEqual(maxSummaryTokens);
          } else {
            expect(["BelowThreshold", "TooFewMessages"]).toContain(outcome.reason);
          }
          const latest = O.toUndefined(await right(store.latestSummary("s")));
          expect(latest).toEqual(chain.at(-1));
          const watermark = latest?.coversUpTo ?? 0;
          const after = await right(store.messagesAfter("s", watermark));
          // Each id 1..total: in exactly one summary's span (previous watermark, watermark], or after.
          const coverCount = new Array<number>(total + 1).fill(0);
          chain.forEach((s, k) => {
            const from = k === 0 ? 0 : chain[k - 1]!.coversUpTo;
            for (let id = from + 1; id <= s.coversUpTo; id++) coverCount[id]!++;
          });
          for (const m of after) coverCount[m.id]!++;
          expect(coverCount.slice(1)).toEqual(new Array<number>(total).fill(1));
          expect(after.map((m) => m.id)).toEqual(
            Array.from({ length: total - watermark }, (_, k) => watermark + 1 + k),
          );
          // The prompt carries one summary (when there is a summary) and exactly the messages after it.
          const prompt = await right(loadContext(store, "s", { compaction: true, systemPrompt: "SYS" }));
          expect(prompt.filter((m) => m.content.startsWith(SESSION_SUMMARY_PREFIX))).toHaveLength(
            latest === undefined ? 0 : 1,
          );
          expect(prompt.slice(latest === undefined ? 1 : 2)).toEqual(after.map((m) => m.message));
        }
        chain.forEach((s, k) => {
          expect(s.previousId).toBe(k === 0 ? null : chain[k - 1]!.id);
          expect(s.content.trim()).not.toBe("");
        });
      }),
      { numRuns: runs(150) },
    );
    // Both kinds of summary occur across the scenarios.
    expect(truncated).toBeGreaterThan(0);
    expect(written).toBeGreaterThan(0);
  });
});
