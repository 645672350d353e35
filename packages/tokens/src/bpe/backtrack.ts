/**
 * Linear-time exact BPE counting of one piece, by backtracking over a token lattice (the method of
 * GitHub's `bpe` crate in rust-gems, written here over this package's token trie).
 *
 * tiktoken's merge result has a local characterisation: a sequence of tokens spelling the piece is
 * the BPE encoding exactly when every adjacent pair `(a, b)` is *valid* — BPE run on the bytes of
 * `a` then `b` gives `[a, b]` back. Validity is decided without bytes: undo the merges of `a` and
 * `b` (each token's last merge is its *split*, recovered once from the ranks) and check that no
 * pair straddling the boundary would have merged first. The encoder walks left to right, taking
 * the longest token that fits and is valid next to the previous one, trying shorter prefixes
 * otherwise, and backs up one token from a position proven dead (remembered, so no position is
 * abandoned twice). Every step reads a bounded number of table entries, so a megabyte piece costs
 * about what a megabyte of prose does.
 *
 * @module bpe/backtrack
 */
import type { TokenTrie } from "./trie.js";

const NONE = -1;

/** A 22-bit hash of a pair, independent of the table's. */
function filterHash(a: number, b: number): number {
  return Math.imul(Math.imul(b, 0xcc9e2d51) ^ a, 0x1b873593) >>> 10;
}

/** Split and pair tables of one rank table (built once, ~0.3 s for o200k). */
export class BacktrackTables {
  /**
   * Per rank, side by side (one cache line): byte length, the longest token that is a proper
   * prefix (-1 if none), and the two tokens it was merged from (itself twice for a single byte).
   */
  readonly info: Int32Array;
  /** Per slot: left, right, merged token (left -1 when empty), unused. */
  private readonly pairs: Int32Array;
  private readonly pairMask: number;
  private readonly pairShift: number;
  /** One bit per hash of a split pair (2^22 bits, 512 KB: stays in cache), so most misses cost no probe. */
  private readonly pairBits = new Int32Array(1 << 17);

  /** Builds the tables of the tokens in `trie`. */
  constructor(readonly trie: TokenTrie) {
    const n = trie.ranks;
    const info = new Int32Array(4 * n);
    this.info = info;
    let size = 1;
    while (size < 2 * n) size <<= 1;
    this.pairMask = size - 1;
    this.pairShift = Math.clz32(this.pairMask);
    this.pairs = new Int32Array(4 * size);
    for (let s = 0; s < size; s++) this.pairs[4 * s] = NONE;
    for (let r = 0; r < n; r++) {
      info[4 * r] = trie.length(r);
      info[4 * r + 1] = trie.length(r) > 1 ? trie.longestProperPrefix(r) : NONE;
      info[4 * r + 2] = r;
      info[4 * r + 3] = r;
    }
    for (let r = 0; r < n; r++) {
      const len = info[4 * r]!;
      // Its split: the longest prefix token whose rest is a token and which BPE keeps apart.
      for (let a = info[4 * r + 1]!; a !== NONE; a = info[4 * a + 1]!) {
        if (a >= r) continue;
        const b = trie.rankOfPart(r, info[4 * a]!, len);
        if (b < 0 || b >= r || !this.valid(a, b)) continue;
        info[4 * r + 2] = a;
        info[4 * r + 3] = b;
        let s = this.slot(a, b);
        while (this.pairs[4 * s] !== NONE) s = (s + 1) & this.pairMask;
        this.pairs[4 * s] = a;
        this.pairs[4 * s + 1] = b;
        this.pairs[4 * s + 2] = r;
        const h = filterHash(a, b);
        this.pairBits[h >>> 5] = this.pairBits[h >>> 5]! | (1 << (h & 31));
        break;
      }
    }
  }

  private slot(a: number, b: number): number {
    return Math.imul(Math.imul(a, 0x85ebca77) ^ b, 0x9e3779b1) >>> this.pairShift;
  }

  /** The token whose split is `(a, b)`, or -1. */
  pair(a: number, b: number): number {
    const h = filterHash(a, b);
    if ((this.pairBits[h >>> 5]! & (1 << (h & 31))) === 0) return NONE;
    const pairs = this.pairs;
    const mask = this.pairMask;
    let s = Math.imul(Math.imul(a, 0x85ebca77) ^ b, 0x9e3779b1) >>> this.pairShift;
    for (;;) {
      const k = pairs[4 * s]!;
      if (k === NONE) return NONE;
      if (k === a && pairs[4 * s + 1] === b) return pairs[4 * s + 2]!;
      s = (s + 1) & mask;
    }
  }

  /** Whether BPE on the bytes of `a` then `b` yields exactly `[a, b]`. */
  valid(a: number, b: number): boolean {
    const info = this.info;
    let limit = 0x7fffffff;
    for (;;) {
      const merged = this.pair(a, b);
      if (merged !== NONE && merged < limit) return false;
      if (a > b) {
        limit = a;
        a = info[4 * a + 3]!;
        if (a === limit) {
          limit = b + 1;
          b = info[4 * b + 2]!;
          if (b + 1 === limit) return true;
        }
      } else {
        limit = b + 1;
        b = info[4 * b + 2]!;
        if (b + 1 === limit) {
          limit = a;
          a = info[4 * a + 3]!;
          if (a === limit) return true;
        }
      }
    }
  }
}

let stack = new Int32Array(1024);
let alive = new Uint8Array(1025);

/**
 * Tokens of the piece whose UTF-8 bytes are `bytes[0..n)`: the same count as tiktoken's merge
 * loop, in time linear in `n` (see the module comment).
 */
export function backtrackCount(bytes: Uint8Array, n: number, t: BacktrackTables): number {
  if (n <= 1) return n;
  if (stack.length < n) {
    stack = new Int32Array(2 * n);
    alive = new Uint8Array(2 * n + 1);
  }
  alive.fill(1, 0, n + 1);
  const trie = t.trie;
  const info = t.info;
  let top = 0;
  let pos = 0;
  let next = trie.longestAt(bytes, 0, n);
  while (next !== NONE) {
    let token = next;
    const last = top > 0 ? stack[top - 1]! : NONE;
    for (;;) {
      const end = pos + info[4 * token]!;
      if (alive[end] === 1 && (last === NONE || t.valid(last, token))) {
        stack[top++] = token;
        pos = end;
        next = end < n ? trie.longestAt(bytes, end, n) : NONE;
        break;
      }
      const s = info[4 * token + 1]!;
      if (s !== NONE) {
        token = s;
        continue;
      }
      // No token fits here: this position is dead; take the previous token back.
      alive[pos] = 0;
      if (last === NONE) return NaN; // unreachable for a table where every byte is a token
      top--;
      pos -= info[4 * last]!;
      next = last;
      break;
    }
  }
  return top;
}
