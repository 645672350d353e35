/**
 * Code points whose Unicode category Node's tables and the tokenizer's regex tables disagree on.
 *
 * @module bpe/unicode
 */

/**
 * Code points JavaScript (Unicode 17 in Node 20.20) classes as letters, marks or numbers that the
 * regex crate inside @dqbd/tiktoken does not, as a `v`-flag class body of `\u{…}` ranges. A scan of
 * every code point U+0000–U+10FFFF in several contexts (`a·b 1·2 ··x \n·. ·A'·s ·1`), comparing
 * the counter with `encode_ordinary` for both encodings, found none: the list is empty. Rerun the
 * scan when Node's Unicode version changes.
 */
export const unknownToTokenizer = "";
