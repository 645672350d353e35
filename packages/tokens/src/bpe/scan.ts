/**
 * The pre-tokeniser's split, written out by hand: where the piece that starts at `i` ends,
 * decided from char codes and a table of code point classes, with no regular expression, no
 * match array and no substring.
 *
 * Each function follows the alternatives of its pattern (see the reference pretokenizer, `test/support/pretokenize.ts`) in order, with
 * the regex engine's backtracking resolved case by case. The ASCII scanners
 * ({@link o200kPieceEnd}, {@link cl100kPieceEnd}) return -1 whenever a character outside ASCII
 * could extend or end the piece; the caller then asks the full scanners
 * ({@link o200kPieceEndAny}, {@link cl100kPieceEndAny}), which class every code point by the
 * generated Unicode 16.0 tables of `bpe/unicode` (the version tiktoken's regex crate has, not the
 * runtime's). Property tests check both against the pattern, and a test scans every code point
 * against `encode_ordinary`.
 *
 * @module bpe/scan
 */
import { caselessLetters, lowerLetters, marks, numbers, upperLetters, whiteSpaces } from "./unicode.js";

/** Character class of each ASCII code: the pattern's categories restricted to ASCII. */
const OTHER = 0; // punctuation, symbols, controls: neither letter, digit nor white space
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const SPACE = 4; // \t \v \f and the space
const NEWLINE = 5; // \r \n
const CASELESS = 6; // Lm, Lo: in both of o200k's letter classes (none in ASCII)
const MARK = 7; // M: in both of o200k's letter classes, yet not a letter (none in ASCII)

const cls = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c >= 65 && c <= 90) cls[c] = UPPER;
  else if (c >= 97 && c <= 122) cls[c] = LOWER;
  else if (c >= 48 && c <= 57) cls[c] = DIGIT;
  else if (c === 10 || c === 13) cls[c] = NEWLINE;
  else if (c === 9 || c === 11 || c === 12 || c === 32) cls[c] = SPACE;
  else cls[c] = OTHER;
}

const BAIL = -1;

/** End of the white-space piece at `i` (alternatives `\s*[\r\n]+`, `\s+(?!\S)`, `\s+`), or -1. */
function spaceEnd(text: string, i: number, n: number): number {
  let j = i;
  let lastNewline = -1;
  while (j < n) {
    const d = text.charCodeAt(j);
    if (d >= 128) return BAIL; // another script's white space extends the run
    const k = cls[d]!;
    if (k === NEWLINE) lastNewline = j;
    else if (k !== SPACE) break;
    j++;
  }
  if (lastNewline >= 0) return lastNewline + 1;
  if (j === n || j - i === 1) return j;
  return j - 1; // the last space goes with what follows
}

/** End of the digit piece at `i` (`\p{N}{1,3}`), or -1. */
function digitEnd(text: string, i: number, n: number): number {
  let j = i + 1;
  const max = Math.min(n, i + 3);
  while (j < max) {
    const d = text.charCodeAt(j);
    if (d >= 128) return BAIL; // may be a digit of another script
    if (cls[d] !== DIGIT) break;
    j++;
  }
  return j;
}

/** End of the punctuation run starting at `j`, then its tail of `\r`, `\n` (and `/` when `slash`), or -1. */
function punctEnd(text: string, j: number, n: number, slash: boolean): number {
  while (j < n) {
    const d = text.charCodeAt(j);
    if (d >= 128) return BAIL;
    if (cls[d] !== OTHER) break;
    j++;
  }
  while (j < n) {
    const d = text.charCodeAt(j);
    if (d === 10 || d === 13 || (slash && d === 47)) j++;
    else break;
  }
  return j;
}

/** Length of an o200k/cl100k contraction (`'s`, `'RE`, …) at `j`, 0 if none, -1 if undecidable in ASCII. */
function contraction(text: string, j: number, n: number): number {
  if (j + 1 >= n || text.charCodeAt(j) !== 39) return 0;
  const e = text.charCodeAt(j + 1);
  if (e >= 128) return e === 0x17f ? 2 : 0; // the long s folds to s
  const lower = e | 32;
  if (lower === 115 || lower === 116 || lower === 109 || lower === 100) return 2; // s t m d
  if (j + 2 >= n) return 0;
  const f = text.charCodeAt(j + 2) | 32;
  if ((lower === 114 || lower === 118) && f === 101) return 3; // re ve
  if (lower === 108 && f === 108) return 3; // ll
  return 0;
}

/** o200k: end of the word at `s` (`[Lu…]*[Ll…]+` or `[Lu…]+[Ll…]*`, then a contraction), or -1. */
function o200kWordEnd(text: string, s: number, n: number): number {
  let j = s;
  while (j < n) {
    const d = text.charCodeAt(j);
    if (d >= 128) return BAIL; // marks and other-script letters join words
    if (cls[d] !== UPPER) break;
    j++;
  }
  while (j < n) {
    const d = text.charCodeAt(j);
    if (d >= 128) return BAIL;
    if (cls[d] !== LOWER) break;
    j++;
  }
  return j + contraction(text, j, n);
}

/** cl100k: end of the letter run at `s` (`\p{L}+`), or -1. */
function cl100kWordEnd(text: string, s: number, n: number): number {
  let j = s;
  while (j < n) {
    const d = text.charCodeAt(j);
    if (d >= 128) return BAIL;
    const k = cls[d]!;
    if (k !== UPPER && k !== LOWER) break;
    j++;
  }
  return j;
}

/**
 * The end of the piece that starts at `text[i]` under o200k_base's pattern (`o200k`) or
 * cl100k_base's, or -1 when a character outside ASCII decides it. The patterns differ in three
 * places: cl100k takes a contraction as a piece of its own, o200k appends it to the word; their
 * words are letter runs (cl100k) or case-shaped (o200k); o200k's punctuation run takes a trailing
 * `/`. One function with the encoding as a flag measured as fast as two written-out copies
 * (a 2.9 MB ASCII text, both encodings, medians of 15 interleaved rounds: 0.95–1.12× in three runs).
 */
function pieceEnd(text: string, i: number, n: number, o200k: boolean): number {
  const c = text.charCodeAt(i);
  if (c >= 128) return BAIL;
  if (!o200k && c === 39) {
    const m = contraction(text, i, n);
    if (m > 0) return i + m;
  }
  const k = cls[c]!;
  if (k === UPPER || k === LOWER) return o200k ? o200kWordEnd(text, i, n) : cl100kWordEnd(text, i, n);
  if (k === DIGIT) return digitEnd(text, i, n);
  if (k === NEWLINE) return spaceEnd(text, i, n);
  // OTHER or SPACE: may prefix a word.
  if (i + 1 < n) {
    const d = text.charCodeAt(i + 1);
    if (d >= 128) return BAIL;
    const e = cls[d]!;
    if (e === UPPER || e === LOWER) return o200k ? o200kWordEnd(text, i + 1, n) : cl100kWordEnd(text, i + 1, n);
    if (k === OTHER) return punctEnd(text, i, n, o200k);
    if (c === 32 && e === OTHER) return punctEnd(text, i + 1, n, o200k);
    return spaceEnd(text, i, n);
  }
  return i + 1;
}

/**
 * o200k_base: the end of the piece that starts at `text[i]`, or -1 when a character outside ASCII
 * decides it.
 */
export function o200kPieceEnd(text: string, i: number, n: number): number {
  return pieceEnd(text, i, n, true);
}

/**
 * cl100k_base: the end of the piece that starts at `text[i]`, or -1 when a character outside
 * ASCII decides it.
 */
export function cl100kPieceEnd(text: string, i: number, n: number): number {
  return pieceEnd(text, i, n, false);
}

/** Bit masks over the classes: which of them each character class of the patterns holds. */
const bit = (...classes: readonly number[]): number => classes.reduce((m, k) => m | (1 << k), 0);
/** o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`. */
const UPPERS = bit(UPPER, CASELESS, MARK);
/** o200k's `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`. */
const LOWERS = bit(LOWER, CASELESS, MARK);
/** `\p{L}`. */
const LETTERS = bit(UPPER, LOWER, CASELESS);
/** `[^\r\n\p{L}\p{N}]`: what may prefix a word. */
const PREFIX = bit(OTHER, SPACE, MARK);
/** `[^\s\p{L}\p{N}]`: punctuation runs. */
const PUNCT = bit(OTHER, MARK);

/** The class of every code point, two-level: `blocks[index[cp >> 8] * 256 + (cp & 255)]`. */
interface ClassTable {
  readonly index: Uint16Array;
  readonly blocks: Uint8Array;
}

let table: ClassTable | undefined;

/** Builds the class table from the generated ranges (~10 ms; blocks of 256 shared when equal). */
function classTable(): ClassTable {
  if (table !== undefined) return table;
  const flat = new Uint8Array(0x110000);
  const put = (list: readonly number[], k: number): void => {
    for (let r = 0; r < list.length; r += 2) flat.fill(k, list[r]!, list[r + 1]! + 1);
  };
  put(upperLetters, UPPER);
  put(lowerLetters, LOWER);
  put(caselessLetters, CASELESS);
  put(marks, MARK);
  put(numbers, DIGIT);
  put(whiteSpaces, SPACE);
  flat[10] = NEWLINE;
  flat[13] = NEWLINE;
  const index = new Uint16Array(0x1100);
  const seen = new Map<string, number>();
  const unique: Uint8Array[] = [];
  for (let b = 0; b < 0x1100; b++) {
    const block = flat.subarray(b << 8, (b + 1) << 8);
    const key = String.fromCharCode(...block);
    let id = seen.get(key);
    if (id === undefined) {
      id = unique.length;
      seen.set(key, id);
      unique.push(block);
    }
    index[b] = id;
  }
  const blocks = new Uint8Array(unique.length << 8);
  unique.forEach((block, id) => blocks.set(block, id << 8));
  table = { index, blocks };
  return table;
}

/** The code point at `j` (a lone surrogate is its own code unit, of class OTHER). */
function codePointAt(text: string, j: number, n: number): number {
  const c = text.charCodeAt(j);
  if (c >= 0xd800 && c <= 0xdbff && j + 1 < n) {
    const d = text.charCodeAt(j + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
  }
  return c;
}

/** The class of code point `cp`. */
function classOf(t: ClassTable, cp: number): number {
  return t.blocks[(t.index[cp >>> 8]! << 8) | (cp & 255)]!;
}

/** End of the run from `j` of code points whose class is in `mask`. */
function runEnd(t: ClassTable, text: string, j: number, n: number, mask: number): number {
  while (j < n) {
    const cp = codePointAt(text, j, n);
    if (((mask >>> classOf(t, cp)) & 1) === 0) break;
    j += cp > 0xffff ? 2 : 1;
  }
  return j;
}

/**
 * o200k's `[Lu…]*[Ll…]+` then a contraction, at `j`, backtracking as the regex engine does: when
 * no lower-class character follows the upper run, the match ends after the run's last character
 * that is in both classes (Lm, Lo, M). -1 when it does not match.
 */
function o200kLowerWord(t: ClassTable, text: string, j: number, n: number): number {
  let k = j;
  let afterLastLower = -1;
  while (k < n) {
    const cp = codePointAt(text, k, n);
    const c = classOf(t, cp);
    if (((UPPERS >>> c) & 1) === 0) break;
    k += cp > 0xffff ? 2 : 1;
    if (((LOWERS >>> c) & 1) !== 0) afterLastLower = k;
  }
  const m = runEnd(t, text, k, n, LOWERS);
  if (m > k) return m + contraction(text, m, n);
  return afterLastLower < 0 ? -1 : afterLastLower + contraction(text, afterLastLower, n);
}

/** o200k's `[Lu…]+[Ll…]*` then a contraction, at `j`; -1 when it does not match. */
function o200kUpperWord(t: ClassTable, text: string, j: number, n: number): number {
  const k = runEnd(t, text, j, n, UPPERS);
  if (k === j) return -1;
  const m = runEnd(t, text, k, n, LOWERS);
  return m + contraction(text, m, n);
}

/** `\p{N}{1,3}` at `i` (a digit there): up to three code points. */
function digitEndAny(t: ClassTable, text: string, i: number, n: number): number {
  let j = i;
  for (let k = 0; k < 3 && j < n; k++) {
    const cp = codePointAt(text, j, n);
    if (classOf(t, cp) !== DIGIT) break;
    j += cp > 0xffff ? 2 : 1;
  }
  return j;
}

/** `[^\s\p{L}\p{N}]+` from `j`, then its tail of `\r`, `\n` (and `/` when `slash`). */
function punctEndAny(t: ClassTable, text: string, j: number, n: number, slash: boolean): number {
  j = runEnd(t, text, j, n, PUNCT);
  while (j < n) {
    const d = text.charCodeAt(j);
    if (d === 10 || d === 13 || (slash && d === 47)) j++;
    else break;
  }
  return j;
}

/** The white-space alternatives (`\s*[\r\n]+`, `\s+(?!\S)`, `\s+`) at `i` (white space there). */
function spaceEndAny(t: ClassTable, text: string, i: number, n: number): number {
  let j = i;
  let lastNewline = -1;
  while (j < n) {
    const k = classOf(t, codePointAt(text, j, n));
    if (k === NEWLINE) lastNewline = j;
    else if (k !== SPACE) break;
    j++; // every white-space character is one code unit
  }
  if (lastNewline >= 0) return lastNewline + 1;
  if (j === n || j - i === 1) return j;
  return j - 1;
}

/** Whether the code point at `j` (< n) is in `mask`. */
function isAt(t: ClassTable, text: string, j: number, n: number, mask: number): boolean {
  return ((mask >>> classOf(t, codePointAt(text, j, n))) & 1) !== 0;
}

/** o200k_base: the end of the piece that starts at `text[i]`, for any text. */
export function o200kPieceEndAny(text: string, i: number, n: number): number {
  const t = table ?? classTable();
  const cp = codePointAt(text, i, n);
  const next = i + (cp > 0xffff ? 2 : 1);
  const c = classOf(t, cp);
  const prefix = ((PREFIX >>> c) & 1) !== 0 && next < n;
  // Alternative 1, `[^\r\n\p{L}\p{N}]?[Lu…]*[Ll…]+'s?`: with the prefix, then without it.
  if (prefix) {
    const e = o200kLowerWord(t, text, next, n);
    if (e >= 0) return e;
  }
  if (((UPPERS | LOWERS) >>> c) & 1) {
    const e = o200kLowerWord(t, text, i, n);
    if (e >= 0) return e;
  }
  // Alternative 2, `…?[Lu…]+[Ll…]*'s?`: with the prefix, then without it.
  if (prefix) {
    const e = o200kUpperWord(t, text, next, n);
    if (e >= 0) return e;
  }
  if ((UPPERS >>> c) & 1) return o200kUpperWord(t, text, i, n);
  if (c === DIGIT) return digitEndAny(t, text, i, n);
  if ((PUNCT >>> c) & 1) return punctEndAny(t, text, i, n, true);
  if (cp === 32 && next < n && isAt(t, text, next, n, PUNCT)) return punctEndAny(t, text, next, n, true);
  return spaceEndAny(t, text, i, n);
}

/** cl100k_base: the end of the piece that starts at `text[i]`, for any text. */
export function cl100kPieceEndAny(text: string, i: number, n: number): number {
  const t = table ?? classTable();
  const cp = codePointAt(text, i, n);
  if (cp === 39) {
    const m = contraction(text, i, n);
    if (m > 0) return i + m;
  }
  const next = i + (cp > 0xffff ? 2 : 1);
  const c = classOf(t, cp);
  if ((LETTERS >>> c) & 1) return runEnd(t, text, i, n, LETTERS);
  if ((PREFIX >>> c) & 1 && next < n && isAt(t, text, next, n, LETTERS)) return runEnd(t, text, next, n, LETTERS);
  if (c === DIGIT) return digitEndAny(t, text, i, n);
  if ((PUNCT >>> c) & 1) return punctEndAny(t, text, i, n, false);
  if (cp === 32 && next < n && isAt(t, text, next, n, PUNCT)) return punctEndAny(t, text, next, n, false);
  return spaceEndAny(t, text, i, n);
}

/** A piece end finder: where the piece that starts at `text[i]` ends (-1: ask the full scanner). */
export type PieceEnd = (text: string, i: number, n: number) => number;

/**
 * The pieces of `text` as the engine splits it: the ASCII scanner `pieceEnd` where it decides,
 * the full scanner `pieceEndAny` where it returns -1. The engine inlines this loop; tests compare
 * it with the pattern.
 */
export function splitPieces(text: string, pieceEnd: PieceEnd, pieceEndAny: PieceEnd): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let end = pieceEnd(text, i, n);
    if (end < 0) end = pieceEndAny(text, i, n);
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}
