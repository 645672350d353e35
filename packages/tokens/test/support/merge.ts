/**
 * Byte-pair merging of one pre-tokenised piece, counting the tokens it becomes.
 *
 * The rule is tiktoken's: repeatedly merge the adjacent pair whose concatenation has the lowest
 * rank, the leftmost one among equal ranks, until no adjacent pair is a token. Every part is a
 * token at every step, so a merge is looked up by the pair of ranks in the token trie
 * (`TokenTrie.pair`) rather than by building the bytes. Short pieces use tiktoken's own loop
 * (a scan for the minimum per merge, quadratic but tiny); long pieces a binary heap of candidate
 * pairs over a linked list of parts, O(n log n), with stale heap entries skipped when popped. Both
 * make the same merges, so the count is exact at any length.
 *
 * The counter itself merges with the backtracking encoder (`bpe/backtrack`), measured faster on
 * every piece length; these loops are tiktoken's rule written plainly, the reference the encoder
 * is property-tested against.
 *
 * @module tokens/test/support/merge
 */
import type { RankTable } from "../../src/bpe/ranks.js";
import { NO_RANK, type TokenTrie } from "../../src/bpe/trie.js";

const NONE = NO_RANK;

let toks = new Int32Array(256);
let pairs = new Int32Array(256);

/**
 * Tokens of the piece whose UTF-8 bytes are `bytes[0..n)`, by tiktoken's scan loop. Quadratic in
 * `n`: for short pieces only.
 */
export function mergeCountScan(bytes: Uint8Array, n: number, table: RankTable, pr: TokenTrie): number {
  if (n <= 1) return n;
  if (toks.length < n) {
    toks = new Int32Array(2 * n);
    pairs = new Int32Array(2 * n);
  }
  const byteTokens = table.byteTokens;
  for (let k = 0; k < n; k++) toks[k] = byteTokens[bytes[k]!]!;
  for (let k = 0; k < n - 1; k++) pairs[k] = pr.pair2(bytes[k]!, bytes[k + 1]!);
  let m = n;
  while (m > 1) {
    let best = NONE;
    let at = -1;
    for (let k = 0; k < m - 1; k++) {
      const r = pairs[k]!;
      if (r < best) {
        best = r;
        at = k;
      }
    }
    if (at < 0) break;
    toks[at] = best;
    toks.copyWithin(at + 1, at + 2, m);
    pairs.copyWithin(at + 1, at + 2, m - 1);
    m--;
    pairs[at] = at + 1 < m ? pr.pair(best, toks[at + 1]!) : NONE;
    if (at > 0) pairs[at - 1] = pr.pair(toks[at - 1]!, best);
  }
  return m;
}

let hNext = new Int32Array(256);
let hPrev = new Int32Array(256);
let hTok = new Int32Array(256);
let hKeys = new Float64Array(768);
let hEnds = new Int32Array(768);

/**
 * Tokens of the piece whose UTF-8 bytes are `bytes[0..n)`, by heap-ordered merging over a linked
 * list: O(n log n), the same merges as {@link mergeCountScan}. The heap operations are written
 * out inline over preallocated typed arrays (at most n initial candidates and two per merge).
 */
export function mergeCountHeap(bytes: Uint8Array, n: number, table: RankTable, pr: TokenTrie): number {
  if (n <= 1) return n;
  if (hNext.length < n) {
    hNext = new Int32Array(2 * n);
    hPrev = new Int32Array(2 * n);
    hTok = new Int32Array(2 * n);
    hKeys = new Float64Array(6 * n);
    hEnds = new Int32Array(6 * n);
  }
  // Parts are named by their start byte; next[s] is the start of the following part (n at the end);
  // prev[s] is -2 once part s has been merged into its left neighbour.
  const next = hNext;
  const prev = hPrev;
  const tok = hTok;
  const keys = hKeys;
  const ends = hEnds;
  const byteTokens = table.byteTokens;
  for (let s = 0; s < n; s++) {
    next[s] = s + 1;
    prev[s] = s - 1;
    tok[s] = byteTokens[bytes[s]!]!;
  }
  // Heap entries: key = rank * 2^32 + left start (ties go to the leftmost), and the end of the
  // right part when the entry was made (a changed end marks it stale).
  let size = 0;
  for (let left = 0; left < n - 1; left++) {
    const rank = pr.pair(tok[left]!, tok[left + 1]!);
    if (rank === NONE) continue;
    const key = rank * 4294967296 + left;
    const end = left + 2;
    let i = size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p]! <= key) break;
      keys[i] = keys[p]!;
      ends[i] = ends[p]!;
      i = p;
    }
    keys[i] = key;
    ends[i] = end;
  }
  let parts = n;
  while (size > 0) {
    const top = keys[0]!;
    const topEnd = ends[0]!;
    // Pop.
    size--;
    if (size > 0) {
      const key = keys[size]!;
      const end = ends[size]!;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= size) break;
        if (c + 1 < size && keys[c + 1]! < keys[c]!) c++;
        if (keys[c]! >= key) break;
        keys[i] = keys[c]!;
        ends[i] = ends[c]!;
        i = c;
      }
      keys[i] = key;
      ends[i] = end;
    }
    const left = top % 4294967296;
    if (prev[left] === -2) continue;
    const mid = next[left]!;
    if (mid >= n || next[mid] !== topEnd) continue; // stale: a neighbour merged since
    const merged = (top - left) / 4294967296;
    tok[left] = merged;
    prev[mid] = -2;
    next[left] = topEnd;
    if (topEnd < n) prev[topEnd] = left;
    parts--;
    // New candidates: (left, right of it) and (before, left).
    for (let side = 0; side < 2; side++) {
      const l = side === 0 ? left : prev[left]!;
      if (l < 0) continue;
      const m = next[l]!;
      if (m >= n) continue;
      const rank = pr.pair(tok[l]!, tok[m]!);
      if (rank === NONE) continue;
      const key = rank * 4294967296 + l;
      const end = next[m]!;
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (keys[p]! <= key) break;
        keys[i] = keys[p]!;
        ends[i] = ends[p]!;
        i = p;
      }
      keys[i] = key;
      ends[i] = end;
    }
  }
  return parts;
}
