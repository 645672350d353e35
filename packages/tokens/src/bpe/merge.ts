/**
 * Byte-pair merging of one pre-tokenised piece, counting the tokens it becomes.
 *
 * The rule is tiktoken's: repeatedly merge the adjacent pair whose concatenation has the lowest
 * rank, the leftmost one among equal ranks, until no adjacent pair is a token. Short pieces use
 * tiktoken's own loop (a scan for the minimum per merge, quadratic but tiny); long pieces use a
 * binary heap of candidate pairs over a linked list of parts, O(n log n), with stale heap entries
 * skipped when popped. Both give the same merges, so the count is exact at any length.
 *
 * @module bpe/merge
 */

const NONE = 0x7fffffff;

/** Pieces up to this many bytes are merged with the scan loop; longer ones with the heap. */
export const heapThresholdBytes = 96;

let starts = new Int32Array(256);
let pairRanks = new Int32Array(256);

/**
 * Tokens of the piece whose UTF-8 bytes are `bin` (one char per byte), by tiktoken's scan loop.
 * Quadratic in the number of bytes: use for short pieces only.
 */
export function mergeCountScan(bin: string, ranks: ReadonlyMap<string, number>): number {
  const n = bin.length;
  if (n <= 1) return n;
  if (starts.length < n + 1) {
    starts = new Int32Array(2 * n + 2);
    pairRanks = new Int32Array(2 * n + 2);
  }
  // parts: starts[0..m]; part k is bin[starts[k], starts[k+1]); pairRanks[k] is the rank of part k + k+1.
  let m = n;
  for (let k = 0; k <= n; k++) starts[k] = k;
  for (let k = 0; k < n - 1; k++) pairRanks[k] = ranks.get(bin.slice(k, k + 2)) ?? NONE;
  while (m > 1) {
    let best = NONE;
    let at = -1;
    for (let k = 0; k < m - 1; k++) {
      const r = pairRanks[k]!;
      if (r < best) {
        best = r;
        at = k;
      }
    }
    if (at < 0) break;
    // Merge parts at and at+1: drop boundary at+1.
    starts.copyWithin(at + 1, at + 2, m + 1);
    pairRanks.copyWithin(at + 1, at + 2, m - 1);
    m--;
    if (at + 1 < m) pairRanks[at] = ranks.get(bin.slice(starts[at]!, starts[at + 2]!)) ?? NONE;
    else pairRanks[at] = NONE;
    if (at > 0) pairRanks[at - 1] = ranks.get(bin.slice(starts[at - 1]!, starts[at + 1]!)) ?? NONE;
  }
  return m;
}

/**
 * Tokens of the piece whose UTF-8 bytes are `bin`, by heap-ordered merging over a linked list:
 * O(n log n) in the number of bytes, the same merges as {@link mergeCountScan}.
 */
export function mergeCountHeap(bin: string, ranks: ReadonlyMap<string, number>): number {
  const n = bin.length;
  if (n <= 1) return n;
  // Parts are named by their start byte; next[s] is the start of the following part (n at the end).
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const alive = new Uint8Array(n);
  for (let s = 0; s < n; s++) {
    next[s] = s + 1;
    prev[s] = s - 1;
    alive[s] = 1;
  }
  // Heap of candidate pairs: key = rank * 2^32 + left start (so ties go to the leftmost), plus the
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
    const end = next[mid]!;
    const rank = ranks.get(bin.slice(left, end));
    if (rank !== undefined) push(rank * 4294967296 + left, end);
  };
  for (let s = 0; s < n - 1; s++) candidate(s);
  let parts = n;
  while (size > 0) {
    const key = keys[0]!;
    const end = ends[0]!;
    pop();
    const left = key % 4294967296;
    if (alive[left] === 0) continue;
    const mid = next[left]!;
    if (mid >= n || next[mid] !== end) continue; // stale: a neighbour merged since
    // Merge left and mid.
    alive[mid] = 0;
    next[left] = end;
    if (end < n) prev[end] = left;
    parts--;
    candidate(left);
    const before = prev[left]!;
    if (before >= 0) candidate(before);
  }
  return parts;
}

/** Tokens of the piece whose UTF-8 bytes are `bin`: the scan loop when short, the heap when long. */
export function mergeCount(bin: string, ranks: ReadonlyMap<string, number>): number {
  return bin.length <= heapThresholdBytes ? mergeCountScan(bin, ranks) : mergeCountHeap(bin, ranks);
}
