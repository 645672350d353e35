/**
 * An independent JavaScript rendering of the o200k pre-tokeniser (inline `(?i:…)` expanded), used
 * only to check that no piece the encoder receives is longer than the chunk plan promises.
 */
// Unicode White_Space, as the tokenizer's Rust regex reads \s (JavaScript's \s differs on U+FEFF, U+0085).
const ws = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const contraction = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";
const o200k = new RegExp(
  [
    `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+${contraction}?`,
    `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*${contraction}?`,
    `\\p{N}{1,3}`,
    ` ?[^${ws}\\p{L}\\p{N}]+[\\r\\n/]*`,
    `[${ws}]*[\\r\\n]+`,
    `[${ws}]+(?![^${ws}])`,
    `[${ws}]+`,
  ].join("|"),
  "gu",
);

/** The o200k pre-tokenised pieces of `text`. */
export function o200kPieces(text: string): string[] {
  return Array.from(text.matchAll(o200k), (m) => m[0]);
}
