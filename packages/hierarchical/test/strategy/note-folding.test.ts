import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import { summaryMessage, type Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import { EVICTION_NOTE_PREFIX } from "../../src/strategy/evict.js";
import { evictUnits, parseEvictionNote, withNote } from "../../src/strategy/evict.js";
import { memoryIndex } from "../../src/search/memory.js";

const counter = tiktokenCounter();
afterAll(() => counter.dispose());
const NOW = 1_700_000_000_000;
const settings = { preserveLast: 2, namespace: "run", noteTokens: 400, concurrency: 2 } as const;

function cycle(i: number, lines: number): Message[] {
  return [
    { role: "assistant", content: `step ${i}`, toolCalls: [{ id: `c${i}`, name: "bash", arguments: `{"command":"cat f${i}.py"}` }] },
    { role: "tool", content: `output ${i} src/m${i}.py\n${`line ${i} of output with some_identifier_${i}\n`.repeat(lines)}`, toolCallId: `c${i}` },
    { role: "user", content: `continue after ${i}` },
  ];
}

const notesIn = (prompt: readonly Message[]): readonly Message[] => prompt.filter((m) => m.role === "user" && m.content.includes(EVICTION_NOTE_PREFIX));

describe("eviction notes of earlier passes are folded into the new note", () => {
  it("a second pass keeps one note that lists the first pass's ids and its own", async () => {
    const index = memoryIndex();
    let prompt: readonly Message[] = [{ role: "system", content: "agent" }, ...Array.from({ length: 8 }, (_, i) => cycle(i, 60)).flat()];
    const first = await evictUnits(prompt, { ...settings, targetTokens: 4000, noteTokens: 1000 }, { index, counter, now: NOW })();
    if (E.isLeft(first)) throw new Error(first.left.message);
    prompt = [...withNote(first.right.kept, first.right.note), ...Array.from({ length: 8 }, (_, i) => cycle(i + 8, 60)).flat()];
    const second = await evictUnits(prompt, { ...settings, targetTokens: 4000, noteTokens: 1000 }, { index, counter, now: NOW + 1 })();
    if (E.isLeft(second)) throw new Error(second.left.message);
    expect(first.right.evicted.length).toBeGreaterThan(0);
    const next = withNote(second.right.kept, second.right.note);
    expect(notesIn(next)).toHaveLength(1);
    // The first note was not evicted as a unit: its ids are still named by the prompt.
    for (const e of first.right.evicted) expect(second.right.note).toContain(e.id);
    for (const e of second.right.evicted) expect(second.right.note).toContain(e.id);
    expect(second.right.segments.some((s) => s.content.includes(EVICTION_NOTE_PREFIX))).toBe(false);
  });

  it("parses what evictionNote writes, with the count of unlisted entries", () => {
    const note = summaryMessage(`${EVICTION_NOTE_PREFIX}\n- u1 (tool:bash, 12 tokens): ran pytest\n- u2 (message, 3 tokens): hi\n… 4 more in the journal`);
    expect(parseEvictionNote(note)).toEqual({ entries: [{ id: "u1", kind: "tool:bash", tokens: 12, summary: "ran pytest" }, { id: "u2", kind: "message", tokens: 3, summary: "hi" }], unlisted: 4 });
    expect(parseEvictionNote({ role: "user", content: "hello" })).toBeUndefined();
  });

  it("property: compacting a growing conversation N times, the final prompt holds exactly one note and every id it lists expands", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 5 }), fc.integer({ min: 2, max: 5 }), fc.integer({ min: 5, max: 40 }), fc.integer({ min: 900, max: 2500 }), async (passes, perPass, lines, target) => {
        const index = memoryIndex();
        let prompt: readonly Message[] = [{ role: "system", content: "agent" }];
        let n = 0;
        let evictedAny = false;
        for (let p = 0; p < passes; p++) {
          for (let k = 0; k < perPass; k++) prompt = [...prompt, ...cycle(n++, lines)];
          const r = await evictUnits(prompt, { ...settings, targetTokens: target }, { index, counter, now: NOW + p })();
          if (E.isLeft(r)) throw new Error(r.left.message);
          evictedAny ||= r.right.evicted.length > 0;
          prompt = withNote(r.right.kept, r.right.note);
        }
        const notes = notesIn(prompt);
        expect(notes).toHaveLength(evictedAny ? 1 : 0);
        const parsed = notes.length === 1 ? parseEvictionNote(notes[0]!) : undefined;
        for (const e of parsed?.entries ?? []) expect(E.isRight(await index.expand(e.id, "run")()) && (await index.expand(e.id, "run")())).toMatchObject(E.right({ id: e.id }));
        // Every listed entry plus the unlisted count accounts for what was evicted: nothing vanished from the note.
        if (parsed !== undefined) expect(parsed.entries.length + parsed.unlisted).toBe(E.getOrElse(() => 0)(await index.count("run")()));
      }),
      { numRuns: 20 },
    );
  });
});
