/**
 * A byte trie over an encoding's tokens, for the two questions merging asks: is token `a`
 * followed by token `b` itself a token, and of which rank (`pair`)? And which is the longest token
 * that starts at a given byte (`longestAt`)? Walks read bytes with no string built and nothing
 * allocated.
 *
 * Layout, for few cache misses per step on tables far larger than the CPU cache: children live in
 * one open-addressing table keyed by (node, byte) whose slot holds the key, the child and the rank
 * of the token ending there side by side (one cache line per probe); the first two bytes of every
 * walk are read from a direct 65,536-entry table instead.
 *
 * @module bpe/trie
 */
import type { RankTable } from "./ranks.js";

/** "No token" as a rank: larger than every real rank, so it never wins a minimum. */
export const NO_RANK = 0x7fffffff;

const STRIDE = 4; // key, child, rank, unused: 16 bytes, four slots to a cache line

/** Fibonacci hashing: the top bits of the product (the low bits mix poorly). */
function hashKey(key: number, shift: number): number {
  return Math.imul(key, 0x9e3779b1) >>> shift;
}

/** Inserts `key` → (`child`, `rank`) into `slots` if absent; returns the child stored. */
function insert(slots: Int32Array, mask: number, key: number, child: number, rank: number): number {
  let s = hashKey(key, shiftOf(mask));
  for (;;) {
    const at = s * STRIDE;
    const k = slots[at]!;
    if (k === key) {
      if (rank >= 0) slots[at + 2] = rank;
      return slots[at + 1]!;
    }
    if (k === 0) {
      slots[at] = key;
      slots[at + 1] = child;
      slots[at + 2] = rank;
      return child;
    }
    s = (s + 1) & mask;
  }
}

function shiftOf(mask: number): number {
  return Math.clz32(mask);
}

function tableSize(entries: number): number {
  let size = 1;
  while (size < 1.5 * entries) size <<= 1;
  return size;
}

/** The trie of one rank table (about 16 bytes per trie node: ~20 MB for o200k). */
export class TokenTrie {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly shift: number;
  /** Per two-byte prefix (`b0 * 256 + b1`): the node (-1 if no token starts so) and its rank. */
  private readonly root2: Int32Array;
  private readonly byteRank: Int32Array;
  /** The node of each rank's token. */
  private readonly nodeOf: Int32Array;
  /** Bytes of every token, back to back; token r is `bytes[start[r] .. start[r + 1])`. */
  private readonly bytes: Uint8Array;
  private readonly start: Int32Array;
  /** Byte length of the token the last {@link longestAt} returned. */
  matchLength = 0;

  /** Builds the trie of `table` (linear in the total bytes of all tokens). */
  constructor(table: RankTable) {
    const tokens = table.tokens;
    let total = 0;
    for (const t of tokens) total += t.length;
    this.bytes = new Uint8Array(total);
    this.start = new Int32Array(tokens.length + 1);
    this.nodeOf = new Int32Array(tokens.length).fill(-1);
    // First into a table sized for every byte, then into one sized for the nodes made.
    const wideMask = tableSize(total + 1) - 1;
    const wide = new Int32Array((wideMask + 1) * STRIDE);
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
        const child = insert(wide, wideMask, node * 256 + byte + 1, nodes, i === t.length - 1 ? r : -1);
        if (child === nodes) nodes++;
        node = child;
      }
      this.nodeOf[r] = node;
    }
    this.start[tokens.length] = at;
    this.mask = tableSize(nodes) - 1;
    this.shift = shiftOf(this.mask);
    this.slots = new Int32Array((this.mask + 1) * STRIDE);
    for (let s = 0; s <= wideMask; s++) {
      const k = wide[s * STRIDE]!;
      if (k !== 0) insert(this.slots, this.mask, k, wide[s * STRIDE + 1]!, wide[s * STRIDE + 2]!);
    }
    this.byteRank = Int32Array.from(table.byteTokens);
    this.root2 = new Int32Array(2 * 65536).fill(-1);
    for (let b0 = 0; b0 < 256; b0++) {
      const s0 = this.find(0, b0);
      if (s0 < 0) continue;
      const n0 = this.slots[s0 + 1]!;
      for (let b1 = 0; b1 < 256; b1++) {
        const s1 = this.find(n0, b1);
        if (s1 < 0) continue;
        this.root2[2 * (b0 * 256 + b1)] = this.slots[s1 + 1]!;
        this.root2[2 * (b0 * 256 + b1) + 1] = this.slots[s1 + 2]!;
      }
    }
  }

  /** The slot (an index into `slots`) of `node`'s child along `byte`, or -1. */
  private find(node: number, byte: number): number {
    const key = node * 256 + byte + 1;
    const slots = this.slots;
    const mask = this.mask;
    let s = hashKey(key, this.shift);
    for (;;) {
      const k = slots[s * STRIDE]!;
      if (k === key) return s * STRIDE;
      if (k === 0) return -1;
      s = (s + 1) & mask;
    }
  }

  /** The rank of the token spelled by bytes `from..to` of the token of rank `r`, or -1. */
  rankOfPart(r: number, from: number, to: number): number {
    let node = 0;
    let rank = -1;
    const base = this.start[r]!;
    for (let i = from; i < to; i++) {
      const s = this.find(node, this.bytes[base + i]!);
      if (s < 0) return -1;
      node = this.slots[s + 1]!;
      rank = this.slots[s + 2]!;
    }
    return rank;
  }

  /** The longest token that is a proper prefix of the token of rank `r`, or -1. */
  longestProperPrefix(r: number): number {
    let node = 0;
    let best = -1;
    const base = this.start[r]!;
    const len = this.length(r);
    for (let i = 0; i < len - 1; i++) {
      const s = this.find(node, this.bytes[base + i]!);
      if (s < 0) break;
      node = this.slots[s + 1]!;
      const rank = this.slots[s + 2]!;
      if (rank >= 0) best = rank;
    }
    return best;
  }

  /** How many bytes the token of rank `rank` has (0 for an unused rank). */
  length(rank: number): number {
    return this.start[rank + 1]! - this.start[rank]!;
  }

  /** How many ranks the table has (the largest rank plus one). */
  get ranks(): number {
    return this.nodeOf.length;
  }

  /**
   * The rank of the longest token that `bytes[at..n)` starts with (every single byte is a token);
   * its length is left in {@link matchLength}.
   */
  longestAt(bytes: Uint8Array, at: number, n: number): number {
    const b0 = bytes[at]!;
    let best = this.byteRank[b0]!;
    let bestLen = 1;
    if (at + 1 < n) {
      const q = 2 * ((b0 << 8) | bytes[at + 1]!);
      let node = this.root2[q]!;
      if (node >= 0) {
        const r2 = this.root2[q + 1]!;
        if (r2 >= 0) {
          best = r2;
          bestLen = 2;
        }
        const slots = this.slots;
        const mask = this.mask;
        const shift = this.shift;
        for (let i = at + 2; i < n; i++) {
          const key = node * 256 + bytes[i]! + 1;
          let s = hashKey(key, shift);
          let k: number;
          while ((k = slots[s * STRIDE]!) !== key && k !== 0) s = (s + 1) & mask;
          if (k === 0) break;
          node = slots[s * STRIDE + 1]!;
          const r = slots[s * STRIDE + 2]!;
          if (r >= 0) {
            best = r;
            bestLen = i - at + 1;
          }
        }
      }
    }
    this.matchLength = bestLen;
    return best;
  }

  /** The rank of the two-byte token `b0 b1`, or {@link NO_RANK} (one read of a 512 KB table). */
  pair2(b0: number, b1: number): number {
    const r = this.root2[2 * ((b0 << 8) | b1) + 1]!;
    return r < 0 ? NO_RANK : r;
  }

  /** The rank of the token made of token `a` then token `b`, or {@link NO_RANK}. */
  pair(a: number, b: number): number {
    const c = 3 * (Math.imul(Math.imul(a, 0x85ebca77) ^ b, 0x9e3779b1) >>> 16);
    const memo = this.pairMemo;
    if (memo[c] === a && memo[c + 1] === b) return memo[c + 2]!;
    const r = this.pairWalk(a, b);
    memo[c] = a;
    memo[c + 1] = b;
    memo[c + 2] = r;
    return r;
  }

  /** Recently asked pairs, direct-mapped: (a, b, rank) per slot, 65,536 slots (768 KB). */
  private readonly pairMemo = new Int32Array(3 * 65536).fill(-1);

  private pairWalk(a: number, b: number): number {
    let node = this.nodeOf[a]!;
    const end = this.start[b + 1]!;
    const slots = this.slots;
    const mask = this.mask;
    const shift = this.shift;
    let rank = -1;
    for (let i = this.start[b]!; i < end; i++) {
      const key = node * 256 + this.bytes[i]! + 1;
      let s = hashKey(key, shift);
      let k: number;
      while ((k = slots[s * STRIDE]!) !== key && k !== 0) s = (s + 1) & mask;
      if (k === 0) return NO_RANK;
      node = slots[s * STRIDE + 1]!;
      rank = slots[s * STRIDE + 2]!;
    }
    return rank < 0 ? NO_RANK : rank;
  }
}
