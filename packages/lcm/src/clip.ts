/**
 * Surrogate-safe text cutting: head and tail slices that never split a UTF-16 surrogate pair,
 * and the visible marker that says how much was left out.
 *
 * @module clip
 */

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * Moves a cut position `index` of `text` off the middle of a surrogate pair (to the pair's start).
 * Lone surrogates are data and are left alone.
 *
 * @example safeIndex("a😀b", 2) // 1 — the emoji occupies indices 1..2
 */
export function safeIndex(text: string, index: number): number {
  const i = Math.max(0, Math.min(text.length, Math.floor(index)));
  if (i > 0 && i < text.length && isHigh(text.charCodeAt(i - 1)) && isLow(text.charCodeAt(i))) return i - 1;
  return i;
}

/** The first at most `chars` UTF-16 units of `text`, never ending inside a surrogate pair. */
export function headOf(text: string, chars: number): string {
  if (chars >= text.length) return text;
  return text.slice(0, safeIndex(text, chars));
}

/** The last at most `chars` UTF-16 units of `text`, never starting inside a surrogate pair. */
export function tailOf(text: string, chars: number): string {
  if (chars >= text.length) return text;
  if (chars <= 0) return "";
  const start = text.length - Math.floor(chars);
  const i = start > 0 && isHigh(text.charCodeAt(start - 1)) && isLow(text.charCodeAt(start)) ? start + 1 : start;
  return text.slice(i);
}

/**
 * The visible marker placed where text was cut.
 *
 * @example omissionMarker(1234) // "[… 1234 chars omitted …]"
 */
export function omissionMarker(omittedChars: number): string {
  return `[… ${omittedChars} chars omitted …]`;
}

/**
 * Keeps the first `head` and last `tail` characters of `text` with an {@link omissionMarker}
 * between them; returns `text` unchanged when it already fits in `head + tail` characters.
 *
 * @example clipHeadTail("abcdefghij", 2, 2) // "ab\n[… 6 chars omitted …]\nij"
 */
export function clipHeadTail(text: string, head: number, tail: number): string {
  const h = Math.max(0, Math.floor(head));
  const t = Math.max(0, Math.floor(tail));
  if (text.length <= h + t) return text;
  const first = headOf(text, h);
  const last = tailOf(text, t);
  const omitted = text.length - first.length - last.length;
  return `${first}\n${omissionMarker(omitted)}\n${last}`;
}
