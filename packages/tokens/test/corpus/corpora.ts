/** The corpora the estimate is calibrated and tested on, as lists of sample texts. */
import { cjkText, codeText, emojiText, encodedKinds, encodedText } from "./generate.js";
import { trajectoryTexts } from "./trajectories.js";

/** Splits `text` into samples of about `size` UTF-16 units without splitting a surrogate pair. */
export function samples(text: string, size: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(i + size, text.length);
    if (end < text.length && (text.charCodeAt(end) & 0xfc00) === 0xdc00) end++;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

/** Corpus name → sample texts: shared trajectories, generated CJK, emoji and code (deterministic). */
export function calibrationCorpora(): ReadonlyMap<string, readonly string[]> {
  return new Map<string, readonly string[]>([
    [
      "trajectories",
      trajectoryTexts()
        .map((t) => t.text)
        .filter((t) => t.length > 0),
    ],
    ["cjk", samples(cjkText(1, 200_000), 2000)],
    ["emoji", samples(emojiText(2, 200_000), 2000)],
    ["code", samples(codeText(3, 200_000), 2000)],
  ]);
}

/** Encoded-data class → sample texts of about 150 units (two lines) (base64, hex dumps, digests, binary digits, leetspeak). */
export function encodedCorpora(): ReadonlyMap<string, readonly string[]> {
  return new Map(
    encodedKinds.map((kind, k): [string, readonly string[]] => [kind, samples(encodedText(kind, 10 + k, 60_000), 150)]),
  );
}
