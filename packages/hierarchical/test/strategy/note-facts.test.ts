// The note's fact line (`noteFacts`): the literals of what left the prompt, newest first, that
// the kept messages do not hold, within the note's tokens; carried from note to note.
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import { memoryIndex } from "@cc/search";
import { runsFor } from "../../../../.ci/support/runs.js";
import {
  evictionNote,
  evictUnits,
  NOTE_FACTS_PREFIX,
  parseEvictionNote,
  sealedNote,
  withFactLine,
  withNote,
  type EvictedEntry,
} from "../../src/strategy/evict.js";
import { factLine, journalFacts } from "../../src/strategy/facts.js";

const counter = tiktokenCounter();
afterAll(() => counter.dispose());
const NOW = 1_700_000_000_000;
const KEY = "note key";
const count = (t: string): number => counter.count(t);

const literal = fc.oneof(
  fc.stringMatching(/^[a-z]{2,8}_[a-z0-9]{1,6}$/),
  fc.stringMatching(/^[a-z]{2,6}\/[a-z_]{1,8}\.py$/),
  fc.integer({ min: 10, max: 99_999 }).map(String),
  fc.stringMatching(/^[A-Z][a-z]{2,6}Error$/),
);

function cycle(i: number, lines: number): Message[] {
  const body = Array.from(
    { length: lines },
    (_, k) => `${100 * i + k}: def handler_${i}_${k}(request):  # src/pkg_${i}/mod_${k}.py`,
  ).join("\n");
  return [
    {
      role: "assistant",
      content: `step ${i}`,
      toolCalls: [{ id: `c${i}`, name: "bash", arguments: `{"command":"grep -n handler src/pkg_${i}"}` }],
    },
    { role: "tool", content: body, toolCallId: `c${i}` },
  ];
}

describe("journalFacts", () => {
  it("lists paths, identifiers and numbers of two or more digits, each once, most frequent first", () => {
    const facts = journalFacts(
      '1262:  output_field.replace(x)\n1263:  output_field.replace(y)\n  File "src/io.py", line 42, in load_cfg\nValueError: 7',
    );
    expect(facts[0]).toBe("output_field");
    expect(facts).toEqual(expect.arrayContaining(["1262", "1263", "src/io.py", "42", "load_cfg", "ValueError"]));
    expect(facts).not.toContain("7");
  });

  it("property: every fact occurs in the text, has no whitespace, and appears once", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(literal, fc.constantFrom(" ", "\n", ": ", "(", ")", "-", "def ")), { maxLength: 60 }),
        (parts) => {
          const text = parts.join("");
          const facts = journalFacts(text);
          expect(new Set(facts).size).toBe(facts.length);
          for (const f of facts) {
            expect(text).toContain(f);
            expect(/\s/.test(f)).toBe(false);
          }
        },
      ),
      { numRuns: runsFor(200, 1000) },
    );
  });
});

describe("factLine", () => {
  it("property: within the allowance, distinct, none known, fresh facts before earlier ones, order kept", () => {
    fc.assert(
      fc.property(
        fc.array(literal, { maxLength: 40 }),
        fc.array(literal, { maxLength: 40 }),
        fc.array(literal, { maxLength: 10 }),
        fc.integer({ min: 0, max: 120 }),
        (fresh, earlier, knownList, allowance) => {
          const known = new Set(knownList);
          const line = factLine(fresh, earlier, known, allowance, count);
          expect(line.length === 0 || count(line.join(" ")) <= allowance).toBe(true);
          expect(new Set(line).size).toBe(line.length);
          for (const f of line) expect(known.has(f)).toBe(false);
          // A subsequence of fresh ++ earlier (first occurrences): the order is the candidates' order.
          const candidates = [...new Set([...fresh, ...earlier])];
          let at = 0;
          for (const f of line) {
            at = candidates.indexOf(f, at);
            expect(at).toBeGreaterThanOrEqual(0);
            at++;
          }
        },
      ),
      { numRuns: runsFor(200, 1000) },
    );
  });
});

describe("withFactLine", () => {
  const entries = (n: number): EvictedEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      id: `u${i}`,
      kind: "tool:bash",
      tokens: 100 + i,
      summary: `ran step ${i}`,
    }));

  it("property: never exceeds the note's tokens, and a later pass reads back the same entries, count and facts", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.array(literal, { maxLength: 60 }),
        fc.integer({ min: 40, max: 400 }),
        (n, fresh, maxTokens) => {
          const base = evictionNote(entries(n), Math.floor(maxTokens / 4), counter, 3);
          const note = withFactLine(base, fresh, [], new Set(), maxTokens, counter);
          if (count(base) <= maxTokens) expect(count(note)).toBeLessThanOrEqual(maxTokens);
          const before = parseEvictionNote(sealedNote(base, KEY), KEY)!;
          const after = parseEvictionNote(sealedNote(note, KEY), KEY)!;
          expect(after.entries).toEqual(before.entries);
          expect(after.unlisted).toBe(before.unlisted);
          const listed = after.facts ?? [];
          expect(note === base).toBe(listed.length === 0);
          for (const f of listed) expect(fresh).toContain(f);
        },
      ),
      { numRuns: runsFor(100, 500) },
    );
  });

  it("the fact line comes right after the note's first line", () => {
    const note = withFactLine(
      evictionNote(entries(1), 100, counter),
      ["1262", "fitsrec.py"],
      [],
      new Set(),
      300,
      counter,
    );
    expect(note.split("\n")[1]).toBe(`${NOTE_FACTS_PREFIX} 1262 fitsrec.py`);
  });
});

describe("evictUnits with noteFacts", () => {
  it("lists the evicted outputs' line numbers and identifiers that the kept messages do not hold", async () => {
    const history: Message[] = [
      { role: "system", content: "agent" },
      { role: "user", content: "fix the handler" },
      ...Array.from({ length: 8 }, (_, i) => cycle(i, 12)).flat(),
    ];
    const r = await evictUnits(
      history,
      { targetTokens: 900, preserveLast: 2, namespace: "n", noteTokens: 300, concurrency: 2, noteFacts: true },
      { index: memoryIndex(), counter, now: NOW, noteKey: KEY },
    )();
    if (E.isLeft(r)) throw new Error(r.left.message);
    const facts = parseEvictionNote(sealedNote(r.right.note, KEY), KEY)?.facts ?? [];
    expect(r.right.evicted.length).toBeGreaterThan(0);
    expect(facts.length).toBeGreaterThan(0);
    const held = new Set(r.right.kept.flatMap((m) => journalFacts(m.content)));
    for (const f of facts) expect(held.has(f)).toBe(false);
    // Newest first: the facts of the newest unit that left come before those of older ones.
    const newest = Math.max(...facts.filter((f) => /^handler_\d+_\d+$/.test(f)).map((f) => Number(f.split("_")[1])));
    const oldest = Math.min(...facts.filter((f) => /^handler_\d+_\d+$/.test(f)).map((f) => Number(f.split("_")[1])));
    expect(facts.findIndex((f) => f.startsWith(`handler_${newest}_`))).toBeLessThan(
      facts.findIndex((f) => f.startsWith(`handler_${oldest}_`)) + (newest === oldest ? 1 : 0),
    );
    expect(facts.some((f) => /^\d{3,}$/.test(f))).toBe(true);
    expect(r.right.budgetMet).toBe(true);
    // The entry lines keep at least the first entry when it fits the note, so an id is named.
    expect(r.right.note).toMatch(/\n- u[0-9a-f]{32} \(/);
  });

  it("names at least one id even when a quarter of the note holds no entry line", async () => {
    const history: Message[] = [
      { role: "system", content: "agent" },
      { role: "user", content: "fix the handler" },
      ...Array.from({ length: 8 }, (_, i) => cycle(i, 12)).flat(),
    ];
    const r = await evictUnits(
      history,
      { targetTokens: 900, preserveLast: 2, namespace: "n", noteTokens: 240, concurrency: 2, noteFacts: true },
      { index: memoryIndex(), counter, now: NOW, noteKey: KEY },
    )();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(evictionNote(r.right.evicted, 60, counter)).not.toMatch(/\n- /);
    expect(r.right.note).toMatch(/\n- u[0-9a-f]{32} \(/);
    expect(count(r.right.note)).toBeLessThanOrEqual(240);
  });

  it("property: over passes, the prompt meets the target when it did without facts, holds one note, and every fact came from the conversation", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 3, max: 20 }),
        fc.integer({ min: 700, max: 2500 }),
        async (passes, perPass, lines, target) => {
          const index = memoryIndex();
          let prompt: readonly Message[] = [
            { role: "system", content: "agent" },
            { role: "user", content: "the task" },
          ];
          const all: Message[] = [...prompt];
          let i = 0;
          for (let p = 0; p < passes; p++) {
            const fresh = Array.from({ length: perPass }, () => cycle(i++, lines)).flat();
            all.push(...fresh);
            const input = [...prompt, ...fresh];
            const settings = {
              targetTokens: target,
              preserveLast: 2,
              namespace: "n",
              noteTokens: 256,
              concurrency: 2,
              pinTask: true,
            };
            const plain = await evictUnits(input, settings, {
              index: memoryIndex(),
              counter,
              now: NOW + p,
              noteKey: KEY,
            })();
            const r = await evictUnits(
              input,
              { ...settings, noteFacts: true },
              { index, counter, now: NOW + p, noteKey: KEY },
            )();
            if (E.isLeft(r) || E.isLeft(plain)) throw new Error("invalid options");
            prompt = withNote(r.right.kept, r.right.note, KEY, r.right.noteAt);
            if (plain.right.budgetMet) expect(counter.countMessages(prompt)).toBeLessThanOrEqual(target);
            expect(prompt.filter((m) => parseEvictionNote(m, KEY) !== undefined).length).toBeLessThanOrEqual(1);
            const note = prompt.find((m) => parseEvictionNote(m, KEY) !== undefined);
            const text = all
              .map(
                (m) =>
                  `${m.content}\n${(m.role === "assistant" ? (m.toolCalls ?? []) : []).map((c) => c.arguments).join("\n")}`,
              )
              .join("\n");
            for (const f of note === undefined ? [] : (parseEvictionNote(note, KEY)!.facts ?? []))
              expect(text).toContain(f);
          }
        },
      ),
      { numRuns: runsFor(15, 60) },
    );
  });
});
