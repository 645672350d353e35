/**
 * A byte trie over an encoding's tokens. It answers what tiktoken's merge loop asks (`pair`: is
 * token `a` followed by token `b` itself a token, and of which rank?) and gives the backtracking
 * tables (`bpe/backtrack`) their layout: each token's node, its longest proper prefix, the rank of
 * a part of a token, each node's check and base. Walks read bytes with no string built and
 * nothing allocated.
 *
 * Layout, for few cache misses per step on tables far larger than the CPU cache: a double array.
 * Node `s` keeps the `base` of its children, child along byte `c` is at `base + c`, and a slot
 * records its parent (`check`), so one step reads one 16-byte slot (check, base, rank of the
 * token ending there) and an absent child is known from that same read. Nodes are placed in
 * depth-first order of the sorted tokens, so a subtree (every token sharing a prefix) lies in one
 * short stretch of the array: the nodes a given kind of text walks through share cache lines and
 * pages. The first two bytes of every walk are read from a direct 65,536-entry table.
 *
 * @module bpe/trie
 */
import type { RankTable } from "./ranks.js";

/** "No token" as a rank: larger than every real rank, so it never wins a minimum. */
export const NO_RANK = 0x7fffffff;

const STRIDE = 4; // check (parent + 1; 0 when free), base, rank (-1 when no token ends here), unused

/** The trie of one rank table (16 bytes per node, ~7 MB for o200k's 420,000 nodes). */
export class TokenTrie {
  /** The double array: per node, check (parent + 1, 0 when free), base, rank, unused. */
  private readonly da: Int32Array;
  /** Per two-byte prefix (`b0 * 256 + b1`): the node (-1 if no token starts so) and its rank. */
  private readonly root2: Int32Array;
  /** The node of each single byte's token. */
  private readonly byteNode: Int32Array;
  /** The node of each rank's token. */
  private readonly nodeOf: Int32Array;
  /** Bytes of every token, back to back; token r is `bytes[start[r] .. start[r + 1])`. */
  private readonly bytes: Uint8Array;
  private readonly start: Int32Array;
  /** Builds the trie of `table` (sorts the tokens, then places nodes depth first). */
  constructor(table: RankTable) {
    const tokens = table.tokens;
    let total = 0;
    for (const t of tokens) total += t.length;
    this.bytes = new Uint8Array(total);
    this.start = new Int32Array(tokens.length + 1);
    this.nodeOf = new Int32Array(tokens.length).fill(-1);
    let at = 0;
    for (let r = 0; r < tokens.length; r++) {
      const t = tokens[r]!;
      this.start[r] = at;
      for (let i = 0; i < t.length; i++) this.bytes[at++] = t.charCodeAt(i);
    }
    this.start[tokens.length] = at;
    this.da = this.place(table);
    this.byteNode = Int32Array.from(table.byteTokens, (r) => this.nodeOf[r]!);
    this.root2 = new Int32Array(2 * 65536).fill(-1);
    for (let b0 = 0; b0 < 256; b0++) {
      const n0 = this.child(0, b0);
      if (n0 < 0) continue;
      for (let b1 = 0; b1 < 256; b1++) {
        const n1 = this.child(n0, b1);
        if (n1 < 0) continue;
        this.root2[2 * (b0 * 256 + b1)] = n1;
        this.root2[2 * (b0 * 256 + b1) + 1] = this.da[n1 * STRIDE + 2]!;
      }
    }
  }

  /**
   * Lays the trie out as a double array. Tokens sorted by bytes make every node a run of the sorted
   * list (the tokens with its prefix); nodes are placed depth first, each node's children at the
   * first free base where they all fit.
   */
  private place(table: RankTable): Int32Array {
    const sorted: number[] = [];
    for (let r = 0; r < table.tokens.length; r++) if (table.tokens[r] !== "") sorted.push(r);
    const toks = table.tokens;
    sorted.sort((x, y) => (toks[x]! < toks[y]! ? -1 : toks[x]! > toks[y]! ? 1 : 0));
    const start = this.start;
    const bytes = this.bytes;
    const byteAt = (r: number, d: number): number => bytes[start[r]! + d]!;
    const len = (r: number): number => start[r + 1]! - start[r]!;
    let cap = 1024;
    while (cap < 1.25 * this.bytes.length) cap <<= 1;
    let da = new Int32Array(cap * STRIDE);
    let used = new Uint8Array(cap);
    used[0] = 1;
    da[2] = -1;
    let firstFree = 1;
    // Depth-first: a stack of (node, depth, lo, hi) over the sorted list.
    const stack: number[] = [0, 0, 0, sorted.length];
    const childBytes = new Int32Array(256);
    const childLo = new Int32Array(257);
    while (stack.length > 0) {
      const hi = stack.pop()!;
      const lo0 = stack.pop()!;
      const depth = stack.pop()!;
      const node = stack.pop()!;
      let lo = lo0;
      if (lo < hi && len(sorted[lo]!) === depth) lo++; // the token that ends at this node
      if (lo >= hi) continue;
      let k = 0;
      for (let i = lo; i < hi; i++) {
        const b = byteAt(sorted[i]!, depth);
        if (k === 0 || childBytes[k - 1] !== b) {
          childBytes[k] = b;
          childLo[k] = i;
          k++;
        }
      }
      childLo[k] = hi;
      // The first base (≥ 1) at which every child's slot is free.
      let base = Math.max(1, firstFree - childBytes[0]!);
      for (; ; base++) {
        if (base + 256 >= cap) {
          const grown = new Int32Array(2 * cap * STRIDE);
          grown.set(da);
          da = grown;
          const u = new Uint8Array(2 * cap);
          u.set(used);
          used = u;
          cap *= 2;
        }
        let fits = true;
        for (let j = 0; j < k; j++) {
          if (used[base + childBytes[j]!] === 1) {
            fits = false;
            break;
          }
        }
        if (fits) break;
      }
      da[node * STRIDE + 1] = base;
      for (let j = 0; j < k; j++) {
        const c = base + childBytes[j]!;
        used[c] = 1;
        da[c * STRIDE] = node + 1;
        const first = sorted[childLo[j]!]!;
        const rank = len(first) === depth + 1 ? first : -1;
        da[c * STRIDE + 2] = rank;
        if (rank >= 0) this.nodeOf[rank] = c;
      }
      while (firstFree < cap && used[firstFree] === 1) firstFree++;
      // Pushed last child first, so the first child's subtree is placed next.
      for (let j = k - 1; j >= 0; j--) stack.push(base + childBytes[j]!, depth + 1, childLo[j]!, childLo[j + 1]!);
    }
    let last = cap - 1;
    while (last > 0 && used[last] === 0) last--;
    return da.slice(0, (last + 257) * STRIDE); // room for base + 255 past the last node
  }

  /** The child of `node` along `byte`, or -1. */
  private child(node: number, byte: number): number {
    const c = this.da[node * STRIDE + 1]! + byte;
    return this.da[c * STRIDE] === node + 1 ? c : -1;
  }

  /** The rank of the token spelled by bytes `from..to` of the token of rank `r`, or -1. */
  rankOfPart(r: number, from: number, to: number): number {
    let node = 0;
    const base = this.start[r]!;
    for (let i = from; i < to; i++) {
      node = this.child(node, this.bytes[base + i]!);
      if (node < 0) return -1;
    }
    return this.da[node * STRIDE + 2]!;
  }

  /** The longest token that is a proper prefix of the token of rank `r`, or -1. */
  longestProperPrefix(r: number): number {
    let node = 0;
    let best = -1;
    const base = this.start[r]!;
    const len = this.length(r);
    for (let i = 0; i < len - 1; i++) {
      node = this.child(node, this.bytes[base + i]!);
      if (node < 0) break;
      const rank = this.da[node * STRIDE + 2]!;
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

  /** The node of the token of rank `r` (-1 for an unused rank). */
  nodeOfRank(r: number): number {
    return this.nodeOf[r]!;
  }

  /** Bytes of every token, back to back (token `r` starts at {@link tokenStart}). */
  get tokenBytes(): Uint8Array {
    return this.bytes;
  }

  /** Where the bytes of the token of rank `r` start in {@link tokenBytes}. */
  tokenStart(r: number): number {
    return this.start[r]!;
  }

  /** The node's check and base (`[check, base]`: the parent plus one, 0 when free; the children's base). */
  checkAndBase(node: number): readonly [number, number] {
    return [this.da[node * STRIDE]!, this.da[node * STRIDE + 1]!];
  }

  /** The node of the two-byte prefix `b0 b1` (-1 if no token starts so), whether or not it is a token. */
  prefix2Node(b0: number, b1: number): number {
    return this.root2[2 * ((b0 << 8) | b1)]!;
  }

  /** One more than the largest node: the size of a table indexed by node. */
  get nodes(): number {
    return this.da.length / STRIDE;
  }

  /** The node of the single-byte token `b`. */
  byteNodeOf(b: number): number {
    return this.byteNode[b]!;
  }

  /** The rank of the two-byte token `b0 b1`, or {@link NO_RANK} (one read of a 512 KB table). */
  pair2(b0: number, b1: number): number {
    const r = this.root2[2 * ((b0 << 8) | b1) + 1]!;
    return r < 0 ? NO_RANK : r;
  }

  /** The rank of the token made of token `a` then token `b`, or {@link NO_RANK}. */
  pair(a: number, b: number): number {
    let node = this.nodeOf[a]!;
    const end = this.start[b + 1]!;
    for (let i = this.start[b]!; i < end; i++) {
      node = this.child(node, this.bytes[i]!);
      if (node < 0) return NO_RANK;
    }
    const rank = this.da[node * STRIDE + 2]!;
    return rank < 0 ? NO_RANK : rank;
  }
}
