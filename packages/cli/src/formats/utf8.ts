/**
 * Decoding transcript bytes: strict UTF-8 first; invalid input is decoded leniently (U+FFFD for
 * each bad sequence) with a warning that names the byte offset of the first invalid sequence.
 *
 * @module formats/utf8
 */

/** Decoded text and, when the bytes were not valid UTF-8, the warning that says where. */
export interface DecodedText {
  readonly text: string;
  /** Set when some bytes were replaced by U+FFFD. */
  readonly warning: string | undefined;
}

const isCont = (b: number | undefined): boolean => b !== undefined && (b & 0xc0) === 0x80;

/**
 * The byte offset of the first invalid UTF-8 sequence in `bytes` (a stray continuation byte, an
 * overlong form, a surrogate, a code point above U+10FFFF, a truncated sequence), or `undefined`
 * when all of it is valid.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const b1 = bytes[i + 1];
    if (b >= 0xc2 && b <= 0xdf) {
      if (!isCont(b1)) return i;
      i += 2;
      continue;
    }
    if (b >= 0xe0 && b <= 0xef) {
      // E0: no overlong (A0..BF); ED: no surrogates (80..9F).
      const lo = b === 0xe0 ? 0xa0 : 0x80;
      const hi = b === 0xed ? 0x9f : 0xbf;
      if (b1 === undefined || b1 < lo || b1 > hi || !isCont(bytes[i + 2])) return i;
      i += 3;
      continue;
    }
    if (b >= 0xf0 && b <= 0xf4) {
      // F0: no overlong (90..BF); F4: at most U+10FFFF (80..8F).
      const lo = b === 0xf0 ? 0x90 : 0x80;
      const hi = b === 0xf4 ? 0x8f : 0xbf;
      if (b1 === undefined || b1 < lo || b1 > hi || !isCont(bytes[i + 2]) || !isCont(bytes[i + 3])) return i;
      i += 4;
      continue;
    }
    return i;
  }
  return undefined;
}

/**
 * Decodes `bytes` as UTF-8 with a fatal decoder; on failure decodes leniently and returns a
 * warning naming `source` and the byte offset of the first invalid sequence. A leading BOM is dropped.
 *
 * @example
 * decodeTranscriptBytes(new Uint8Array([0x5b, 0xff, 0x5d]), "a.json").warning
 * // "a.json: invalid UTF-8 at byte offset 1 (…replaced by U+FFFD)"
 */
export function decodeTranscriptBytes(bytes: Uint8Array, source: string): DecodedText {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), warning: undefined };
  } catch {
    const text = new TextDecoder("utf-8").decode(bytes);
    const at = firstInvalidUtf8(bytes);
    const bad = [...text].filter((c) => c === "\uFFFD").length;
    return {
      text,
      warning: `${source}: invalid UTF-8 at byte offset ${at ?? "unknown"}; ${bad} character${bad === 1 ? "" : "s"} replaced by U+FFFD`,
    };
  }
}
