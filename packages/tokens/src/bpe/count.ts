/**
 * Exact token counting in TypeScript: pre-tokenise (ASCII by the hand-written scanner of
 * `bpe/scan`, the rest by the encoding's pattern), then for each piece: a piece that is itself a
 * token is 1 (ASCII pieces found in place in `AsciiTokens`, others by one lookup on the piece's
 * string; no bytes built); a piece seen recently is read from a bounded cache; anything else is encoded to
 * UTF-8 and merged: short pieces by tiktoken's own loop (`mergeCountScan`), long ones by the
 * linear backtracking encoder (`backtrackCount`). No piece is ever cut, so the count equals
 * `encode_ordinary(text).length` on every string, in time linear in the text.
 *
 * @module bpe/count
 */
import type { Encoding } from "../counter.js";
import { BacktrackTables, backtrackCount } from "./backtrack.js";
import { mergeCountScan } from "./merge.js";
import { TokenTrie } from "./trie.js";
import { patternSource } from "./pretokenize.js";
import { cl100kPieceEnd, o200kPieceEnd } from "./scan.js";
import { AsciiTokens } from "./whole.js";
import type { RankTable } from "./ranks.js";

/** Most pieces remembered by one engine's cache (cleared when full). */
export const pieceCacheEntries = 65_536;

/**
 * Pieces up to this many bytes are merged by tiktoken's scan loop, longer ones by the
 * backtracking encoder (measured: twice as fast on CJK lines at 24 as at 128, equal on letters).
 */
export const scanMaxBytes = 24;

/** Pieces longer than this (UTF-16 units) are not cached. */
export const pieceCacheMaxChars = 128;

/** Counts tokens of text under one encoding. */
export interface BpeEngine {
  /** `encode_ordinary(text).length`, computed without tiktoken. */
  count(text: string): number;
}

/** The UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD, as tiktoken sees it). */
export function utf8Bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

const encoder = new TextEncoder();
let buffer = new Uint8Array(1024);

/** Writes the UTF-8 bytes of `text` into a shared buffer; returns how many. */
function encodeShared(text: string): number {
  const n = text.length;
  let ascii = true;
  if (buffer.length < n) buffer = new Uint8Array(2 * n);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      ascii = false;
      break;
    }
    buffer[i] = c;
  }
  if (ascii) return n;
  if (buffer.length < 3 * n) buffer = new Uint8Array(3 * n);
  return encoder.encodeInto(text, buffer).written;
}

/** An engine over `table` for `encoding`. */
export function bpeEngine(encoding: Encoding, table: RankTable): BpeEngine {
  const re = new RegExp(patternSource(encoding), "yv"); // sticky: one piece at a given position
  // A null-prototype object in dictionary mode: measured several times faster than Map#has for
  // the short, freshly sliced strings the pre-tokeniser returns.
  const whole: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const [text, rank] of table.textRanks) whole[text] = rank;
  let trie: TokenTrie | undefined; // built on the first piece that is not a whole token
  let lattice: BacktrackTables | undefined; // built on the first long piece
  let cache: Record<string, number> = Object.create(null) as Record<string, number>;
  let cached = 0;
  const piece = (p: string): number => {
    const known = cache[p];
    if (known !== undefined) return known;
    const bytes = encodeShared(p); // may grow the shared buffer: read `buffer` after it
    trie ??= new TokenTrie(table);
    let n: number;
    if (bytes <= scanMaxBytes) n = mergeCountScan(buffer, bytes, table, trie);
    else {
      lattice ??= new BacktrackTables(trie);
      n = backtrackCount(buffer, bytes, lattice);
    }
    if (p.length <= pieceCacheMaxChars) {
      if (cached >= pieceCacheEntries) {
        cache = Object.create(null) as Record<string, number>;
        cached = 0;
      }
      cache[p] = n;
      cached++;
    }
    return n;
  };
  /**
   * Tokens of the short piece `text[from..to)` merged in place when it is all ASCII (no substring,
   * no cache: a fresh short piece merges faster than it is hashed and stored), else -1.
   */
  const asciiShort = (text: string, from: number, to: number): number => {
    const len = to - from;
    for (let k = 0; k < len; k++) {
      const c = text.charCodeAt(from + k);
      if (c >= 0x80) return -1; // e.g. cl100k's case-insensitive 'ſ (U+017F folds to s)
      buffer[k] = c;
    }
    trie ??= new TokenTrie(table);
    return mergeCountScan(buffer, len, table, trie);
  };
  const ascii = new AsciiTokens(table);
  const pieceEnd = encoding === "cl100k_base" ? cl100kPieceEnd : o200kPieceEnd;
  const count = (text: string): number => {
    const n = text.length;
    if (n === 0) return 0;
    if (n <= 32 && whole[text] !== undefined) return 1;
    let total = 0;
    let i = 0;
    while (i < n) {
      const end = pieceEnd(text, i, n);
      if (end >= 0) {
        if (ascii.rank(text, i, end) >= 0) total += 1;
        else {
          const short = end - i <= scanMaxBytes ? asciiShort(text, i, end) : -1;
          total += short >= 0 ? short : piece(text.slice(i, end));
        }
        i = end;
      } else {
        // A character outside ASCII decides this piece: the pattern itself splits it off.
        re.lastIndex = i;
        const p = re.exec(text)![0]; // every position starts a piece: the match is never null
        total += whole[p] !== undefined ? 1 : piece(p);
        i += p.length;
      }
    }
    return total;
  };
  return { count };
}
