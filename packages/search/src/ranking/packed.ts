/**
 * Packed postings: a list of 32-bit postings stored as the differences between neighbours
 * (modulo 2³², the first from 0), each written as an unsigned LEB128 varint (7 bits a byte, the
 * high bit set on every byte but a value's last). A postings list is ascending (docId × 4 + field
 * mask), so most differences take one byte: a snapshot's postings shrink to about a third
 * (24.9 → 8.3 MB for 1e5 entries of the benchmark corpus) and a restored list is unpacked on its
 * first use only. Any sequence of int32 round-trips (a descending step is a large difference,
 * five bytes), and unpacking never reads outside the range it is given.
 *
 * @module search/ranking/packed
 */

/**
 * Bytes `values[from..to)` take packed.
 *
 * @example
 * packedSize(Int32Array.of(4, 9, 300), 0, 3) // 4: differences 4, 5 and 291 take 1, 1 and 2 bytes
 */
export function packedSize(values: Int32Array, from: number, to: number): number {
  let n = 0;
  let prev = 0;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    n += varintBytes((v - prev) >>> 0);
    prev = v;
  }
  return n;
}

/**
 * Bytes the unsigned 32-bit `d` takes as a varint.
 *
 * @example varintBytes(300) // 2
 */
export function varintBytes(d: number): number {
  return d < 0x80 ? 1 : d < 0x4000 ? 2 : d < 0x200000 ? 3 : d < 0x10000000 ? 4 : 5;
}

/**
 * Writes the unsigned 32-bit `d` as a varint into `out` from byte `at`; returns the byte after it.
 *
 * @example
 * const out = new Uint8Array(2);
 * writeVarint(out, 0, 300) // 2; out is [0xac, 0x02]
 */
export function writeVarint(out: Uint8Array, at: number, d: number): number {
  let j = at;
  while (d >= 0x80) {
    out[j++] = (d & 0x7f) | 0x80;
    d >>>= 7;
  }
  out[j++] = d;
  return j;
}

/**
 * Packs `values[from..to)` into `out` from byte `at` (which must have {@link packedSize} bytes of
 * room); returns the byte after the last one written.
 *
 * @example
 * const out = new Uint8Array(4);
 * packInto(Int32Array.of(4, 9, 300), 0, 3, out, 0) // 4
 */
export function packInto(values: Int32Array, from: number, to: number, out: Uint8Array, at: number): number {
  let prev = 0;
  let j = at;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    j = writeVarint(out, j, (v - prev) >>> 0);
    prev = v;
  }
  return j;
}

/**
 * Unpacks `count` postings from `bytes[from..to)` into `out` (from index 0). Total: bytes that
 * run out before `count` values leave the rest 0, bytes left over are ignored, and nothing outside
 * `bytes[from..to)` (clamped to the array) is read. Returns how many values the bytes held
 * (`count` for a well-formed range).
 *
 * @example
 * const out = new Int32Array(3);
 * unpackInto(Uint8Array.of(4, 5, 0xa3, 0x02), 0, 4, 3, out) // 3; out is [4, 9, 300]
 */
export function unpackInto(bytes: Uint8Array, from: number, to: number, count: number, out: Int32Array): number {
  const end = Math.min(to, bytes.length);
  let i = Math.max(0, from);
  let n = 0;
  let prev = 0;
  while (n < count && i < end) {
    let d = 0;
    let shift = 0;
    let b: number;
    do {
      b = bytes[i++]!;
      // Bits past the 32nd (a malformed fifth byte) are dropped, as `>>> 0` would.
      if (shift < 32) d |= (b & 0x7f) << shift;
      shift += 7;
    } while (b >= 0x80 && i < end);
    if (b >= 0x80) break; // the range ended inside a value
    prev = (prev + d) | 0;
    out[n++] = prev;
  }
  if (n < count) out.fill(0, n, count);
  return n;
}
