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

/** Split and pair tables of one rank table (built once, ~0.2 s for o200k). */
export class BacktrackTables {
  /** Byte length of each rank's token. */
  readonly len: Int32Array;
  /** The longest token that is a proper prefix of each token, or -1. */
  readonly shorter: Int32Array;
  /** The two tokens each token was merged from (itself twice for a single byte). */
  readonly left: Int32Array;
  readonly right: Int32Array;
  private readonly pairA: Int32Array;
  private readonly pairB: Int32Array;
  private readonly pairTo: Int32Array;
  private readonly pairMask: number;

  /** Builds the tables of the tokens in `trie`. */
  constructor(readonly trie: TokenTrie) {
    const n = trie.ranks;
    this.len = new Int32Array(n);
    this.shorter = new Int32Array(n).fill(NONE);
    this.left = new Int32Array(n);
    this.right = new Int32Array(n);
    let size = 1;
    while (size < 2 * n) size <<= 1;
    this.pairMask = size - 1;
    this.pairA = new Int32Array(size).fill(NONE);
    this.pairB = new Int32Array(size);
    this.pairTo = new Int32Array(size);
    for (let r = 0; r < n; r++) {
      const len = trie.length(r);
      this.len[r] = len;
      this.left[r] = r;
      this.right[r] = r;
      // Longest proper prefix that is a token.
      let node = 0;
      for (let i = 0; i < len - 1; i++) {
        node = trie.child(node, trie.byteAt(r, i));
        if (node < 0) break;
        const pr = trie.rankOf(node);
        if (pr >= 0) this.shorter[r] = pr;
      }
    }
    for (let r = 0; r < n; r++) {
      const len = this.len[r]!;
      // Its split: the longest prefix token whose rest is a token and which BPE keeps apart.
      for (let a = this.shorter[r]!; a !== NONE; a = this.shorter[a]!) {
        const b = this.rankOfBytes(r, this.len[a]!, len);
        if (b < 0 || a >= r || b >= r || !this.valid(a, b)) continue;
        this.left[r] = a;
        this.right[r] = b;
        this.setPair(a, b, r);
        break;
      }
    }
  }

  /** The rank of the token spelled by bytes `from..to` of token `r`, or -1. */
  private rankOfBytes(r: number, from: number, to: number): number {
    let node = 0;
    for (let i = from; i < to; i++) {
      node = this.trie.child(node, this.trie.byteAt(r, i));
      if (node < 0) return NONE;
    }
    return this.trie.rankOf(node);
  }

  private slot(a: number, b: number): number {
    return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x632be5ab, 0x85ebca77)) >>> 0;
  }

  private setPair(a: number, b: number, to: number): void {
    let s = this.slot(a, b) & this.pairMask;
    while (this.pairA[s] !== NONE) s = (s + 1) & this.pairMask;
    this.pairA[s] = a;
    this.pairB[s] = b;
    this.pairTo[s] = to;
  }

  /** The token whose split is `(a, b)`, or -1. */
  pair(a: number, b: number): number {
    const pa = this.pairA;
    const mask = this.pairMask;
    let s = this.slot(a, b) & mask;
    for (;;) {
      const k = pa[s]!;
      if (k === NONE) return NONE;
      if (k === a && this.pairB[s] === b) return this.pairTo[s]!;
      s = (s + 1) & mask;
    }
  }

  /** Whether BPE on the bytes of `a` then `b` yields exactly `[a, b]`. */
  valid(a: number, b: number): boolean {
    const left = this.left;
    const right = this.right;
    let limit = 0x7fffffff;
    for (;;) {
      const merged = this.pair(a, b);
      if (merged !== NONE && merged < limit) return false;
      if (a > b) {
        limit = a;
        a = right[a]!;
        if (a === limit) {
          limit = b + 1;
          b = left[b]!;
          if (b + 1 === limit) return true;
        }
      } else {
        limit = b + 1;
        b = left[b]!;
        if (b + 1 === limit) {
          limit = a;
          a = right[a]!;
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
  const len = t.len;
  const shorter = t.shorter;
  let top = 0;
  let pos = 0;
  let next = longestAt(bytes, 0, n, trie);
  while (next !== NONE) {
    let token = next;
    const last = top > 0 ? stack[top - 1]! : NONE;
    for (;;) {
      const end = pos + len[token]!;
      if (alive[end] === 1 && (last === NONE || t.valid(last, token))) {
        stack[top++] = token;
        pos = end;
        next = end < n ? longestAt(bytes, end, n, trie) : NONE;
        break;
      }
      const s = shorter[token]!;
      if (s !== NONE) {
        token = s;
        continue;
      }
      // No token fits here: this position is dead; take the previous token back.
      alive[pos] = 0;
      if (last === NONE) return NaN; // unreachable for a table where every byte is a token
      top--;
      pos -= len[last]!;
      next = last;
      break;
    }
  }
  return top;
}

/** The rank of the longest token that starts at `bytes[at]` (every byte is a token). */
function longestAt(bytes: Uint8Array, at: number, n: number, trie: TokenTrie): number {
  let node = 0;
  let best = NONE;
  for (let i = at; i < n; i++) {
    node = trie.child(node, bytes[i]!);
    if (node < 0) break;
    const r = trie.rankOf(node);
    if (r >= 0) best = r;
  }
  return best;
}
