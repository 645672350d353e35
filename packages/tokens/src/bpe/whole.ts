/**
 * The ASCII tokens of an encoding in an open-addressing table keyed by their characters, so a
 * piece of a longer string is looked up in place: hashed from its char codes and compared with the
 * stored bytes, with no substring made. Most pieces of English prose, code and logs are one token
 * found here.
 *
 * @module bpe/whole
 */
import type { RankTable } from "./ranks.js";

/** Tokens longer than this are left out (pieces that long are rare and go the general way). */
export const wholeMaxChars = 64;

/** Hash of `text[from..to)` (FNV-1a over the char codes). */
function hashOf(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Whether every char code of `text` is below 128. */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 128) return false;
  return true;
}

/** Every all-ASCII token of up to {@link wholeMaxChars} characters, with its rank. */
export class AsciiTokens {
  /** Per slot: hash, rank (-1 when empty), offset of the bytes in `chars`, length. */
  private readonly slots: Int32Array;
  private readonly chars: Uint8Array;
  private readonly mask: number;
  private readonly shift: number;
  /**
   * One bit per hash of a token (2^20 bits, 128 KB: stays in cache), so a piece that is not a
   * token (random letters, base64, identifiers) is mostly refused without a probe of the table.
   */
  private readonly bits = new Int32Array(1 << 15);

  /** Builds the table from the text-keyed ranks of `table`. */
  constructor(table: RankTable) {
    const entries: [string, number][] = [];
    let total = 0;
    for (const [text, rank] of table.textRanks) {
      if (text.length > wholeMaxChars || !isAscii(text)) continue;
      entries.push([text, rank]);
      total += text.length;
    }
    let size = 1;
    while (size < 2 * entries.length) size <<= 1;
    this.mask = size - 1;
    this.shift = Math.clz32(this.mask);
    this.slots = new Int32Array(4 * size);
    for (let s = 0; s < size; s++) this.slots[4 * s + 1] = -1;
    this.chars = new Uint8Array(total);
    let at = 0;
    for (const [text, rank] of entries) {
      const h = hashOf(text, 0, text.length);
      this.bits[h >>> 17] = this.bits[h >>> 17]! | (1 << ((h >>> 12) & 31));
      let s = Math.imul(h, 0x9e3779b1) >>> this.shift;
      while (this.slots[4 * s + 1] !== -1) s = (s + 1) & this.mask;
      this.slots[4 * s] = h;
      this.slots[4 * s + 1] = rank;
      this.slots[4 * s + 2] = at;
      this.slots[4 * s + 3] = text.length;
      for (let i = 0; i < text.length; i++) this.chars[at++] = text.charCodeAt(i);
    }
  }

  /** The rank of the token spelled by `text[from..to)` (ASCII), or -1. */
  rank(text: string, from: number, to: number): number {
    const len = to - from;
    if (len > wholeMaxChars) return -1;
    const h = hashOf(text, from, to);
    if ((this.bits[h >>> 17]! & (1 << ((h >>> 12) & 31))) === 0) return -1;
    const slots = this.slots;
    const mask = this.mask;
    let s = Math.imul(h, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const base = 4 * s;
      const r = slots[base + 1]!;
      if (r === -1) return -1;
      if (slots[base] === h && slots[base + 3] === len) {
        const off = slots[base + 2]!;
        let i = 0;
        while (i < len && this.chars[off + i] === text.charCodeAt(from + i)) i++;
        if (i === len) return r;
      }
      s = (s + 1) & mask;
    }
  }
}
