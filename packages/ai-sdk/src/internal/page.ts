/**
 * Paging of a long original text without splitting a surrogate pair.
 *
 * @module internal/page
 */

/**
 * One page of a text.
 *
 * @example const page: TextPage = { content: "abc", offset: 0, nextOffset: 3 };
 */
export interface TextPage {
  readonly content: string;
  /** Where the page starts (moved back onto a code point boundary). */
  readonly offset: number;
  /** Where the next page starts; absent when this page reaches the end. */
  readonly nextOffset?: number;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
const splitsPair = (text: string, at: number): boolean => at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at));

/**
 * The page of `text` from `offset` of at most `maxChars` UTF-16 units (one more when a lone
 * surrogate pair is the page's only code point, so paging always advances). Pure.
 *
 * @example textPage("a😀b", 1, 1) // { content: "😀", offset: 1, nextOffset: 3 }
 */
export function textPage(text: string, offset: number, maxChars: number): TextPage {
  const step = Number.isSafeInteger(maxChars) && maxChars >= 1 ? maxChars : 1;
  let from = Number.isSafeInteger(offset) && offset > 0 ? Math.min(offset, text.length) : 0;
  if (splitsPair(text, from)) from--;
  let to = Math.min(text.length, from + step);
  if (splitsPair(text, to)) to = to - 1 > from ? to - 1 : to + 1;
  return { content: text.slice(from, to), offset: from, ...(to < text.length ? { nextOffset: to } : {}) };
}
