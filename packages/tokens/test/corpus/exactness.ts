/** fast-check generators for the exactness property: every input class where cutting went wrong. */
import fc from "fast-check";

const unit = (chars: string): fc.Arbitrary<string> => fc.constantFrom(...Array.from(chars));
const run = (chars: string, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: unit(chars), minLength: 1, maxLength });

/** Long digit runs (tiktoken groups digits by three), with ASCII, Arabic-Indic and full-width digits. */
export const digitRuns: fc.Arbitrary<string> = fc.oneof(
  run("0123456789", 2000),
  run("0123456789١٢٣٤٥٦٧٨٩٠０１２", 300),
);
/** Whitespace runs holding newlines (`\s*[\r\n]+` and `\s+(?!\S)` interplay). */
export const whitespaceRuns: fc.Arbitrary<string> = run(" \t\n\r\u00a0\u3000\u0085\u2028\v\f", 1500);
/** Letter runs with no whitespace, mixed case, ASCII and Latin-1. */
export const letterRuns: fc.Arbitrary<string> = fc.oneof(
  run("abcdefghijklmnopqrstuvwxyz", 2500),
  run("abcXYZéßøÆſ", 800),
);
/** CJK, Arabic, Devanagari, Hangul, combining marks. */
export const mixedScripts: fc.Arbitrary<string> = run(
  "中文字符日本語のテキスト한국어العربيةमराठी\u0301\u0308\u064b\u093f\u200c\u200d",
  600,
);
/** Emoji: ZWJ sequences, skin tones, flags, keycaps, variation selectors. */
export const emojiRuns: fc.Arbitrary<string> = fc
  .array(fc.constantFrom("😀", "👨‍👩‍👧‍👦", "🧑🏽‍💻", "🏳️‍🌈", "🇫🇷", "🇯🇵", "1️⃣", "❤️", "👍🏿", "\u200d", "\ufe0f"), {
    minLength: 1,
    maxLength: 200,
  })
  .map((a) => a.join(""));
/** Lone and paired surrogates, U+FFFD, U+FEFF. */
export const surrogates: fc.Arbitrary<string> = run("\ud800\udbff\udc00\udfff\ufffd\ufeffa ", 100);
/** Special-token look-alikes, counted as ordinary text. */
export const specialLike: fc.Arbitrary<string> = fc.constantFrom(
  "<|endoftext|>",
  "<|endofprompt|>",
  "<|fim_prefix|>",
  "<|im_start|>",
  "<|endoftext|",
  "|>",
  "<|",
  "<|endoftext|><|endoftext|>",
);
/** Contractions (case-insensitive in the tokenizer, including the long s). */
export const contractions: fc.Arbitrary<string> = fc.constantFrom(
  "'s",
  "'S",
  "'ſ",
  "'t",
  "'RE",
  "'Ve",
  "'m",
  "'lL",
  "'d",
  "'",
  "''",
  "n't",
);
/** Short punctuation and separators. */
export const glue: fc.Arbitrary<string> = fc.constantFrom(
  " ",
  "\n",
  ".",
  "/",
  "\r\n",
  "!?",
  "  ",
  "\t",
  "_",
  "-",
  "=",
  ",",
  "…",
);

/** Any concatenation of the classes above. */
export const exactnessText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      digitRuns,
      whitespaceRuns,
      letterRuns,
      mixedScripts,
      emojiRuns,
      surrogates,
      specialLike,
      contractions,
      glue,
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => parts.join(""));
