// Fact-keeping masks: the least important outputs become stubs (call kept, key facts within the
// allowance, original in the index byte for byte) before whole units leave.
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import { evictUnits, withNote, type EvictionOptions } from "../../src/strategy/evict.js";
import { fitFacts, keyFacts } from "../../src/strategy/facts.js";
import { CLIP_MARK, MASK_PREFIX, stubId } from "../../src/strategy/mask.js";
import { memoryIndex } from "@cc/search";

const counter = tiktokenCounter();
afterAll(() => counter.dispose());
const NOW = 1_700_000_000_000;

function output(i: number, lines: number): string {
  const body = Array.from(
    { length: lines },
    (_, k) => `src/pkg_${i}/mod_${k}.py:${10 + k}: def handler_${i}_${k}(request):`,
  ).join("\n");
  return `${body}\nTraceback (most recent call last):\n  File "src/pkg_${i}/io.py", line ${40 + i}, in load_cfg_${i}\nKeyError: 'port_${i}'`;
}

function cycle(i: number, lines: number, tool = "bash"): Message[] {
  return [
    {
      role: "assistant",
      content: `step ${i}`,
      toolCalls: [{ id: `c${i}`, name: tool, arguments: `{"command":"grep -rn handler src/pkg_${i}"}` }],
    },
    { role: "tool", content: output(i, lines), toolCallId: `c${i}` },
  ];
}

const session = (sizes: readonly number[], tool?: (i: number) => string): Message[] => [
  { role: "system", content: "You are a coding agent." },
  { role: "user", content: "Fix the crash in load_cfg." },
  ...sizes.flatMap((n, i) => cycle(i, n, tool?.(i))),
];

const options = (targetTokens: number, mask: EvictionOptions["mask"] = {}): EvictionOptions => ({
  targetTokens,
  preserveLast: 2,
  namespace: "run",
  noteTokens: 200,
  concurrency: 2,
  pinTask: true,
  mask,
});

const orphans = (prompt: readonly Message[]): number => {
  const calls = new Set(prompt.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [])));
  return prompt.filter((m) => m.role === "tool" && !calls.has(m.toolCallId)).length;
};
const factsPart = (stub: string): string => stub.split("\nkey facts: ")[1] ?? "";

describe("key facts", () => {
  it("a traceback's exception line comes first, then the location it names, the paths and the identifiers", () => {
    const facts = keyFacts(output(3, 2));
    expect(facts[0]).toBe("KeyError: 'port_3'");
    expect(facts).toContain("src/pkg_3/io.py:43");
    expect(facts).toContain("load_cfg_3");
    expect(facts).toContain("handler_3_1");
  });

  it("what the call already says is not repeated", () => {
    expect(keyFacts("open src/a.py and src/b.py", "cat src/a.py")).toEqual(["src/b.py"]);
  });

  it("property: the facts kept never exceed the allowance, in order, a subsequence of the candidates", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 40 }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 80 }),
        (facts, allowance) => {
          const kept = fitFacts(facts, allowance, (t) => counter.count(t));
          expect(counter.count(kept.join(" · "))).toBeLessThanOrEqual(allowance);
          let at = 0;
          for (const k of kept) {
            at = facts.indexOf(k, at) + 1;
            expect(at).toBeGreaterThan(0);
          }
        },
      ),
    );
  });
});

describe("masking before eviction", () => {
  it("the oldest outputs become stubs naming their id and facts; the calls stay, nothing leaves whole, the budget is met", async () => {
    const history = session([30, 30, 30, 30, 30, 30]);
    const index = memoryIndex();
    const before = counter.countMessages(history);
    const r = await evictUnits(history, options(Math.floor(before * 0.75)), { index, counter, now: NOW })();
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    const ev = r.right;
    expect(ev.masked.length).toBeGreaterThan(0);
    expect(ev.evicted).toEqual([]);
    expect(ev.kept.length).toBe(history.length);
    expect(ev.budgetMet).toBe(true);
    expect(orphans(ev.kept)).toBe(0);
    for (const m of ev.masked) {
      const stub = ev.kept[m.position]!;
      expect(stub.content.startsWith(MASK_PREFIX)).toBe(true);
      expect(stubId(stub.content)).toBe(m.id);
      expect(factsPart(stub.content)).toContain("KeyError");
      const original = await index.expand(m.id, "run")();
      expect(E.isRight(original) && original.right?.content).toBe(history[m.position]!.content);
    }
    // The newest three observations are never masked.
    const toolAt = history.map((m, i) => (m.role === "tool" ? i : -1)).filter((i) => i >= 0);
    for (const i of toolAt.slice(-3)) expect(ev.kept[i]).toEqual(history[i]);
  });

  it("outputs of an excluded tool and outputs under minTokens stay as they are", async () => {
    const history = session([30, 30, 2, 30, 30, 30, 30], (i) => (i === 1 ? "memory" : "bash"));
    const r = await evictUnits(
      history,
      options(Math.floor(counter.countMessages(history) * 0.75), { excludeTools: ["memory"] }),
      { index: memoryIndex(), counter, now: NOW },
    )();
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    const positions = new Set(r.right.masked.map((m) => m.position));
    expect(positions.has(4)).toBe(false); // the memory tool's result
    expect(positions.has(6)).toBe(false); // 2 lines: under 200 tokens
    expect(r.right.kept.filter((m) => m.content.startsWith(MASK_PREFIX)).length).toBeGreaterThan(0);
  });

  it("when masks are not enough, whole units leave; a unit that leaves with a stub is stored with its original output", async () => {
    const history = session([30, 30, 30, 30, 30, 30, 30, 30]);
    const index = memoryIndex();
    const r = await evictUnits(history, options(900), { index, counter, now: NOW })();
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    expect(r.right.evicted.length).toBeGreaterThan(0);
    expect(counter.countMessages(withNote(r.right.kept, r.right.note, undefined, r.right.noteAt))).toBeLessThanOrEqual(
      900,
    );
    for (const e of r.right.evicted) {
      const x = await index.expand(e.id, "run")();
      const content = E.isRight(x) ? (x.right?.content ?? "") : "";
      expect(content).not.toContain(MASK_PREFIX);
      expect(content).toContain("KeyError");
    }
  });

  it("a stub is never masked again, and a later pass keeps the same stub", async () => {
    const history = session([30, 30, 30, 30, 30, 30]);
    const index = memoryIndex();
    const target = Math.floor(counter.countMessages(history) * 0.6);
    const first = await evictUnits(history, options(target), { index, counter, now: NOW })();
    if (E.isLeft(first)) throw new Error("first pass");
    const second = await evictUnits(first.right.kept, options(target), { index, counter, now: NOW })();
    if (E.isLeft(second)) throw new Error("second pass");
    expect(second.right.masked).toEqual([]);
    expect(second.right.kept).toEqual(first.right.kept);
  });

  it("bad mask options are refused by name", async () => {
    const run = { index: memoryIndex(), counter, now: NOW };
    for (const bad of [
      { keepRecnt: 2 },
      { stubTokens: Number.NaN },
      { minTokens: -1 },
      { excludeTools: "bash" },
      true,
    ]) {
      const r = await evictUnits(session([30]), { ...options(500), mask: bad as never }, run)();
      expect(E.isLeft(r) && r.left._tag).toBe("InvalidOptions");
    }
  });

  it("property: over sessions and targets, stubs stay in their allowance, every original expands byte for byte, no tool result is orphaned, the tail is verbatim", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        fc.double({ min: 0.2, max: 1.2, noNaN: true }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 4 }),
        async (sizes, share, stubTokens, keepRecent) => {
          const history = session(sizes);
          const index = memoryIndex();
          const target = Math.max(300, Math.floor(counter.countMessages(history) * share));
          const r = await evictUnits(history, options(target, { stubTokens, keepRecent }), {
            index,
            counter,
            now: NOW,
          })();
          if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
          const prompt = withNote(r.right.kept, r.right.note, undefined, r.right.noteAt);
          expect(orphans(prompt)).toBe(0);
          // The tail is verbatim, unless the pass was still over its target: then an output of it
          // may be clipped (a stub saying so, whose original expands byte for byte, checked below).
          const clipped = (m: Message): boolean =>
            m.content.startsWith(MASK_PREFIX) && m.content.split("\n")[0]!.includes(CLIP_MARK);
          prompt.slice(-2).forEach((m, i) => {
            if (!clipped(m)) expect(m).toEqual(history.slice(-2)[i]);
          });
          for (const m of prompt)
            if (m.content.startsWith(MASK_PREFIX) && !clipped(m))
              expect(counter.count(factsPart(m.content))).toBeLessThanOrEqual(stubTokens);
          // Every clipped stub is reported among the masked entries (so its original is checked below).
          for (const m of prompt.filter(clipped)) expect(r.right.masked.map((x) => x.id)).toContain(stubId(m.content));
          for (const m of r.right.masked) {
            const x = await index.expand(m.id, "run")();
            expect(E.isRight(x) && x.right?.content).toBe(history[m.position]!.content);
            expect(m.stubTokens).toBeLessThan(m.tokens);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
