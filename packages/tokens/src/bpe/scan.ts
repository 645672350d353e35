/**
 * The pre-tokeniser's split, written out by hand for ASCII text: where the piece that starts at
 * `i` ends, decided from char codes with no regular expression, no match array and no substring.
 *
 * Each function follows the alternatives of its pattern (see `bpe/pretokenize`) in order, with
 * the regex engine's backtracking resolved case by case. Whenever the answer could depend on a
 * character outside ASCII (a letter, mark, digit or space of another script may extend or end the
 * piece), it returns -1 and the caller asks the regular expression for that one piece, so the
 * split is identical to the pattern's on every string (a property test checks it).
 *
 * @module bpe/scan
 */

/** Character class of each ASCII code: the pattern's categories restricted to ASCII. */
const OTHER = 0; // punctuation, symbols, controls: neither letter, digit nor white space
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const SPACE = 4; // \t \v \f and the space
const NEWLINE = 5; // \r \n

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

/**
 * o200k_base: the end of the piece that starts at `text[i]`, or -1 when a character outside ASCII
 * decides it.
 */
export function o200kPieceEnd(text: string, i: number, n: number): number {
  const c = text.charCodeAt(i);
  if (c >= 128) return BAIL;
  const k = cls[c]!;
  if (k === UPPER || k === LOWER) return o200kWordEnd(text, i, n);
  if (k === DIGIT) return digitEnd(text, i, n);
  if (k === NEWLINE) return spaceEnd(text, i, n);
  // OTHER or SPACE: may prefix a word.
  if (i + 1 < n) {
    const d = text.charCodeAt(i + 1);
    if (d >= 128) return BAIL;
    const e = cls[d]!;
    if (e === UPPER || e === LOWER) return o200kWordEnd(text, i + 1, n);
    if (k === OTHER) return punctEnd(text, i, n, true);
    if (c === 32 && e === OTHER) return punctEnd(text, i + 1, n, true);
    return spaceEnd(text, i, n);
  }
  return i + 1;
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
 * cl100k_base: the end of the piece that starts at `text[i]`, or -1 when a character outside
 * ASCII decides it.
 */
export function cl100kPieceEnd(text: string, i: number, n: number): number {
  const c = text.charCodeAt(i);
  if (c >= 128) return BAIL;
  if (c === 39) {
    const m = contraction(text, i, n);
    if (m > 0) return i + m;
  }
  const k = cls[c]!;
  if (k === UPPER || k === LOWER) return cl100kWordEnd(text, i, n);
  if (k === DIGIT) return digitEnd(text, i, n);
  if (k === NEWLINE) return spaceEnd(text, i, n);
  if (i + 1 < n) {
    const d = text.charCodeAt(i + 1);
    if (d >= 128) return BAIL;
    const e = cls[d]!;
    if (e === UPPER || e === LOWER) return cl100kWordEnd(text, i + 1, n);
    if (k === OTHER) return punctEnd(text, i, n, false);
    if (c === 32 && e === OTHER) return punctEnd(text, i + 1, n, false);
    return spaceEnd(text, i, n);
  }
  return i + 1;
}

/**
 * The pieces of `text` as the engine splits it: {@link o200kPieceEnd} / {@link cl100kPieceEnd}
 * where they decide, `sticky` (the encoding's pattern with flags `yv`) where they return -1. The
 * engine inlines this loop; tests compare it with the pattern alone.
 */
export function splitPieces(text: string, pieceEnd: (text: string, i: number, n: number) => number, sticky: RegExp): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const end = pieceEnd(text, i, n);
    if (end >= 0) {
      out.push(text.slice(i, end));
      i = end;
    } else {
      sticky.lastIndex = i;
      const p = sticky.exec(text)![0];
      out.push(p);
      i += p.length;
    }
  }
  return out;
}
