/**
 * Paging of a long original without splitting a surrogate pair: the one paging function every
 * face's `expand_context` uses (through the tool core).
 *
 * @module page
 */

/**
 * One page of a text.
 *
 * @example const page: TextPage = { content: "abc", offset: 0, nextOffset: 3 };
 */
export interface TextPage {
  readonly content: string;
  /** Where the page starts (the requested offset, moved back onto a code point boundary). */
  readonly offset: number;
  /** Where the next page starts; absent when this page reaches the end. */
  readonly nextOffset?: number;
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
/** True when `at` falls between the two halves of a surrogate pair of `text`. */
const splitsPair = (text: string, at: number): boolean =>
  at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at));

/**
 * The page of `text` from `offset` holding at most `maxChars` UTF-16 code units (pure) — the one
 * paging function of every face. Pages never split a surrogate pair (lone surrogates are ordinary
 * units): an offset inside a pair moves back to its start, a page end inside one moves back before
 * it — or, when the pair is the page's only code point, past it, so a page always advances by at
 * least one whole code point (it is then one unit over `maxChars`). Following `nextOffset` from 0
 * visits `text` exactly once.
 *
 * @example textPage("a😀b", 1, 1) // { content: "😀", offset: 1, nextOffset: 3 }
 */
export function textPage(text: string, offset: number, maxChars: number): TextPage {
  const total = text.length;
  const step = Number.isSafeInteger(maxChars) && maxChars >= 1 ? maxChars : 1;
  let from = Number.isSafeInteger(offset) && offset > 0 ? Math.min(offset, total) : 0;
  if (splitsPair(text, from)) from--;
  let to = Math.min(total, from + step);
  if (splitsPair(text, to)) to = to - 1 > from ? to - 1 : to + 1;
  return { content: text.slice(from, to), offset: from, ...(to < total ? { nextOffset: to } : {}) };
}
