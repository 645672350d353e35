/**
 * A byte trie over an encoding's tokens, for the one question merging asks: is token `a`
 * followed by token `b` itself a token, and of which rank? The walk starts at `a`'s node and reads
 * `b`'s bytes; it usually stops after one or two bytes, with no string built and nothing
 * allocated. Children are found in one open-addressing integer table keyed by (node, byte).
 *
 * @module bpe/trie
 */
import type { RankTable } from "./ranks.js";

/** "No token" as a rank: larger than every real rank, so it never wins a minimum. */
export const NO_RANK = 0x7fffffff;

/** The trie of one rank table (about 16 bytes per token byte: ~30 MB for o200k). */
export class TokenTrie {
  private readonly slotKeys: Int32Array;
  private readonly slotChildren: Int32Array;
  private readonly mask: number;
  /** Rank of the token ending at each node, or -1. */
  private readonly rankAt: Int32Array;
  /** The node of each rank's token. */
  private readonly nodeOf: Int32Array;
  /** Bytes of every token, back to back; token r is `bytes[start[r] .. start[r + 1])`. */
  private readonly bytes: Uint8Array;
  private readonly start: Int32Array;

  /** Builds the trie of `table` (linear in the total bytes of all tokens). */
  constructor(table: RankTable) {
    const tokens = table.tokens;
    let total = 0;
    for (const t of tokens) total += t.length;
    this.bytes = new Uint8Array(total);
    this.start = new Int32Array(tokens.length + 1);
    let size = 1;
    while (size < 2 * (total + 1)) size <<= 1;
    this.mask = size - 1;
    this.slotKeys = new Int32Array(size);
    this.slotChildren = new Int32Array(size);
    this.rankAt = new Int32Array(total + 1).fill(-1);
    this.nodeOf = new Int32Array(tokens.length).fill(-1);
    let nodes = 1;
    let at = 0;
    for (let r = 0; r < tokens.length; r++) {
      const t = tokens[r]!;
      this.start[r] = at;
      if (t === "") continue;
      let node = 0;
      for (let i = 0; i < t.length; i++) {
        const byte = t.charCodeAt(i);
        this.bytes[at++] = byte;
        const key = node * 256 + byte + 1;
        let slot = this.slot(key);
        while (this.slotKeys[slot] !== 0 && this.slotKeys[slot] !== key) slot = (slot + 1) & this.mask;
        if (this.slotKeys[slot] === 0) {
          this.slotKeys[slot] = key;
          this.slotChildren[slot] = nodes++;
        }
        node = this.slotChildren[slot]!;
      }
      this.rankAt[node] = r;
      this.nodeOf[r] = node;
    }
    this.start[tokens.length] = at;
  }

  private slot(key: number): number {
    return (Math.imul(key, 0x9e3779b1) >>> 0) & this.mask;
  }

  /** The child of `node` along `byte`, or -1 (the root is node 0). */
  child(node: number, byte: number): number {
    const key = node * 256 + byte + 1;
    const keys = this.slotKeys;
    const mask = this.mask;
    let slot = (Math.imul(key, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const k = keys[slot]!;
      if (k === key) return this.slotChildren[slot]!;
      if (k === 0) return -1;
      slot = (slot + 1) & mask;
    }
  }

  /** The rank of the token that ends at `node`, or -1. */
  rankOf(node: number): number {
    return this.rankAt[node]!;
  }

  /** How many bytes the token of rank `rank` has (0 for an unused rank). */
  length(rank: number): number {
    return this.start[rank + 1]! - this.start[rank]!;
  }

  /** Byte `i` of the token of rank `rank`. */
  byteAt(rank: number, i: number): number {
    return this.bytes[this.start[rank]! + i]!;
  }

  /** How many ranks the table has (the largest rank plus one). */
  get ranks(): number {
    return this.nodeOf.length;
  }

  /** The rank of the token made of token `a` then token `b`, or {@link NO_RANK}. */
  pair(a: number, b: number): number {
    let node = this.nodeOf[a]!;
    const end = this.start[b + 1]!;
    const keys = this.slotKeys;
    const mask = this.mask;
    for (let i = this.start[b]!; i < end; i++) {
      const key = node * 256 + this.bytes[i]! + 1;
      let slot = (Math.imul(key, 0x9e3779b1) >>> 0) & mask;
      for (;;) {
        const k = keys[slot]!;
        if (k === key) break;
        if (k === 0) return NO_RANK;
        slot = (slot + 1) & mask;
      }
      node = this.slotChildren[slot]!;
    }
    const r = this.rankAt[node]!;
    return r < 0 ? NO_RANK : r;
  }
}
