/**
 * Flat lists: every term's postings list of a cache in a few shared arrays (bounds, packed bytes,
 * per-list and per-block bounds), as a batch into an empty cache builds them and a snapshot
 * stores them; a list object is made from them on the list's first use.
 *
 * @module search/ranking/flat-lists
 */
import { varintBytes, writeVarint } from "./packed.js";
import { BLOCK, SHIFT, type TermList } from "./term-list.js";

/**
 * Every term's postings list, flat: list `t` holds `listStart[t + 1] - listStart[t]` postings,
 * packed (see `search/ranking/packed`) in `packed[packedStart[t]..packedStart[t + 1])` and
 * unpacked on the list's first use; its block bounds `blockMask`/`blockMinLen[blockStart[t]..blockStart[t + 1])`
 * (none for a list of one block), its df, OR of masks and shortest entry at index `t`.
 */
export interface FlatLists {
  readonly listStart: Int32Array;
  readonly packed: Uint8Array;
  readonly packedStart: Int32Array;
  readonly df: Int32Array;
  readonly orMask: Uint8Array;
  readonly minLen: Int32Array;
  readonly blockStart: Int32Array;
  readonly blockMask: Uint8Array;
  readonly blockMinLen: Int32Array;
  /**
   * When the packed bytes are read after the rest (a snapshot restored lazily): true when
   * `packed[from..to)` is read and checked. A list is made only from bytes that are; the caller
   * reads what a search needs before it ranks, and everything before a change or a snapshot.
   */
  readonly ready?: (from: number, to: number) => boolean;
}

/** List `id` of `f` with the given postings (its block bounds are views into `f`). */
export function flatList(f: FlatLists, id: number, postings: Int32Array): TermList {
  const ba = f.blockStart[id]!;
  const bb = f.blockStart[id + 1]!;
  return {
    postings,
    length: f.listStart[id + 1]! - f.listStart[id]!,
    df: f.df[id]!,
    orMask: f.orMask[id]!,
    minLen: f.minLen[id]!,
    blockMask: f.blockMask.subarray(ba, bb),
    blockMinLen: f.blockMinLen.subarray(ba, bb),
  };
}
/** The postings of a list read for its bounds only. */
export const NO_POSTINGS = new Int32Array(0);

/** Flat lists with the given bounds (`nt + 1` each), their bytes and per-list values still zero. */
export function flatOf(listStart: Int32Array, packedStart: Int32Array, blockStart: Int32Array): FlatLists {
  const nt = listStart.length - 1;
  return {
    listStart,
    packed: new Uint8Array(packedStart[nt]!),
    packedStart,
    df: new Int32Array(nt),
    orMask: new Uint8Array(nt),
    minLen: new Int32Array(nt),
    blockStart,
    blockMask: new Uint8Array(blockStart[nt]!),
    blockMinLen: new Int32Array(blockStart[nt]!),
  };
}

/**
 * The lists, as {@link FlatLists}, of entries `doc0..docEnd` put into a cache that held no term:
 * straight from their forward lists (`forward[docStart[d]..docStart[d + 1])`, each slot
 * `termId << 2 | field mask`, set back to the plain term id here), whose term ids are `0..nt - 1`
 * with `count[t]` postings each. Two passes over the slots, in entry order (so each list's
 * docIds ascend): the packed size of each list, then its bytes and bounds, those
 * {@link appendPosting} keeps. No array of every posting is made: a first load's peak memory is
 * its lists, not its lists and their postings unpacked.
 */
export function packForward(
  forward: Int32Array,
  docStart: Int32Array,
  doc0: number,
  docEnd: number,
  count: Int32Array,
  nt: number,
  docLen: Int32Array,
): FlatLists {
  const listStart = new Int32Array(nt + 1);
  const blockStart = new Int32Array(nt + 1);
  for (let t = 0; t < nt; t++) {
    const length = count[t]!;
    listStart[t + 1] = listStart[t]! + length;
    blockStart[t + 1] = blockStart[t]! + (length > BLOCK ? Math.ceil(length / BLOCK) : 0);
  }
  // Pass 1: each list's packed bytes (its differences, the first from 0), into packedStart[t + 1].
  const prev = new Int32Array(nt);
  const packedStart = new Int32Array(nt + 1);
  for (let doc = doc0; doc < docEnd; doc++) {
    const end = docStart[doc + 1]!;
    for (let k = docStart[doc]!; k < end; k++) {
      const v = forward[k]!;
      const t = v >>> 2;
      const p = (doc << 2) | (v & 3);
      packedStart[t + 1]! += varintBytes((p - prev[t]!) >>> 0);
      prev[t] = p;
    }
  }
  for (let t = 0; t < nt; t++) packedStart[t + 1]! += packedStart[t]!;
  const flat = flatOf(listStart, packedStart, blockStart);
  // Pass 2: the bytes, at each list's cursor, and the bounds; `seen[t]` is the posting's index in its list.
  const packed = flat.packed;
  const cursor = packedStart.slice(0, nt);
  const seen = new Int32Array(nt);
  prev.fill(0);
  flat.minLen.fill(0x7fffffff);
  for (let doc = doc0; doc < docEnd; doc++) {
    const end = docStart[doc + 1]!;
    const len = docLen[doc]!;
    for (let k = docStart[doc]!; k < end; k++) {
      const v = forward[k]!;
      const t = v >>> 2;
      const mask = v & 3;
      const p = (doc << 2) | mask;
      cursor[t] = writeVarint(packed, cursor[t]!, (p - prev[t]!) >>> 0);
      prev[t] = p;
      flat.orMask[t]! |= mask;
      if (len < flat.minLen[t]!) flat.minLen[t] = len;
      const i = seen[t]!++;
      if (count[t]! > BLOCK) {
        const at = blockStart[t]! + (i >> SHIFT);
        if ((i & (BLOCK - 1)) === 0) {
          flat.blockMask[at] = mask;
          flat.blockMinLen[at] = len;
        } else {
          flat.blockMask[at]! |= mask;
          if (len < flat.blockMinLen[at]!) flat.blockMinLen[at] = len;
        }
      }
      forward[k] = t;
    }
  }
  flat.df.set(count.subarray(0, nt));
  return flat;
}
