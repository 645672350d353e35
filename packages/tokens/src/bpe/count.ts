/**
 * Exact token counting in TypeScript: pre-tokenise with the encoding's pattern, then for each
 * piece: a piece that is itself a token is 1 (one map lookup on the piece's own string, no
 * bytes built); a piece seen recently is read from a bounded cache; anything else is encoded to
 * UTF-8 and merged (see `mergeCount`). No piece is ever cut, so the count equals
 * `encode_ordinary(text).length` on every string, and the merge is O(n log n) on long pieces.
 *
 * @module bpe/count
 */
import type { Encoding } from "../counter.js";
import { mergeCount } from "./merge.js";
import { pretokenizer } from "./pretokenize.js";
import type { RankTable } from "./ranks.js";

/** Most pieces remembered by one engine's cache (cleared when full). */
export const pieceCacheEntries = 65_536;

/** Pieces longer than this (UTF-16 units) are not cached. */
export const pieceCacheMaxChars = 128;

/** Counts tokens of text under one encoding. */
export interface BpeEngine {
  /** `encode_ordinary(text).length`, computed without tiktoken. */
  count(text: string): number;
}

/** The UTF-8 bytes of `text` as a binary string (a lone surrogate becomes U+FFFD, as tiktoken sees it). */
export function utf8Binary(text: string): string {
  return Buffer.from(text, "utf8").toString("latin1");
}

/** An engine over `table` for `encoding`. */
export function bpeEngine(encoding: Encoding, table: RankTable): BpeEngine {
  const re = pretokenizer(encoding);
  const textRanks = table.textRanks;
  const byteRanks = table.byteRanks;
  let cache = new Map<string, number>();
  const piece = (p: string): number => {
    if (textRanks.has(p)) return 1;
    const known = cache.get(p);
    if (known !== undefined) return known;
    const n = mergeCount(utf8Binary(p), byteRanks);
    if (p.length <= pieceCacheMaxChars) {
      if (cache.size >= pieceCacheEntries) cache = new Map();
      cache.set(p, n);
    }
    return n;
  };
  const count = (text: string): number => {
    if (text.length === 0) return 0;
    if (textRanks.has(text)) return 1;
    const pieces = text.match(re);
    if (pieces === null) return 0;
    let total = 0;
    for (let i = 0; i < pieces.length; i++) total += piece(pieces[i]!);
    return total;
  };
  return { count };
}
