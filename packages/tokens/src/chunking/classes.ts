/**
 * Code point classes as the o200k/cl100k pre-tokenisers see them, and the rule that says where a
 * text may be cut without changing its token count.
 *
 * Both encodings split text into pieces with a regular expression before byte-pair merging, and
 * no token ever spans two pieces. A cut at a position that is a piece boundary *and* leaves the
 * left part pre-tokenised the same way when read alone is "safe": counting both halves separately
 * gives exactly the count of the whole. Two kinds of positions are safe for both encodings:
 *
 * - after a letter or digit, before whitespace, punctuation, a symbol or a control character
 *   (never before `'`, which can start an English contraction glued to the letters), or between a
 *   letter and a digit (either order);
 * - after `\n`, before a letter or digit.
 *
 * Unassigned code points are never next to a cut, so a newer Unicode table in the tokenizer
 * cannot make a cut unsafe.
 *
 * @module chunking/classes
 */

/** The class of one code point, as far as cutting is concerned. */
export const CodeClass = {
  /** Unassigned, private use, or anything not listed below: never next to a cut. */
  Other: 0,
  /** `\p{L}`. */
  Letter: 1,
  /** `\p{N}`. */
  Digit: 2,
  /** `\p{M}`: joins letters in o200k, so never after a cut. */
  Mark: 3,
  /** `\n`. */
  Newline: 4,
  /** Whitespace other than `\n`. */
  Space: 5,
  /** Punctuation, symbols, controls and format characters other than `'`; lone surrogates. */
  Punct: 6,
  /** `'` (U+0027). */
  Apostrophe: 7,
} as const;

/** A value of {@link CodeClass}. */
export type CodeClass = (typeof CodeClass)[keyof typeof CodeClass];

const letter = /^\p{L}$/u;
const digit = /^\p{N}$/u;
const mark = /^\p{M}$/u;
const space = /^\s$/u;
const punct = /^[\p{P}\p{S}\p{Cc}\p{Cf}\p{Zl}\p{Zp}]$/u;

/** Classifies one code point (a lone surrogate counts as punctuation: it is encoded as U+FFFD). */
export function classifyCodePoint(cp: number): CodeClass {
  if (cp === 0x0a) return CodeClass.Newline;
  if (cp === 0x27) return CodeClass.Apostrophe;
  if (cp >= 0xd800 && cp <= 0xdfff) return CodeClass.Punct;
  const ch = String.fromCodePoint(cp);
  if (space.test(ch)) return CodeClass.Space;
  if (letter.test(ch)) return CodeClass.Letter;
  if (digit.test(ch)) return CodeClass.Digit;
  if (mark.test(ch)) return CodeClass.Mark;
  if (punct.test(ch)) return CodeClass.Punct;
  return CodeClass.Other;
}

let bmpTable: Uint8Array | undefined;

/** The class of every BMP code unit, built once on first use (about 65 k regex tests). */
export function bmpClasses(): Uint8Array {
  if (bmpTable !== undefined) return bmpTable;
  const table = new Uint8Array(0x10000);
  for (let cu = 0; cu < 0x10000; cu++) table[cu] = classifyCodePoint(cu);
  bmpTable = table;
  return table;
}

/**
 * Whether a cut between a code point of class `left` and one of class `right` keeps the count
 * exact for both encodings (see the module comment for why).
 */
export function isSafeCut(left: CodeClass, right: CodeClass): boolean {
  if (left === CodeClass.Letter) {
    return (
      right === CodeClass.Digit || right === CodeClass.Space || right === CodeClass.Newline || right === CodeClass.Punct
    );
  }
  if (left === CodeClass.Digit) {
    return (
      right === CodeClass.Letter ||
      right === CodeClass.Space ||
      right === CodeClass.Newline ||
      right === CodeClass.Punct
    );
  }
  if (left === CodeClass.Newline) return right === CodeClass.Letter || right === CodeClass.Digit;
  return false;
}

/** {@link isSafeCut} as a flat 8×8 table indexed by `left * 8 + right`, for the planner's hot loop. */
export const safeCutTable: Uint8Array = (() => {
  const table = new Uint8Array(64);
  for (let l = 0; l < 8; l++)
    for (let r = 0; r < 8; r++) table[l * 8 + r] = isSafeCut(l as CodeClass, r as CodeClass) ? 1 : 0;
  return table;
})();
