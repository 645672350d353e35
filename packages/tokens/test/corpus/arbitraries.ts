/** fast-check arbitraries for text that stresses tokenizers. */
import fc from "fast-check";

const pieces = [
  "a",
  "Z",
  "é",
  "ß",
  "1",
  "42",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\n\n",
  "'",
  "'s",
  "'LL",
  "/",
  ".",
  "(",
  "){",
  "_",
  "-",
  "+",
  "中",
  "文",
  "あ",
  "한",
  "。",
  "，",
  "😀",
  "👍🏽",
  "👨‍👩‍👧",
  "🇯🇵",
  "\u0301",
  "\u200d",
  "\ufeff",
  "\u00a0",
  "\u0085",
  "\u3000",
  "\ud800",
  "\udfff",
  "\udc00x",
  "<|endoftext|>",
  "<|endofprompt|>",
  "<|fim_prefix|>",
  "١٢",
  "Ⅻ",
];

/** Strings built from tokenizer-relevant pieces: contractions, marks, ZWJ, lone surrogates, special tokens. */
export const trickyString: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...pieces), { maxLength: 60 })
  .map((a) => a.join(""));

/** Any of: full Unicode, UTF-16 with lone surrogates, tricky pieces, long single-class runs. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 80 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 80 }),
  trickyString,
  fc
    .tuple(fc.constantFrom("a", " ", ".", "中", "1", "😀", "\n"), fc.integer({ min: 1, max: 700 }))
    .map(([c, n]) => c.repeat(n)),
);
