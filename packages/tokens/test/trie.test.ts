import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BacktrackTables, loadRanks, NO_RANK, TokenTrie, utf8Bytes, utf8Range } from "@cc/test-support/tokens";
import type { Encoding } from "@cc/tokens";
import { anyText } from "./corpus/arbitraries.js";
import { numRuns } from "./corpus/runs.js";

const encodings: readonly Encoding[] = ["o200k_base", "cl100k_base"];

describe.each(encodings)("the double-array token trie (%s)", (encoding) => {
  const table = loadRanks(encoding);
  const trie = new TokenTrie(table);
  const lattice = new BacktrackTables(trie);
  const ranks = table.tokens.length;
  const rankOf = (a: number, b: number): number => table.byteRanks.get(table.tokens[a]! + table.tokens[b]!) ?? NO_RANK;
  const used = fc.integer({ min: 0, max: ranks - 1 }).filter((r) => table.tokens[r] !== "");

  it("joins two tokens exactly when their bytes together are a token (random pairs)", () => {
    fc.assert(
      fc.property(used, used, (a, b) => {
        expect(trie.pair(a, b)).toBe(rankOf(a, b));
      }),
      { numRuns: 20 * numRuns },
    );
  });

  it("joins every split of a token into two tokens back into it", () => {
    fc.assert(
      fc.property(used, (r) => {
        const t = table.tokens[r]!;
        for (let k = 1; k < t.length; k++) {
          const a = table.byteRanks.get(t.slice(0, k));
          const b = table.byteRanks.get(t.slice(k));
          if (a !== undefined && b !== undefined) expect(trie.pair(a, b)).toBe(r);
        }
      }),
      { numRuns: 10 * numRuns },
    );
  });

  it("finds the longest token at the start of any bytes (UTF-8 of any text, and raw bytes)", () => {
    const naive = (bytes: Uint8Array): number => {
      let best = 1;
      const bin = Buffer.from(bytes).toString("latin1");
      for (let len = 2; len <= Math.min(bin.length, 128); len++) if (table.byteRanks.has(bin.slice(0, len))) best = len;
      return best;
    };
    const bytesOf = fc.oneof(
      anyText.filter((t) => t.length > 0).map(utf8Bytes),
      fc.uint8Array({ minLength: 1, maxLength: 40 }),
      used.chain((r) =>
        fc
          .uint8Array({ maxLength: 8 })
          .map((tail) => Uint8Array.from([...Buffer.from(table.tokens[r]!, "latin1"), ...tail])),
      ),
    );
    fc.assert(
      fc.property(bytesOf, (bytes) => {
        const node = lattice.longestAt(bytes, 0, bytes.length);
        expect(node).toBeGreaterThanOrEqual(0);
        expect(lattice.matchLength).toBe(naive(bytes));
      }),
      { numRuns: 5 * numRuns },
    );
  });
});

describe("the engine's UTF-8 encoding of a piece", () => {
  it("equals TextEncoder's on any text and any range between code points (lone surrogates become U+FFFD)", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(anyText, fc.nat(), fc.nat(), (text, x, y) => {
        const points = [0];
        for (let i = 0; i < text.length;) {
          const c = text.codePointAt(i)!;
          i += c > 0xffff ? 2 : 1;
          points.push(i);
        }
        const from = points[x % points.length]!;
        const to =
          points[from === text.length ? points.length - 1 : Math.max(points.indexOf(from), y % points.length)]!;
        expect([...utf8Range(text, from, to)]).toEqual([...encoder.encode(text.slice(from, to))]);
      }),
      { numRuns },
    );
  });

  it("encodes each kind of unit: ASCII, two- and three-byte, a pair, a lone high and a lone low surrogate", () => {
    const encoder = new TextEncoder();
    for (const t of ["a", "é", "中", "😀", "\ud800", "\udc00", "\ud800a", "a\udfff", "\ud83d\ude00\ud83d"]) {
      expect([...utf8Range(t, 0, t.length)]).toEqual([...encoder.encode(t)]);
    }
  });
});
