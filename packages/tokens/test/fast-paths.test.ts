import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BacktrackTables,
  backtrackCount,
  cl100kPieceEnd,
  loadRanks,
  mergeCountScan,
  o200kPieceEnd,
  patternSource,
  splitPieces,
  TokenTrie,
  utf8Bytes,
} from "@cc/tokens/internal";
import type { Encoding } from "@cc/tokens";
import { anyText } from "./corpus/arbitraries.js";
import { digitRuns, emojiRuns, exactnessText, letterRuns, mixedScripts, surrogates, whitespaceRuns } from "./corpus/exactness.js";
import { numRuns } from "./corpus/runs.js";

const encodings: readonly Encoding[] = ["o200k_base", "cl100k_base"];

/** ASCII text, every code 0–127, and ASCII-heavy text seeded with the characters that end or extend pieces. */
const asciiText = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 80 });
const asciiEdges = fc
  .array(
    fc.constantFrom("a", "Z", "HTML", "Parser", "x", "'", "'s", "'S", "'re", "'LL", "'Ve", "'d", "'m", "'t", "'ſ", " ", "  ", "\t", "\n", "\r\n", "\r", "\v", "\f", "/", "//", ".", "...", "1", "123", "4567", "\x00", "\x7f", "é", "ſ", "\u00a0", "\u0085", "\u3000", "中", "١", "\u0301", "😀", "\ud800"),
    { maxLength: 40 },
  )
  .map((a) => a.join(""));

describe.each(encodings)("the ASCII pre-tokeniser (%s)", (encoding) => {
  const global = new RegExp(patternSource(encoding), "gv");
  const sticky = new RegExp(patternSource(encoding), "yv");
  const end = encoding === "o200k_base" ? o200kPieceEnd : cl100kPieceEnd;

  it("splits every string exactly as the pattern does", () => {
    fc.assert(
      fc.property(fc.oneof(asciiText, asciiEdges, exactnessText, anyText, whitespaceRuns, digitRuns), (text) => {
        expect(splitPieces(text, end, sticky)).toEqual(text.match(global) ?? []);
      }),
      { numRuns: numRuns * 5 },
    );
  });

  it("decides every all-ASCII position itself (the pattern is only asked about non-ASCII)", () => {
    fc.assert(
      fc.property(asciiText, (text) => {
        for (let i = 0; i < text.length; ) {
          const e = end(text, i, text.length);
          expect(e).toBeGreaterThan(i);
          i = e;
        }
      }),
      { numRuns },
    );
  });
});

describe.each(encodings)("the in-place ASCII token check (%s)", (encoding) => {
  const table = loadRanks(encoding);
  const lattice = new BacktrackTables(new TokenTrie(table));
  const isAscii = (text: string): boolean => [...text].every((c) => c.charCodeAt(0) < 0x80);

  it("keys tokens that start with U+FEFF by their full text (the decoder kept stripping the mark: '' was a key)", () => {
    expect(table.textRanks.has("")).toBe(false);
    expect(table.textRanks.get("\ufeffusing")).toBe(table.byteRanks.get("\xef\xbb\xbfusing"));
  });

  it("finds every ASCII token, inside a longer string", () => {
    for (const text of table.textRanks.keys()) {
      if (isAscii(text)) expect(lattice.wholeAscii(`\u00e9${text}x`, 1, 1 + text.length)).toBe(1);
    }
  });

  it("finds no ASCII string that is not a token, and hands back any string with a char outside ASCII", () => {
    fc.assert(
      fc.property(fc.oneof(asciiText, asciiEdges), (text) => {
        fc.pre(text.length > 0);
        const expected = !isAscii(text) ? -2 : table.textRanks.has(text) ? 1 : -1;
        expect(lattice.wholeAscii(text, 0, text.length)).toBe(expected);
      }),
      { numRuns },
    );
  });
});

describe.each(encodings)("the backtracking encoder (%s)", (encoding) => {
  const table = loadRanks(encoding);
  const trie = new TokenTrie(table);
  const lattice = new BacktrackTables(trie);

  it("counts every token as one token", () => {
    for (let r = 0; r < table.tokens.length; r++) {
      const bytes = Buffer.from(table.tokens[r]!, "latin1");
      if (bytes.length > 0) expect(backtrackCount(bytes, bytes.length, lattice)).toBe(1);
    }
  });

  it("equals tiktoken's merge loop on any piece (long letter, digit, CJK, emoji runs, lone surrogates)", () => {
    fc.assert(
      fc.property(fc.oneof(letterRuns, digitRuns, mixedScripts, emojiRuns, surrogates, whitespaceRuns, anyText), (text) => {
        const bytes = utf8Bytes(text);
        expect(backtrackCount(bytes, bytes.length, lattice)).toBe(mergeCountScan(bytes, bytes.length, table, trie));
      }),
      { numRuns },
    );
  });

  it("equals tiktoken's merge loop on runs of one character", () => {
    for (const c of ["a", "z", " ", "0", "中", "😀", "\u0301", "=", "ab", "\ud800"]) {
      for (const n of [1, 2, 3, 7, 64, 129, 1000]) {
        const bytes = utf8Bytes(c.repeat(n));
        expect(backtrackCount(bytes, bytes.length, lattice)).toBe(mergeCountScan(bytes, bytes.length, table, trie));
      }
    }
  });
});
