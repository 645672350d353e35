/**
 * The o200k and cl100k pre-tokenisers written for JavaScript's regular expressions.
 *
 * tiktoken runs the published patterns with Rust's regex engine. Three things differ in
 * JavaScript and are rewritten here so both split every string the same way:
 *
 * - `\s` is Unicode White_Space in Rust; JavaScript's `\s` adds U+FEFF and lacks U+0085. The
 *   patterns spell the Rust set out.
 * - `(?i:'s|'t|…)` (case-insensitive group) does not exist in Node 20: it is expanded to
 *   character classes, including the one non-ASCII case-fold partner, `ſ` (U+017F) for `s`.
 * - Node's Unicode tables are newer than the regex crate's inside @dqbd/tiktoken: code points
 *   that JavaScript knows as letters, marks or numbers and the tokenizer does not (see
 *   `unknownToTokenizer`) are removed from those classes.
 *
 * A property test checks the whole counter against @dqbd/tiktoken's `encode_ordinary`.
 *
 * @module bpe/pretokenize
 */
import type { Encoding } from "../counter.js";
import { unknownToTokenizer } from "./unicode.js";

/** Unicode White_Space, as Rust's `\s` reads it. */
export const whiteSpace = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const contractions = "'[sSſ]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]";

/** The JavaScript source (flag `v`) of the pre-tokeniser of `encoding`. */
export function patternSource(encoding: Encoding): string {
  const x = unknownToTokenizer;
  const cls = (p: string): string => (x === "" ? `\\p{${p}}` : `[\\p{${p}}--[${x}]]`);
  const L = cls("L");
  const N = cls("N");
  const M = cls("M");
  const ws = `[${whiteSpace}]`;
  const nonWs = `[^${whiteSpace}]`;
  const notLetterNumber = `[^\\r\\n${L}${N}]`;
  const punct = `[^${whiteSpace}${L}${N}]`;
  if (encoding === "cl100k_base") {
    return [`(?:${contractions})`, `${notLetterNumber}?${L}+`, `${N}{1,3}`, ` ?${punct}+[\\r\\n]*`, `${ws}*[\\r\\n]+`, `${ws}+(?!${nonWs})`, `${ws}+`].join("|");
  }
  const upper = `[${cls("Lu")}${cls("Lt")}${cls("Lm")}${cls("Lo")}${M}]`;
  const lower = `[${cls("Ll")}${cls("Lm")}${cls("Lo")}${M}]`;
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
