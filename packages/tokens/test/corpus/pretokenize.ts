/**
 * An independent JavaScript rendering of the o200k pre-tokeniser (inline `(?i:…)` expanded), used
 * only to check that no piece the encoder receives is longer than the chunk plan promises.
 */
const contraction = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";
const o200k = new RegExp(
  [
    `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+${contraction}?`,
    `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*${contraction}?`,
    `\\p{N}{1,3}`,
    ` ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*`,
    `\\s*[\\r\\n]+`,
    `\\s+(?!\\S)`,
    `\\s+`,
  ].join("|"),
  "gu",
);

/** The o200k pre-tokenised pieces of `text`. */
export function o200kPieces(text: string): string[] {
  return Array.from(text.matchAll(o200k), (m) => m[0]);
}
