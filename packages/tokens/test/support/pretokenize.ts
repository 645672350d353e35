/**
 * The o200k and cl100k pre-tokenisers written for JavaScript's regular expressions.
 *
 * tiktoken runs the published patterns with Rust's regex engine. Three things differ in
 * JavaScript and are rewritten here so both split every string the same way:
 *
 * - `\p{L}`, `\p{N}`, `\p{Lu}`, … follow the runtime's Unicode tables in JavaScript (Unicode 17
 *   in Node 20.20, and newer with each ICU upgrade), while the regex crate inside
 *   @dqbd/tiktoken has Unicode 16.0's. Every class is spelled out from generated Unicode 16.0
 *   tables (`bpe/unicode`), so the split cannot change when Node's Unicode version does.
 * - `\s` is Unicode White_Space in Rust; JavaScript's `\s` adds U+FEFF and lacks U+0085. The
 *   patterns spell the White_Space set out (from the same tables).
 * - `(?i:'s|'t|…)` (case-insensitive group) does not exist in Node 20: it is expanded to
 *   character classes, including the one non-ASCII case-fold partner, `ſ` (U+017F) for `s`.
 *
 * A test scans every code point U+0000–U+10FFFF in several contexts against @dqbd/tiktoken's
 * `encode_ordinary` for both encodings; a property test checks the whole counter against it.
 *
 * @module tokens/test/support/pretokenize
 */
import type { Encoding } from "../../src/counter.js";
import { caselessLetters, lowerLetters, marks, numbers, upperLetters, whiteSpaces } from "../../src/bpe/unicode.js";

export { unicodeVersion } from "../../src/bpe/unicode.js";

/** The body of a character class (`\u{…}-\u{…}…`, flag `u` or `v`) holding the ranges of `lists`. */
function classBody(...lists: readonly (readonly number[])[]): string {
  let s = "";
  for (const list of lists)
    for (let k = 0; k < list.length; k += 2) s += `\\u{${list[k]!.toString(16)}}-\\u{${list[k + 1]!.toString(16)}}`;
  return s;
}

/** Unicode White_Space, as Rust's `\s` reads it (a character class body). */
export const whiteSpace = classBody(whiteSpaces);
const letter = classBody(upperLetters, lowerLetters, caselessLetters);
const number = classBody(numbers);
const upperOrMark = classBody(upperLetters, caselessLetters, marks);
const lowerOrMark = classBody(lowerLetters, caselessLetters, marks);

const contractions = "'[sSſ]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]";

/** The JavaScript source (flag `v`) of the pre-tokeniser of `encoding`. */
export function patternSource(encoding: Encoding): string {
  const L = `[${letter}]`;
  const N = `[${number}]`;
  const ws = `[${whiteSpace}]`;
  const nonWs = `[^${whiteSpace}]`;
  const notLetterNumber = `[^\\r\\n${letter}${number}]`;
  const punct = `[^${whiteSpace}${letter}${number}]`;
  if (encoding === "cl100k_base") {
    return [
      `(?:${contractions})`,
      `${notLetterNumber}?${L}+`,
      `${N}{1,3}`,
      ` ?${punct}+[\\r\\n]*`,
      `${ws}*[\\r\\n]+`,
      `${ws}+(?!${nonWs})`,
      `${ws}+`,
    ].join("|");
  }
  const upper = `[${upperOrMark}]`;
  const lower = `[${lowerOrMark}]`;
  return [
    `${notLetterNumber}?${upper}*${lower}+(?:${contractions})?`,
    `${notLetterNumber}?${upper}+${lower}*(?:${contractions})?`,
    `${N}{1,3}`,
    ` ?${punct}+[\\r\\n\\/]*`,
    `${ws}*[\\r\\n]+`,
    `${ws}+(?!${nonWs})`,
    `${ws}+`,
  ].join("|");
}

/** A fresh global regular expression that splits text into the pieces tiktoken merges. */
export function pretokenizer(encoding: Encoding): RegExp {
  return new RegExp(patternSource(encoding), "gv");
}
