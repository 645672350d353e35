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

/** Fields per token node in {@link BacktrackTables.info} (16 bytes). */
const I = 4;
const KEY = 0; // `rank << 8 | byte length` of the token ending here (so keys compare as ranks), or -1
const PREFIX = 1; // node of the longest token that is a proper prefix, or -1
const LEFT = 2; // the two token nodes this token was merged from (itself twice for a single byte)
const RIGHT = 3;

/**
 * The trie walked by the encoder, and the split of every token, indexed by trie node. The walk
 * reads 8 bytes per node (`trie`: parent and base), so the children of a node — and a whole hot
 * subtree — take few cache lines; the facts about a token (`info`) are read only for the tokens
 * the encoder takes or checks. Tokens sharing a prefix lie side by side in both (built once,
 * ~0.2 s for o200k).
 */
export class BacktrackTables {
  /**
   * Per node: `(parent + 1) << 1 | 1 if a token ends here` (0 when the slot is free), then the
   * children's base (the child along byte `c` is at `base + c`).
   */
  readonly trie: Int32Array;
  /** Per node, {@link I} fields: key, prefix, left, right (-1 for a node where no token ends). */
  readonly info: Int32Array;
  /** Per two-byte prefix (`b0 * 256 + b1`): its node, or -1. */
  readonly prefix2: Int32Array;
  /** The token node of each byte. */
  readonly byteNode: Int32Array;

  /** Builds the tables of the tokens in `trie` (tokens are at most 255 bytes long). */
  constructor(tokens: TokenTrie) {
    const n = tokens.ranks;
    const size = tokens.nodes;
    const walk = new Int32Array(2 * size);
    const info = new Int32Array(I * size).fill(NONE);
    this.trie = walk;
    this.info = info;
    for (let v = 0; v < size; v++) {
      const [check, base] = tokens.checkAndBase(v);
      walk[2 * v] = check << 1;
      walk[2 * v + 1] = base;
    }
    this.prefix2 = new Int32Array(65536);
    for (let q = 0; q < 65536; q++) this.prefix2[q] = tokens.prefix2Node(q >>> 8, q & 255);
    this.byteNode = new Int32Array(256);
    for (let b = 0; b < 256; b++) this.byteNode[b] = tokens.byteNodeOf(b);
    for (let r = 0; r < n; r++) {
      const v = tokens.nodeOfRank(r);
      if (v < 0) continue;
      const len = tokens.length(r);
      if (len > 255) throw new RangeError(`token ${r} is ${len} bytes long: at most 255 are supported`);
      walk[2 * v] = walk[2 * v]! | 1;
      info[I * v + KEY] = (r << 8) | len;
      info[I * v + PREFIX] = len > 1 ? nodeOf(tokens, tokens.longestProperPrefix(r)) : NONE;
      info[I * v + LEFT] = v;
      info[I * v + RIGHT] = v;
    }
    // In rank order: a token's split is decided by the splits of lower ranks.
    const bytes = tokens.tokenBytes;
    for (let r = 0; r < n; r++) {
      const v = tokens.nodeOfRank(r);
      if (v < 0) continue;
      const len = info[I * v + KEY]! & 255;
      // Its split: the longest prefix token whose rest is a token and which BPE keeps apart.
      for (let a = info[I * v + PREFIX]!; a !== NONE; a = info[I * a + PREFIX]!) {
        if (info[I * a + KEY]! >>> 8 >= r) continue;
        const lenA = info[I * a + KEY]! & 255;
        const b = nodeOf(tokens, tokens.rankOfPart(r, lenA, len));
        if (b < 0 || info[I * b + KEY]! >>> 8 >= r || !this.valid(a, b, bytes, tokens.tokenStart(r) + lenA)) continue;
        info[I * v + LEFT] = a;
        info[I * v + RIGHT] = b;
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
    const walk = this.trie;
    const end = at + (this.info[I * b + KEY]! & 255);
    let node = a;
    for (let i = at; i < end; i++) {
      const c = walk[2 * node + 1]! + bytes[i]!;
      if (walk[2 * c]! >> 1 !== node + 1) return NONE;
      node = c;
    }
    return this.info[I * node + LEFT] === a && this.info[I * node + RIGHT] === b ? node : NONE;
  }

  /**
   * Whether BPE on the bytes of token node `a` then token node `b` yields exactly `[a, b]`, where
   * `b`'s bytes are `bytes[at..)`: undo the later merge of the two, one side at a time, and check
   * that no pair straddling the boundary would have merged before it.
   */
  valid(a: number, b: number, bytes: Uint8Array, at: number): boolean {
    const info = this.info;
    let limit = 0x7fffffff; // compared with keys
    for (;;) {
      const m = this.merged(a, b, bytes, at);
      if (m !== NONE && info[I * m + KEY]! < limit) return false;
      const ka = info[I * a + KEY]!;
      const kb = info[I * b + KEY]!;
      if (ka > kb) {
        limit = ka;
        const right = info[I * a + RIGHT]!;
        if (right === a) {
          limit = kb + 1;
          const left = info[I * b + LEFT]!;
          if (left === b) return true;
          b = left;
        } else a = right;
      } else {
        limit = kb + 1;
        const left = info[I * b + LEFT]!;
        if (left === b) {
          limit = ka;
          const right = info[I * a + RIGHT]!;
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
    const walk = this.trie;
    for (let i = from + 2; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) return -2;
      if (node < 0) continue; // keep checking that the rest is ASCII
      const child = walk[2 * node + 1]! + c;
      node = walk[2 * child]! >> 1 === node + 1 ? child : -1;
    }
    return node >= 0 && (walk[2 * node]! & 1) === 1 ? 1 : -1;
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
        const walk = this.trie;
        if ((walk[2 * node]! & 1) === 1) {
          best = node;
          bestLen = 2;
        }
        for (let i = at + 2; i < n; i++) {
          const c = walk[2 * node + 1]! + bytes[i]!;
          const check = walk[2 * c]!;
          if (check >> 1 !== node + 1) break;
          node = c;
          if ((check & 1) === 1) {
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
  const info = t.info;
  let top = 0;
  let pos = 0;
  let next = t.longestAt(bytes, 0, n);
  while (next !== NONE) {
    let token = next;
    const last = top > 0 ? stack[top - 1]! : NONE;
    for (;;) {
      const end = pos + (info[I * token + KEY]! & 255);
      if (alive[end] === 1 && (last === NONE || t.valid(last, token, bytes, pos))) {
        stack[top++] = token;
        pos = end;
        next = end < n ? t.longestAt(bytes, end, n) : NONE;
        break;
      }
      const s = info[I * token + PREFIX]!;
      if (s !== NONE) {
        token = s;
        continue;
      }
      // No token fits here: this position is dead; take the previous token back.
      alive[pos] = 0;
      if (last === NONE) return NaN; // unreachable for a table where every byte is a token
      top--;
      pos -= info[I * last + KEY]! & 255;
      next = last;
      break;
    }
  }
  return top;
}
