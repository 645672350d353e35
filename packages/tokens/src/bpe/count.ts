/**
 * Exact token counting in TypeScript: pre-tokenise by the hand-written scanners of `bpe/scan`
 * (ASCII from char codes, the rest by Unicode 16.0 class tables), then for each piece: a short ASCII piece is
 * checked for being one token by a walk down the trie on its char codes, and merged from them in
 * place when it is not (no substring, no bytes encoded); any other piece is encoded to UTF-8
 * (hashing it on the way), read from a bounded cache when it has been seen before, else merged.
 * Merging is the linear backtracking encoder (`bpe/backtrack`). A piece enters the cache only on
 * its second sighting (a 128 KB doorkeeper of hashes remembers the first), so text that never
 * repeats costs no substring and no insertion. No piece is ever cut, so the count equals
 * `encode_ordinary(text).length` on every string, in time linear in the text.
 *
 * @module bpe/count
 */
import type { Encoding } from "../counter.js";
import { BacktrackTables, backtrackCount } from "./backtrack.js";
import { TokenTrie } from "./trie.js";
import { cl100kPieceEnd, cl100kPieceEndAny, o200kPieceEnd, o200kPieceEndAny } from "./scan.js";
import type { RankTable } from "./ranks.js";

/** Most pieces remembered by one engine's cache (cleared when full). */
export const pieceCacheEntries = 65_536;

/** ASCII pieces up to this many characters are looked up and merged in place, never cached. */
export const shortPieceChars = 24;

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

let buffer = new Uint8Array(1024);
/** FNV-1a hash of the char codes the last {@link encodeRange} read. */
let rangeHash = 0;

/**
 * Writes the UTF-8 bytes of `text[from..to)` into the shared buffer (a lone surrogate becomes
 * U+FFFD, as `TextEncoder` and tiktoken see it), hashing the char codes on the way into
 * {@link rangeHash}; returns how many bytes. The range never splits a surrogate pair: pieces end
 * on code point boundaries.
 */
function encodeRange(text: string, from: number, to: number): number {
  if (buffer.length < 3 * (to - from)) buffer = new Uint8Array(6 * (to - from));
  const out = buffer;
  let h = 0x811c9dc5;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    h = Math.imul(h ^ c, 0x01000193);
    if (c < 0x80) out[n++] = c;
    else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 63);
    } else if (c < 0xd800 || c > 0xdfff) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 63);
      out[n++] = 0x80 | (c & 63);
    } else {
      const d = i + 1 < to ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        i++;
        h = Math.imul(h ^ d, 0x01000193);
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out[n++] = 0xf0 | (cp >> 18);
        out[n++] = 0x80 | ((cp >> 12) & 63);
        out[n++] = 0x80 | ((cp >> 6) & 63);
        out[n++] = 0x80 | (cp & 63);
      } else {
        out[n++] = 0xef; // U+FFFD
        out[n++] = 0xbf;
        out[n++] = 0xbd;
      }
    }
  }
  rangeHash = h;
  return n;
}

/** The UTF-8 bytes of `text[from..to)` exactly as an engine encodes a piece (a copy). */
export function utf8Range(text: string, from: number, to: number): Uint8Array {
  const n = encodeRange(text, from, to); // may replace the buffer: read it after
  return buffer.slice(0, n);
}

/** Bits in an engine's doorkeeper (128 KB): the hashes of pieces seen once. */
const doorBits = 1 << 20;

/** An engine over `table` for `encoding`. */
export function bpeEngine(encoding: Encoding, table: RankTable): BpeEngine {
  let ranks: RankTable | undefined = table; // dropped once the tables are built (tens of MB of maps)
  let lattice: BacktrackTables | undefined; // built on the first count
  let cache: Record<string, number> = Object.create(null) as Record<string, number>;
  let cached = 0;
  // A piece enters the cache on its second sighting: the first one only sets its bit here, so
  // text that never repeats (random letters, base64, hashes) pays no substring and no insertion.
  const door = new Int32Array(doorBits >>> 5);
  let doorMarks = 0;
  /** Tokens of the piece `text[from..to)` (`p` when the piece string exists already). */
  const piece = (t: BacktrackTables, text: string, from: number, to: number, p: string | undefined): number => {
    const n = encodeRange(text, from, to); // may replace the shared buffer: read it after
    if (to - from > pieceCacheMaxChars) return backtrackCount(buffer, n, t);
    const bit = rangeHash >>> 12;
    const mask = 1 << (bit & 31);
    if ((door[bit >>> 5]! & mask) === 0) {
      door[bit >>> 5] = door[bit >>> 5]! | mask;
      if (++doorMarks >= doorBits >>> 3) {
        door.fill(0);
        doorMarks = 0;
      }
      return backtrackCount(buffer, n, t);
    }
    const key = p ?? text.slice(from, to);
    const known = cache[key];
    if (known !== undefined) return known;
    const tokens = backtrackCount(buffer, n, t);
    if (cached >= pieceCacheEntries) {
      cache = Object.create(null) as Record<string, number>;
      cached = 0;
    }
    cache[key] = tokens;
    cached++;
    return tokens;
  };
  const pieceEnd = encoding === "cl100k_base" ? cl100kPieceEnd : o200kPieceEnd;
  const pieceEndAny = encoding === "cl100k_base" ? cl100kPieceEndAny : o200kPieceEndAny;
  const count = (text: string): number => {
    const n = text.length;
    if (n === 0) return 0;
    if (lattice === undefined) {
      lattice = new BacktrackTables(new TokenTrie(ranks!));
      ranks = undefined;
    }
    const t = lattice;
    let total = 0;
    let i = 0;
    while (i < n) {
      const end = pieceEnd(text, i, n);
      if (end >= 0) {
        // A short ASCII piece: one token, or merged from its char codes in place (no substring,
        // no cache: a fresh short piece merges faster than it is hashed and stored).
        const whole = end - i <= shortPieceChars ? t.wholeAscii(text, i, end) : -2;
        if (whole === 1) total += 1;
        else if (whole === -1) {
          for (let k = i; k < end; k++) buffer[k - i] = text.charCodeAt(k);
          total += backtrackCount(buffer, end - i, t);
        } else total += piece(t, text, i, end, undefined);
        i = end;
      } else {
        // A character outside ASCII decides this piece: the full scanner (Unicode 16.0 classes) ends it.
        const e = pieceEndAny(text, i, n);
        total += piece(t, text, i, e, undefined);
        i = e;
      }
    }
    return total;
  };
  return { count };
}
