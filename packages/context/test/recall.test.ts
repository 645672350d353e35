// Automatic recall: the agent's newest words search the index; the originals of the best hits
// that fit the allowance come back in one sealed message at the end of the prompt, never over
// the budget, never splitting a tool call from its result, gone again on the next turn.
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import { createContextManager } from "@cc/context";
import { memoryIndex, type SegmentIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";

const counter = tiktokenCounter();
afterAll(() => counter.dispose());
const NOW = 1_750_000_000_000;

function file(n: number): string {
  return [
    `# src/module_${n}.py`,
    `SECRET_${n} = ${3000 + n}`,
    ...Array.from(
      { length: 12 },
      (_, i) => `def handler_${n}_${i}(request):\n    return dispatch(request, ${n}, ${i})`,
    ),
  ].join("\n");
}

function reading(files: number, last: string): Message[] {
  const out: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Find which handler leaks the secret." },
  ];
  for (let n = 1; n <= files; n++) {
    out.push({
      role: "assistant",
      content: "",
      toolCalls: [{ id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path: `src/module_${n}.py` }) }],
    });
    out.push({ role: "tool", toolCallId: `c${n}`, content: file(n) });
  }
  out.push({ role: "assistant", content: last });
  return out;
}

const orphans = (prompt: readonly Message[]): number => {
  const calls = new Set(prompt.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [])));
  return prompt.filter((m) => m.role === "tool" && !calls.has(m.toolCallId)).length;
};

describe("automatic recall", () => {
  it("the agent names an evicted module: its original comes back at the end of the prompt, sealed, within the allowance", async () => {
    const m = createContextManager({ maxTokens: 3000, counter, now: () => NOW, recall: { share: 0.2 } });
    const first = await m.compact(reading(20, "All modules read."));
    const gone = [...Array(20).keys()]
      .map((i) => i + 1)
      .filter((n) => !first.messages.some((x) => x.content.includes(file(n))));
    expect(gone.length).toBeGreaterThan(0);
    const n = gone[0]!;
    const history: Message[] = [
      ...first.messages.filter((x) => !m.isRecalled(x)),
      { role: "assistant", content: `Now check SECRET_${n} in src/module_${n}.py again.` },
    ];
    const t = await m.compact(history);
    expect(t.recalled.length).toBeGreaterThan(0);
    const last = t.messages.at(-1)!;
    expect(m.isRecalled(last)).toBe(true);
    expect(last.content).toContain(file(n));
    expect(t.tokensAfter).toBeLessThanOrEqual(3000);
    expect(counter.countMessages([last]) - counter.countMessages([])).toBeLessThanOrEqual(600);
    // Everything before the recall is the prompt the turn would send without it: the prefix is unchanged.
    expect(t.messages.slice(0, -1)).toEqual(history);
  });

  it("a hit that matches only words every entry has (a score near 0) is not recalled", async () => {
    const m = createContextManager({ maxTokens: 3000, counter, now: () => NOW, recall: { share: 0.5 } });
    const t = await m.compact(reading(20, "Now check the request dispatch in src again."));
    expect(t.recalled).toEqual([]);
    expect(m.isRecalled(t.messages.at(-1)!)).toBe(false);
  });

  it("the next turn drops the recall from the history; a message that only reads like one stays", async () => {
    const m = createContextManager({ maxTokens: 3000, counter, now: () => NOW, recall: { share: 0.2 } });
    const first = await m.compact(reading(20, "All modules read."));
    const n = [...Array(20).keys()]
      .map((i) => i + 1)
      .find((k) => !first.messages.some((x) => x.content.includes(file(k))))!;
    const t = await m.compact([...first.messages, { role: "assistant", content: `Look at handler_${n}_7 once more.` }]);
    const recalled = t.messages.at(-1)!;
    expect(m.isRecalled(recalled)).toBe(true);
    // The agent moves on: the old recall leaves the history (a new one, if any, is the last message).
    const next = await m.compact([...t.messages, { role: "assistant", content: "Done with that." }]);
    expect(next.messages.slice(0, -1).some((x) => m.isRecalled(x))).toBe(false);
    expect(next.messages.some((x) => x.content === recalled.content)).toBe(false);
    const copy: Message = { role: "user", content: recalled.content };
    expect(m.isRecalled(copy)).toBe(false);
    const kept = await m.compact([...t.messages.slice(0, -1), copy, { role: "assistant", content: "ok" }], {
      maxTokens: 1_000_000,
    });
    expect(kept.messages).toContainEqual(copy);
  });

  it("an index that fails to search costs the recall only (RecallFailed), never the turn", async () => {
    const inner = memoryIndex();
    let broken = false;
    const index: SegmentIndex = {
      ...inner,
      write: (e) => inner.write(e),
      expand: (id, ns) => inner.expand(id, ns),
      search: (q, o) =>
        broken ? async () => E.left({ _tag: "StorageFailed", message: "disk gone" } as never) : inner.search(q, o),
    };
    const m = createContextManager({ maxTokens: 3000, counter, now: () => NOW, index, recall: {} });
    broken = true;
    const t = await m.compact(reading(20, "Check SECRET_4."));
    expect(t.budgetMet).toBe(true);
    expect(t.recalled).toEqual([]);
    expect(t.warnings.map((w) => w._tag)).toContain("RecallFailed");
  });

  it("property: over budgets, shares and the agent's words, never over budget, never an orphan, at most one recall and only last", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1200, max: 6000 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 3, max: 20 }),
        async (maxTokens, share, n, files) => {
          const m = createContextManager({ maxTokens, counter, now: () => NOW, recall: { share } });
          const t = await m.compact(reading(files, `open src/module_${n}.py and SECRET_${n}`));
          if (t.budgetMet) expect(t.tokensAfter).toBeLessThanOrEqual(maxTokens);
          expect(counter.countMessages(t.messages)).toBe(t.tokensAfter);
          expect(orphans(t.messages)).toBe(0);
          const recalls = t.messages.filter((x) => m.isRecalled(x));
          expect(recalls.length).toBeLessThanOrEqual(1);
          if (recalls.length === 1) {
            expect(t.messages.at(-1)).toBe(recalls[0]);
            expect(counter.countMessages(recalls) - counter.countMessages([])).toBeLessThanOrEqual(
              Math.floor(share * maxTokens),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it("bad recall options are refused by name", () => {
    for (const recall of [
      { shar: 0.1 },
      { share: 0 },
      { share: Number.NaN },
      { k: 0 },
      { k: 1.5 },
      { minScore: -1 },
      { minScore: Number.POSITIVE_INFINITY },
      true,
    ]) {
      expect(() => createContextManager({ maxTokens: 1000, recall: recall as never })).toThrow(/recall/);
    }
  });

  it("bad mask and scoring options of the manager are refused by name; good ones reach the eviction pass", async () => {
    for (const bad of [
      { mask: { keepRecnt: 1 } },
      { mask: { stubTokens: -1 } },
      { scoring: { costWeigth: 0 } },
      { scoring: { recencyHalfLifeTurns: Number.NaN } },
    ]) {
      expect(() => createContextManager({ maxTokens: 1000, ...(bad as object) })).toThrow(
        /mask|scoring|costWeigth|recencyHalfLifeTurns/,
      );
    }
    const masked = await createContextManager({
      maxTokens: 6000,
      counter,
      now: () => NOW,
      mask: { keepRecent: 1 },
    }).compact(reading(20, "All read."));
    expect(masked.masked.length).toBeGreaterThan(0);
    expect(orphans(masked.messages)).toBe(0);
    // A 1-turn half-life with no reuse weight evicts strictly by age: the oldest module leaves first.
    const byAge = await createContextManager({
      maxTokens: 3000,
      counter,
      now: () => NOW,
      scoring: { recencyHalfLifeTurns: 1, reuseWeight: 0, costWeight: 0 },
    }).compact(reading(20, "All read."));
    expect(byAge.messages.some((x) => x.content.includes(file(1)))).toBe(false);
    expect(byAge.messages.some((x) => x.content.includes(file(20)))).toBe(true);
  });
});
