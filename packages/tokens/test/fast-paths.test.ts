import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BacktrackTables,
  backtrackCount,
  cl100kPieceEnd,
  cl100kPieceEndAny,
  loadRanks,
  mergeCountScan,
  o200kPieceEnd,
  o200kPieceEndAny,
  patternSource,
  splitPieces,
  TokenTrie,
  utf8Bytes,
} from "@cc/test-support/tokens";
import type { Encoding } from "@cc/tokens";
import { anyText } from "./corpus/arbitraries.js";
import {
  digitRuns,
  emojiRuns,
  exactnessText,
  letterRuns,
  mixedScripts,
  surrogates,
  whitespaceRuns,
} from "./corpus/exactness.js";
import { numRuns } from "./corpus/runs.js";

const encodings: readonly Encoding[] = ["o200k_base", "cl100k_base"];

/** ASCII text, every code 0–127, and ASCII-heavy text seeded with the characters that end or extend pieces. */
const asciiText = fc.string({
  unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)),
  maxLength: 80,
});
const asciiEdges = fc
  .array(
    fc.constantFrom(
      "a",
      "Z",
      "HTML",
      "Parser",
      "x",
      "'",
      "'s",
      "'S",
      "'re",
      "'LL",
      "'Ve",
      "'d",
      "'m",
      "'t",
      "'ſ",
      " ",
      "  ",
      "\t",
      "\n",
      "\r\n",
      "\r",
      "\v",
      "\f",
      "/",
      "//",
      ".",
      "...",
      "1",
      "123",
      "4567",
      "\x00",
      "\x7f",
      "é",
      "ſ",
      "\u00a0",
      "\u0085",
      "\u3000",
      "中",
      "١",
      "\u0301",
      "😀",
      "\ud800",
    ),
    { maxLength: 40 },
  )
  .map((a) => a.join(""));

/**
 * Text over one or more characters of every class the patterns tell apart, with the contraction
 * and separator characters around them: Lu, Ll, Lt (ǅ), Lm (ʰ), Lo (中, 𠀀), Mn/Mc/Me, Nd/Nl/No (also
 * astral 𝟎), white space and newlines, punctuation, emoji, lone surrogates, unassigned code
 * points, and letters new in Unicode 16 (Ᲊ) and 17 (U+088F, U+323B0) that tiktoken does not know.
 */
const unicodeEdges = fc
  .array(
    fc.constantFrom(
      "a",
      "b",
      "Z",
      "É",
      "ǅ",
      "ʰ",
      "中",
      "\u{20000}",
      "\u0301",
      "\u0903",
      "\u20dd",
      "1",
      "١",
      "\u{1d7ce}",
      "Ⅻ",
      "½",
      " ",
      "\u3000",
      "\u00a0",
      "\n",
      "\r",
      "\u0085",
      "\t",
      "'",
      "s",
      "T",
      "ſ",
      "/",
      ".",
      "-",
      "😀",
      "\ud800",
      "\udc00",
      "\u{e0001}",
      "\u{50000}",
      "\u1c89",
      "\u088f",
      "\u{323b0}",
      "\u{10ffff}",
    ),
    { maxLength: 40 },
  )
  .map((a) => a.join(""));

describe.each(encodings)("the ASCII pre-tokeniser (%s)", (encoding) => {
  const global = new RegExp(patternSource(encoding), "gv");
  const end = encoding === "o200k_base" ? o200kPieceEnd : cl100kPieceEnd;
  const endAny = encoding === "o200k_base" ? o200kPieceEndAny : cl100kPieceEndAny;

  it("splits every string exactly as the pattern does", () => {
    fc.assert(
      fc.property(fc.oneof(asciiText, asciiEdges, exactnessText, anyText, whitespaceRuns, digitRuns), (text) => {
        expect(splitPieces(text, end, endAny)).toEqual(text.match(global) ?? []);
      }),
      { numRuns: numRuns * 5 },
    );
  });

  it("the full scanner alone splits every string exactly as the pattern does (every class: Lu, Ll, Lt, Lm, Lo, M, N, white space, astral, unassigned)", () => {
    const never = (): number => -1;
    fc.assert(
      fc.property(unicodeEdges, (text) => {
        expect(splitPieces(text, never, endAny)).toEqual(text.match(global) ?? []);
      }),
      { numRuns: numRuns * 5 },
    );
  });

  it("decides every all-ASCII position itself (the pattern is only asked about non-ASCII)", () => {
    fc.assert(
      fc.property(asciiText, (text) => {
        for (let i = 0; i < text.length;) {
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
      fc.property(
        fc.oneof(letterRuns, digitRuns, mixedScripts, emojiRuns, surrogates, whitespaceRuns, anyText),
        (text) => {
          const bytes = utf8Bytes(text);
          expect(backtrackCount(bytes, bytes.length, lattice)).toBe(mergeCountScan(bytes, bytes.length, table, trie));
        },
      ),
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
