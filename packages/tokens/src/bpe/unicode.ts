/**
 * Code points whose Unicode category Node's tables and the tokenizer's regex tables disagree on.
 *
 * @module bpe/unicode
 */

/**
 * Code points JavaScript (Unicode 17 in Node 20.20) classes as letters, marks or numbers that the
 * regex crate inside @dqbd/tiktoken does not, as a `v`-flag class body of `\u{…}` ranges. Found by
 * comparing the counter with `encode_ordinary` on every code point (test/unicode.test.ts).
 */
export const unknownToTokenizer = "";
