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
 * @module bpe/merge
 */
import type { RankTable } from "./ranks.js";
import { NO_RANK, type TokenTrie } from "./trie.js";

const NONE = NO_RANK;

/** Pieces up to this many bytes are merged with the scan loop; longer ones with the heap. */
export const heapThresholdBytes = 128;

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
  for (let k = 0; k < n - 1; k++) pairs[k] = pr.pair(toks[k]!, toks[k + 1]!);
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

/**
 * Tokens of the piece whose UTF-8 bytes are `bytes[0..n)`, by heap-ordered merging over a linked
 * list: O(n log n), the same merges as {@link mergeCountScan}.
 */
export function mergeCountHeap(bytes: Uint8Array, n: number, table: RankTable, pr: TokenTrie): number {
  if (n <= 1) return n;
  // Parts are named by their start byte; next[s] is the start of the following part (n at the end).
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const tok = new Int32Array(n);
  const byteTokens = table.byteTokens;
  for (let s = 0; s < n; s++) {
    next[s] = s + 1;
    prev[s] = s - 1;
    tok[s] = byteTokens[bytes[s]!]!;
  }
  // Heap of candidate pairs: key = rank * 2^32 + left start (ties go to the leftmost), plus the
  // end of the right part when the candidate was made (a changed end marks the entry stale).
  let size = 0;
  let keys = new Float64Array(n);
  let ends = new Int32Array(n);
  const push = (key: number, end: number): void => {
    if (size === keys.length) {
      const k2 = new Float64Array(size * 2);
      k2.set(keys);
      keys = k2;
      const e2 = new Int32Array(size * 2);
      e2.set(ends);
      ends = e2;
    }
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
  };
  const pop = (): void => {
    const key = keys[--size]!;
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
  };
  const candidate = (left: number): void => {
    const mid = next[left]!;
    if (mid >= n) return;
    const rank = pr.pair(tok[left]!, tok[mid]!);
    if (rank !== NONE) push(rank * 4294967296 + left, next[mid]!);
  };
  for (let s = 0; s < n - 1; s++) candidate(s);
  let parts = n;
  while (size > 0) {
    const key = keys[0]!;
    const end = ends[0]!;
    pop();
    const left = key % 4294967296;
    if (prev[left] === -2) continue; // merged into its left neighbour
    const mid = next[left]!;
    if (mid >= n || next[mid] !== end) continue; // stale: a neighbour merged since
    tok[left] = (key - left) / 4294967296;
    prev[mid] = -2;
    next[left] = end;
    if (end < n) prev[end] = left;
    parts--;
    candidate(left);
    const before = prev[left]!;
    if (before >= 0) candidate(before);
  }
  return parts;
}

/** Tokens of the piece with UTF-8 bytes `bytes[0..n)`: the scan loop when short, the heap when long. */
export function mergeCount(bytes: Uint8Array, n: number, table: RankTable, pr: TokenTrie): number {
  return n <= heapThresholdBytes ? mergeCountScan(bytes, n, table, pr) : mergeCountHeap(bytes, n, table, pr);
}
