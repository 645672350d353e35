// The term table of the postings cache: ids in order of first sight, lookups in place inside a
// longer string, any Unicode, through many rehashes.
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TermTable } from "../src/ranking/term-table.js";
import { runs } from "./support/contract.js";

describe("TermTable", () => {
  it("property: behaves as a Map from term to the order of first sight, looked up whole or in place", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 5 }),
            fc.string({ unit: "binary", maxLength: 5 }),
            fc.string({ unit: "grapheme", maxLength: 3 }),
          ),
          { maxLength: 3000 },
        ),
        fc.string({ maxLength: 4 }),
        (terms, pad) => {
          const table = new TermTable();
          const model = new Map<string, number>();
          for (const t of terms) {
            const expected = model.get(t) ?? model.size;
            if (!model.has(t)) model.set(t, expected);
            // In place, inside a longer string, half of the time.
            const id =
              t.length % 2 === 0
                ? table.internRange(t, 0, t.length)
                : table.internRange(`${pad}${t}${pad}`, pad.length, pad.length + t.length);
            expect(id).toBe(expected);
          }
          expect(table.size).toBe(model.size);
          for (const [t, id] of model) {
            expect(table.idOf(t)).toBe(id);
            expect(table.termOf(id)).toBe(t);
          }
          expect(table.idOf(`${terms.join("")}\u0000absent`)).toBe(-1);
          table.clear();
          expect(table.size).toBe(0);
          expect(terms.every((t) => table.idOf(t) === -1)).toBe(true);
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it("property: a table restored from another's joined terms has the same ids, looked up whole or in place (by scanning, then by its slots), and goes on numbering where the other would", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.string({ unit: "binary", maxLength: 4 })), {
          maxLength: 600,
        }),
        fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.string({ unit: "binary", maxLength: 4 })), {
          maxLength: 200,
        }),
        fc.string({ maxLength: 3 }),
        (first, later, pad) => {
          const original = new TermTable();
          for (const t of first) original.internRange(t, 0, t.length);
          const { text, start } = original.joined();
          expect(start.length).toBe(original.size + 1);
          // Restored as a large table is: its first lookups scan, later ones build the slots.
          const restored = new TermTable(0);
          restored.restore(text, start, original.hashArray());
          expect(restored.size).toBe(original.size);
          for (let id = 0; id < original.size; id++) {
            const t = original.termOf(id);
            expect(restored.termOf(id)).toBe(t);
            expect(restored.idOf(t)).toBe(id);
            expect(restored.internRange(`${pad}${t}${pad}`, pad.length, pad.length + t.length)).toBe(id);
          }
          // Later terms: the same ids as the original gives them, old or new, and the joined form of both agrees.
          for (const t of later) {
            const want = original.internRange(t, 0, t.length);
            expect(restored.internRange(`${pad}${t}`, pad.length, pad.length + t.length)).toBe(want);
          }
          expect(restored.size).toBe(original.size);
          const a = original.joined();
          const b = restored.joined();
          expect(b.text).toBe(a.text);
          expect([...b.start]).toEqual([...a.start]);
          expect(restored.idOf(`${text}\u0000absent`)).toBe(-1);
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it("property: its byte estimate, kept as terms are added, restored and cleared, is the sum over its terms", () => {
    const expected = (t: TermTable): number => {
      let n = 8 * t.size;
      for (let id = 0; id < t.size; id++) n += 16 + ((2 * t.termOf(id).length + 7) & ~7);
      return n + t.hashArray().buffer.byteLength;
    };
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constant("")), { maxLength: 400 }),
        fc.nat({ max: 2 }),
        (terms, then) => {
          const table = new TermTable();
          for (const t of terms) table.internRange(`<${t}>`, 1, t.length + 1);
          const slots = table.bytes() - expected(table);
          // The slots array (a power of two of Int32) is the only other part: its size is what is left.
          expect(slots > 0 && (slots & (slots - 1)) === 0).toBe(true);
          if (then === 1) {
            // A restored table keeps its terms as the one joined text: that string and its bounds.
            const copy = new TermTable();
            const { text, start } = table.joined();
            copy.restore(text, start, table.hashArray());
            const joinedBytes = 16 + ((2 * text.length + 7) & ~7) + start.byteLength;
            const left = copy.bytes() - copy.hashArray().buffer.byteLength - (copy.size > 0 ? joinedBytes : 0);
            // The slots: built at once for a small table (a power of two of Int32), or not yet (0).
            expect(left === 0 || (left > 0 && (left & (left - 1)) === 0)).toBe(true);
            // Terms added after the restore count one by one again.
            const before = copy.bytes();
            const added = copy.size;
            const fresh = "\u0000new term";
            copy.internRange(fresh, 0, fresh.length);
            expect(copy.size).toBe(added + 1);
            expect(copy.bytes() - before).toBeGreaterThanOrEqual(8 + 16 + ((2 * fresh.length + 7) & ~7));
          }
          if (then === 2) {
            table.clear();
            table.internRange("abc", 0, 3);
            expect(table.bytes() - expected(table)).toBe(1024 * 4);
          }
        },
      ),
      { numRuns: runs(50) },
    );
  });

  it("property: a terms column's count is exactly what interning it writes, as the model splits it", () => {
    // Columns of spaces, tabs and letters, with empty runs, leading and trailing separators, a
    // tab or none (a second tab is a term character, as the scan treats it).
    const column = fc
      .array(fc.constantFrom("a", "bc", " ", "  ", "\t", "é", "x"), { maxLength: 60 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(column, fc.nat({ max: 8 }), (text, at) => {
        const table = new TermTable();
        const out = new Int32Array(at + text.length + 2).fill(-7);
        const wrote = table.internColumn(text, out, at);
        expect(TermTable.columnTerms(text)).toBe(wrote);
        // Nothing written outside `out[at..at + wrote)`.
        expect(out.subarray(0, at).every((v) => v === -7)).toBe(true);
        expect(out.subarray(at + wrote).every((v) => v === -7)).toBe(true);
        // The model: split at the first tab, each side at spaces, empty runs dropped.
        const tab = text.indexOf("\t");
        const [summary, content] = tab < 0 ? [text, ""] : [text.slice(0, tab), text.slice(tab + 1)];
        const words = (s: string): string[] => s.split(" ").filter((w) => w.length > 0);
        const expected = [...words(summary).map((w) => [w, 0]), ...words(content).map((w) => [w, 1])];
        expect(Array.from(out.subarray(at, at + wrote), (v) => [table.termOf(v >>> 1), v & 1])).toEqual(expected);
      }),
      { numRuns: runs(200) },
    );
  });
});
