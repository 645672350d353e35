/**
 * One term's postings list: `docId << 2 | field mask`, docIds ascending, grown by appending, with
 * the bounds block-max pruning reads (OR of masks and shortest entry, per list and per
 * {@link BLOCK} postings).
 *
 * @module search/ranking/term-list
 */

/** Postings per block of the block-max bounds. */
export const BLOCK = 128;
/** log2 of {@link BLOCK}. */
export const SHIFT = 7;

/** One term's postings and bounds. Mutable: owned by {@link PostingsCache}. */
export interface TermList {
  /** `docId << 2 | mask`, ascending. */
  postings: Int32Array;
  length: number;
  /** Live entries holding the term. */
  df: number;
  /** OR of every posting's mask (a bound on the weighted frequency). */
  orMask: number;
  /** Shortest entry holding the term (a bound on length normalisation). */
  minLen: number;
  /**
   * Per block of {@link BLOCK} postings: OR of masks and shortest entry. Empty while the list
   * has one block (its bounds are then `orMask` and `minLen`).
   */
  blockMask: Uint8Array;
  blockMinLen: Int32Array;
}

/** The empty list arrays (shared; a list gets its own on its first posting). */
export const EMPTY = new Int32Array(0);
const EMPTY_MASKS = new Uint8Array(0);

export function emptyList(): TermList {
  return {
    postings: EMPTY,
    length: 0,
    df: 0,
    orMask: 0,
    minLen: 0x7fffffff,
    blockMask: EMPTY_MASKS,
    blockMinLen: EMPTY,
  };
}

/** The OR of masks of the block holding posting `i`. */
export function blockMaskOf(list: TermList, i: number): number {
  return list.length <= BLOCK ? list.orMask : list.blockMask[i >> SHIFT]!;
}

/** The shortest entry of the block holding posting `i`. */
export function blockMinLenOf(list: TermList, i: number): number {
  return list.length <= BLOCK ? list.minLen : list.blockMinLen[i >> SHIFT]!;
}

export function grownInt32(a: Int32Array, need: number): Int32Array {
  if (need <= a.length) return a;
  const out = new Int32Array(Math.max(need, a.length * 2, 4));
  out.set(a);
  return out;
}

export function grownUint8(a: Uint8Array, need: number): Uint8Array {
  if (need <= a.length) return a;
  const out = new Uint8Array(Math.max(need, a.length * 2, 4));
  out.set(a);
  return out;
}

export function appendPosting(list: TermList, doc: number, mask: number, len: number): void {
  const i = list.length;
  if (i >= list.postings.length) list.postings = grownInt32(list.postings, i + 1);
  list.postings[i] = (doc << 2) | mask;
  list.length = i + 1;
  list.df++;
  list.orMask |= mask;
  // Block 0's shortest entry, if this posting starts block 1: the list's shortest before it.
  const shortestBefore = list.minLen;
  if (len < list.minLen) list.minLen = len;
  if (i < BLOCK) return;
  const b = i >> SHIFT;
  if (i === BLOCK) {
    // The second block starts: block 0's bounds are the list's before this posting (lengths are
    // not kept per posting), exactly those a list packed at once has.
    list.blockMask = new Uint8Array(8);
    list.blockMinLen = new Int32Array(8);
    let m = 0;
    for (let j = 0; j < BLOCK; j++) m |= list.postings[j]! & 3;
    list.blockMask[0] = m;
    list.blockMinLen[0] = shortestBefore;
  }
  if ((i & (BLOCK - 1)) === 0) {
    list.blockMask = grownUint8(list.blockMask, b + 1);
    list.blockMinLen = grownInt32(list.blockMinLen, b + 1);
    list.blockMask[b] = mask;
    list.blockMinLen[b] = len;
  } else {
    list.blockMask[b]! |= mask;
    if (len < list.blockMinLen[b]!) list.blockMinLen[b] = len;
  }
}
