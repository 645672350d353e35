// Relevance to the current step: BM25 similarity of each unit to the agent's latest messages,
// over the index's own terms; scored by relevanceWeight; pinned units stay +Infinity.
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { AGENT_PRESET, score, SegmentCodec } from "@cc/importance";
import { messageUnits, type Message } from "@cc/messages";
import { estimateCounter } from "@cc/tokens";
import { evictUnits } from "@cc/hierarchical";
import { memoryIndex } from "@cc/search";
import { unitRelevance, workingSetTerms } from "@cc/test-support/hierarchical";

const word = fc.stringMatching(/^[a-z]{3,8}$/);

function reads(files: readonly string[]): Message[] {
  const out: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Fix the failing test." },
  ];
  files.forEach((f, n) => {
    out.push({
      role: "assistant",
      content: "",
      toolCalls: [{ id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path: f }) }],
    });
    out.push({
      role: "tool",
      toolCallId: `c${n}`,
      content:
        `# ${f}\n` +
        Array.from({ length: 60 }, (_, i) => `def ${f.replace(/\W/g, "_")}_fn_${i}(): return ${i}`).join("\n"),
    });
  });
  return out;
}

describe("relevance", () => {
  it("property: adding a term of a unit to the working set never lowers any unit's relevance; values stay in [0, 1)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 6 }),
        fc.array(word, { maxLength: 10 }),
        fc.nat(),
        (docs, query, pick) => {
          const units = messageUnits(docs.map((d): Message => ({ role: "user", content: d.join(" ") })));
          const before = unitRelevance(units, query);
          const doc = docs[pick % docs.length]!;
          const added = doc[pick % doc.length]!;
          const after = unitRelevance(units, [...query, added]);
          for (let i = 0; i < units.length; i++) {
            expect(before[i]!).toBeGreaterThanOrEqual(0);
            expect(before[i]!).toBeLessThan(1);
            expect(after[i]!).toBeGreaterThanOrEqual(before[i]!);
          }
          // The unit holding the added term gains when the term was new to the query.
          if (!query.includes(added)) expect(after[pick % docs.length]!).toBeGreaterThan(before[pick % docs.length]!);
        },
      ),
    );
  });

  it("a unit sharing no term with the working set has relevance 0; the working set is the latest non-system messages", () => {
    const units = messageUnits([
      { role: "user", content: "alpha beta" },
      { role: "user", content: "gamma delta" },
    ]);
    expect(unitRelevance(units, ["gamma"])[0]).toBe(0);
    expect(unitRelevance(units, ["gamma"])[1]).toBeGreaterThan(0);
    expect(
      workingSetTerms(
        [
          { role: "system", content: "zeta" },
          { role: "user", content: "old" },
          { role: "user", content: "new words" },
        ],
        1,
      ),
    ).toEqual(["new", "words"]);
  });

  it("pinned stays +Infinity whatever the relevance; relevance outside [0, 1] is refused by the segment codec", () => {
    expect(
      score(
        { id: "a", content: "x", pinned: true, relevance: 0 },
        { ...AGENT_PRESET, relevanceWeight: 5, now: () => 0 },
      ),
    ).toBe(Number.POSITIVE_INFINITY);
    for (const bad of [Number.NaN, -0.1, 1.5, Infinity])
      expect(SegmentCodec.is({ id: "a", content: "x", relevance: bad }), String(bad)).toBe(false);
    expect(SegmentCodec.is({ id: "a", content: "x", relevance: 0.4 })).toBe(true);
  });

  it("with relevanceWeight, the unit the agent's latest words are about stays and an unrelated one of the same size leaves", async () => {
    const files = ["src/dates.py", "src/parser.py", "src/render.py", "src/config.py"];
    const read = reads(files).map((m) =>
      m.role === "tool" && m.content.startsWith("# src/dates.py")
        ? { ...m, content: `${m.content}\n# handles timezone offsets and calendar arithmetic` }
        : m,
    );
    // The agent's latest words share plain words (no path, no identifier) with the oldest read only.
    const history: Message[] = [
      ...read,
      { role: "assistant", content: "The failure concerns timezone offsets and calendar arithmetic." },
    ];
    const counter = estimateCounter();
    const total = counter.countMessages(history);
    const run = async (relevanceWeight: number) => {
      const r = await evictUnits(
        history,
        {
          targetTokens: Math.floor(total * 0.75),
          preserveLast: 1,
          namespace: "r",
          noteTokens: 120,
          concurrency: 2,
          scoring: { relevanceWeight },
          relevanceWindow: 2,
        },
        { index: memoryIndex(), counter, now: 1_750_000_000_000 },
      )();
      if (E.isLeft(r)) throw new Error(r.left.message);
      return r.right.kept.some((m) => m.content.startsWith("# src/dates.py"));
    };
    // Without relevance the oldest read (dates.py) is the first to go; with it, it stays.
    expect(await run(0)).toBe(false);
    expect(await run(2)).toBe(true);
  });
});
