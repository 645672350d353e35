/**
 * Linear-time exact BPE counting of one piece, by backtracking over a token lattice (the method of
 * GitHub's `bpe` crate in rust-gems, written here over this package's token trie).
 *
 * tiktoken's merge result has a local characterisation: a sequence of tokens spelling the piece is
 * the BPE encoding exactly when every adjacent pair `(a, b)` is *valid* — BPE run on the bytes of
 * `a` then `b` gives `[a, b]` back. Validity is decided from the tables: undo the merges of `a`
 * and `b` (each token's last merge is its *split*, recovered once from the ranks) and check that
 * no pair straddling the boundary would have merged first (a short walk down the trie from the
 * left part, whose subtree lies in one stretch of memory). The encoder walks left to right, taking
 * the longest token that fits and is valid next to the previous one, trying shorter prefixes
 * otherwise, and backs up one token from a position proven dead (remembered, so no position is
 * abandoned twice). Every step reads a bounded number of table entries, so a megabyte piece costs
 * about what a megabyte of prose does.
 *
 * @module bpe/backtrack
 */
import type { TokenTrie } from "./trie.js";

const NONE = -1;

/** Fields per node in {@link BacktrackTables.nodes} (32 bytes: two nodes to a cache line). */
const W = 8;
const CHECK = 0; // parent node + 1 (0 when the slot is free)
const BASE = 1; // children's base: the child along byte c is at base + c
const KEY = 2; // `rank << 8 | byte length` of the token ending here (so keys compare as ranks), or -1
const PREFIX = 3; // node of the longest token that is a proper prefix, or -1
const LEFT = 4; // the two token nodes this token was merged from (itself twice for a single byte)
const RIGHT = 5;

/**
 * The trie and the split of every token in one array indexed by trie node: a step down the trie
 * and the facts about the token it reaches are in the same cache line, and tokens sharing a
 * prefix lie side by side (built once, ~0.2 s for o200k).
 */
export class BacktrackTables {
  /** Per node, {@link W} fields: check, base, key, prefix, left, right, two unused. */
  readonly nodes: Int32Array;
  /** Per two-byte prefix (`b0 * 256 + b1`): its node, or -1. */
  readonly prefix2: Int32Array;
  /** The token node of each byte. */
  readonly byteNode: Int32Array;

  /** Builds the tables of the tokens in `trie` (tokens are at most 255 bytes long). */
  constructor(trie: TokenTrie) {
    const n = trie.ranks;
    const size = trie.nodes;
    const nodes = new Int32Array(W * size).fill(NONE);
    this.nodes = nodes;
    for (let v = 0; v < size; v++) {
      const [check, base] = trie.checkAndBase(v);
      nodes[W * v + CHECK] = check;
      nodes[W * v + BASE] = base;
    }
    this.prefix2 = new Int32Array(65536);
    for (let q = 0; q < 65536; q++) this.prefix2[q] = trie.prefix2Node(q >>> 8, q & 255);
    this.byteNode = new Int32Array(256);
    for (let b = 0; b < 256; b++) this.byteNode[b] = trie.byteNodeOf(b);
    for (let r = 0; r < n; r++) {
      const v = trie.nodeOfRank(r);
      if (v < 0) continue;
      const len = trie.length(r);
      if (len > 255) throw new RangeError(`token ${r} is ${len} bytes long: at most 255 are supported`);
      nodes[W * v + KEY] = (r << 8) | len;
      nodes[W * v + PREFIX] = len > 1 ? nodeOf(trie, trie.longestProperPrefix(r)) : NONE;
      nodes[W * v + LEFT] = v;
      nodes[W * v + RIGHT] = v;
    }
    // In rank order: a token's split is decided by the splits of lower ranks.
    const bytes = trie.tokenBytes;
    for (let r = 0; r < n; r++) {
      const v = trie.nodeOfRank(r);
      if (v < 0) continue;
      const len = nodes[W * v + KEY]! & 255;
      // Its split: the longest prefix token whose rest is a token and which BPE keeps apart.
      for (let a = nodes[W * v + PREFIX]!; a !== NONE; a = nodes[W * a + PREFIX]!) {
        if (nodes[W * a + KEY]! >>> 8 >= r) continue;
        const lenA = nodes[W * a + KEY]! & 255;
        const b = nodeOf(trie, trie.rankOfPart(r, lenA, len));
        if (b < 0 || nodes[W * b + KEY]! >>> 8 >= r || !this.valid(a, b, bytes, trie.tokenStart(r) + lenA)) continue;
        nodes[W * v + LEFT] = a;
        nodes[W * v + RIGHT] = b;
        break;
      }
    }
  }

  /**
   * The token node spelled by token node `a` then token node `b` (whose bytes are `bytes[at..)`),
   * if its split is exactly `(a, b)`; else -1. A walk down from `a`: the nodes of one subtree lie
   * close together, so this reads a few nearby slots instead of probing a table of pairs.
   */
  private merged(a: number, b: number, bytes: Uint8Array, at: number): number {
    const nodes = this.nodes;
    const end = at + (nodes[W * b + KEY]! & 255);
    let node = a;
    for (let i = at; i < end; i++) {
      const c = nodes[W * node + BASE]! + bytes[i]!;
      if (nodes[W * c + CHECK] !== node + 1) return NONE;
      node = c;
    }
    return nodes[W * node + LEFT] === a && nodes[W * node + RIGHT] === b ? node : NONE;
  }

  /**
   * Whether BPE on the bytes of token node `a` then token node `b` yields exactly `[a, b]`, where
   * `b`'s bytes are `bytes[at..)`: undo the later merge of the two, one side at a time, and check
   * that no pair straddling the boundary would have merged before it.
   */
  valid(a: number, b: number, bytes: Uint8Array, at: number): boolean {
    const nodes = this.nodes;
    let limit = 0x7fffffff; // compared with keys
    for (;;) {
      const m = this.merged(a, b, bytes, at);
      if (m !== NONE && nodes[W * m + KEY]! < limit) return false;
      const ka = nodes[W * a + KEY]!;
      const kb = nodes[W * b + KEY]!;
      if (ka > kb) {
        limit = ka;
        const right = nodes[W * a + RIGHT]!;
        if (right === a) {
          limit = kb + 1;
          const left = nodes[W * b + LEFT]!;
          if (left === b) return true;
          b = left;
        } else a = right;
      } else {
        limit = kb + 1;
        const left = nodes[W * b + LEFT]!;
        if (left === b) {
          limit = ka;
          const right = nodes[W * a + RIGHT]!;
          if (right === a) return true;
          a = right;
        } else b = left;
      }
    }
  }

  /**
   * Whether `text[from..to)`, all ASCII (char codes are the bytes), is one token: a walk down the
   * trie on the char codes, with no bytes copied and no hash. -1 when it is not, -2 when a char
   * is not ASCII (the caller encodes such a piece).
   */
  wholeAscii(text: string, from: number, to: number): number {
    const c0 = text.charCodeAt(from);
    if (c0 >= 0x80) return -2;
    if (to - from === 1) return 1;
    const c1 = text.charCodeAt(from + 1);
    if (c1 >= 0x80) return -2;
    let node = this.prefix2[(c0 << 8) | c1]!;
    const nodes = this.nodes;
    for (let i = from + 2; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) return -2;
      if (node < 0) continue; // keep checking that the rest is ASCII
      const child = nodes[W * node + BASE]! + c;
      node = nodes[W * child + CHECK] === node + 1 ? child : -1;
    }
    return node >= 0 && nodes[W * node + KEY]! >= 0 ? 1 : -1;
  }

  /** Byte length of the token the last {@link longestAt} returned. */
  matchLength = 0;

  /** The node of the longest token that `bytes[at..n)` starts with; its length goes to {@link matchLength}. */
  longestAt(bytes: Uint8Array, at: number, n: number): number {
    const b0 = bytes[at]!;
    let best = this.byteNode[b0]!;
    let bestLen = 1;
    if (at + 1 < n) {
      let node = this.prefix2[(b0 << 8) | bytes[at + 1]!]!;
      if (node >= 0) {
        const nodes = this.nodes;
        if (nodes[W * node + KEY]! >= 0) {
          best = node;
          bestLen = 2;
        }
        for (let i = at + 2; i < n; i++) {
          const c = nodes[W * node + BASE]! + bytes[i]!;
          if (nodes[W * c + CHECK] !== node + 1) break;
          node = c;
          if (nodes[W * c + KEY]! >= 0) {
            best = c;
            bestLen = i - at + 1;
          }
        }
      }
    }
    this.matchLength = bestLen;
    return best;
  }
}

function nodeOf(trie: TokenTrie, rank: number): number {
  return rank < 0 ? NONE : trie.nodeOfRank(rank);
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
  const nodes = t.nodes;
  let top = 0;
  let pos = 0;
  let next = t.longestAt(bytes, 0, n);
  while (next !== NONE) {
    let token = next;
    const last = top > 0 ? stack[top - 1]! : NONE;
    for (;;) {
      const end = pos + (nodes[W * token + KEY]! & 255);
      if (alive[end] === 1 && (last === NONE || t.valid(last, token, bytes, pos))) {
        stack[top++] = token;
        pos = end;
        next = end < n ? t.longestAt(bytes, end, n) : NONE;
        break;
      }
      const s = nodes[W * token + PREFIX]!;
      if (s !== NONE) {
        token = s;
        continue;
      }
      // No token fits here: this position is dead; take the previous token back.
      alive[pos] = 0;
      if (last === NONE) return NaN; // unreachable for a table where every byte is a token
      top--;
      pos -= nodes[W * last + KEY]! & 255;
      next = last;
      break;
    }
  }
  return top;
}
