/**
 * Term → id, for the postings cache: an open-addressing table keyed by a hash of the term's
 * characters, so a term inside a longer string (a stored terms column) is looked up in place —
 * hashed from its char codes and compared with the stored term — with no substring made. A fresh
 * substring looked up in a `Map` is hashed and allocated first; loading a large index does that
 * tens of millions of times.
 *
 * @module search/ranking/term-table
 */

const HASH_START = 0x811c9dc5 | 0;
const HASH_PRIME = 0x01000193;

/** FNV-1a over the char codes of `text[from..to)`. */
function hashOf(text: string, from: number, to: number): number {
  let h = HASH_START;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), HASH_PRIME);
  return h | 0;
}

/** Whether `a[i..i + len)` and `b[j..j + len)` hold the same characters. */
function sameRange(a: string, i: number, b: string, j: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (a.charCodeAt(i + k) !== b.charCodeAt(j + k)) return false;
  return true;
}

/**
 * Lookups a restored table answers by scanning its hashes before it builds its slots. A scan
 * reads the hashes in order (about 1 ms for a million terms); building places every id at a
 * random slot (about 40 ms for a million): a cold worker's first searches look up a few terms,
 * and a table that keeps being asked builds once, having scanned at most about as long as the
 * build takes. A write builds at once.
 */
const SCANS_BEFORE_BUILDING = 32;

/** Restored tables smaller than this build their slots at once (cheap at that size). */
const SCAN_MIN_TERMS = 65_536;

/** Slots for `n` terms: a power of two, at least 1,024 and more than twice `n`. */
function tableSize(n: number): number {
  let size = 1024;
  while (size < 2 * (n + 1)) size *= 2;
  return size;
}

/** Bytes of a V8 string of `length` characters, counted as two-byte (16 + 2n, rounded up to 8). */
const termBytes = (length: number): number => 16 + ((2 * length + 7) & ~7);

/**
 * Terms and their ids (0, 1, 2… in order of first sight).
 *
 * @example
 * const t = new TermTable();
 * t.internRange("read app.py", 5, 8) // 0 ("app")
 * t.idOf("app") // 0
 */
export class TermTable {
  /**
   * Per slot: id + 1 (0 when empty). Undefined after a restore until it pays to build it: the
   * first lookups scan the hashes instead (see {@link SCANS_BEFORE_BUILDING}).
   */
  private slots: Int32Array | undefined = new Int32Array(1024);
  private mask = 1023;
  /** Lookups answered by a scan since the last restore. */
  private scans = 0;

  /**
   * @param scanMinTerms restored tables with fewer terms build their slots at once; larger ones
   *   answer their first lookups by scanning.
   * @default 65_536
   */
  constructor(private readonly scanMinTerms = SCAN_MIN_TERMS) {}
  /**
   * Terms restored from a snapshot (ids below `baseCount`), kept as the one joined text they were
   * stored as, with its bounds: a term is compared in place and sliced out only when asked for
   * ({@link termOf}), so a restore makes no string per term.
   */
  private baseText = "";
  private baseStart: Int32Array = new Int32Array(1);
  private baseCount = 0;
  /** Per id from `baseCount` on: the term (at `id - baseCount`). */
  private readonly terms: string[] = [];
  /** Per id: the term's hash. */
  private hashes = new Int32Array(512);
  /** The estimated bytes of the terms' strings (see {@link bytes}), kept as terms are added: reading the estimate is O(1). */
  private stringBytes = 0;

  /** How many terms the table holds. */
  get size(): number {
    return this.baseCount + this.terms.length;
  }

  /** The term of `id`. */
  termOf(id: number): string {
    return id < this.baseCount
      ? this.baseText.slice(this.baseStart[id]!, this.baseStart[id + 1]!)
      : this.terms[id - this.baseCount]!;
  }

  /** Every term, joined in id order, and the bounds of each (`start[id]..start[id + 1]`). */
  joined(): { readonly text: string; readonly start: Int32Array } {
    if (this.terms.length === 0) return { text: this.baseText, start: this.baseStart.subarray(0, this.baseCount + 1) };
    const start = new Int32Array(this.size + 1);
    start.set(this.baseStart.subarray(0, this.baseCount + 1));
    let at = start[this.baseCount]!;
    for (let i = 0; i < this.terms.length; i++) {
      at += this.terms[i]!.length;
      start[this.baseCount + i + 1] = at;
    }
    return { text: this.baseText + this.terms.join(""), start };
  }

  /** The id of `term`, or -1. */
  idOf(term: string): number {
    return this.find(term, 0, term.length, hashOf(term, 0, term.length));
  }

  /** The id of `text[from..to)`, added when new. */
  internRange(text: string, from: number, to: number): number {
    return this.internHashed(text, from, to, hashOf(text, from, to));
  }

  /**
   * Interns every term of a terms column (summary terms joined by " ", a tab, content terms
   * joined by " "), writing each occurrence to `out` from `at` as `id << 1 | field` (0 summary,
   * 1 content); returns how many it wrote. One pass: each term is hashed as it is scanned, and
   * compared with a stored term in place. `out` must hold {@link columnTerms} more values.
   */
  internColumn(text: string, out: Int32Array, at: number): number {
    const tab = text.indexOf("\t");
    const end = tab < 0 ? text.length : tab;
    let n = at;
    let h = HASH_START;
    let a = 0;
    for (let b = 0; b <= text.length; b++) {
      const c = b < text.length ? text.charCodeAt(b) : 32;
      if (c !== 32 && b !== end) {
        h = Math.imul(h ^ c, HASH_PRIME);
        continue;
      }
      if (b > a) out[n++] = (this.internHashed(text, a, b, h) << 1) | (b <= end ? 0 : 1);
      a = b + 1;
      h = HASH_START;
    }
    return n - at;
  }

  /**
   * How many terms {@link internColumn} writes for `text`: the non-empty runs between spaces
   * (and the one tab), without hashing or interning them.
   *
   * @example
   * TermTable.columnTerms("error read\tfile  main") // 4
   */
  static columnTerms(text: string): number {
    const tab = text.indexOf("\t");
    const end = tab < 0 ? text.length : tab;
    let n = 0;
    let a = 0;
    for (let b = 0; b <= text.length; b++) {
      if (b < text.length && text.charCodeAt(b) !== 32 && b !== end) continue;
      if (b > a) n++;
      a = b + 1;
    }
    return n;
  }

  /** {@link internRange} of a range its caller hashed (FNV-1a, as {@link hashOf}). */
  private internHashed(text: string, from: number, to: number, h: number): number {
    const found = this.find(text, from, to, h);
    if (found >= 0) return found;
    const id = this.size;
    this.terms.push(from === 0 && to === text.length ? text : text.slice(from, to));
    this.stringBytes += termBytes(to - from);
    if (id >= this.hashes.length) {
      const grown = new Int32Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[id] = h;
    const slots = this.slots;
    if (slots === undefined || 2 * (id + 1) > slots.length) this.rehash(tableSize(id + 1));
    else this.place(slots, id, h);
    return id;
  }

  /**
   * An estimate of the table's memory, in bytes: its two arrays at their allocated sizes, the
   * id array's slots and every term's string (a V8 string of n characters takes 16 + 2n rounded
   * up to 8 when two-byte, as terms decoded from a snapshot are; a one-byte one takes less).
   */
  bytes(): number {
    return (
      (this.slots?.byteLength ?? 0) +
      this.hashes.byteLength +
      8 * this.terms.length +
      this.stringBytes +
      (this.baseCount === 0 ? 0 : termBytes(this.baseText.length) + this.baseStart.byteLength)
    );
  }

  /** The hash of every term, in id order (a view). */
  hashArray(): Int32Array {
    return this.hashes.subarray(0, this.size);
  }

  /**
   * Replaces the table's content with the terms joined in `text` (term `id` is
   * `text.slice(start[id], start[id + 1])`, as {@link joined} gives them; `start` ascends from 0
   * to `text.length`, checked by the caller) and their hashes (as {@link hashArray} gave them).
   * The text is kept whole: no string is made per term.
   */
  restore(text: string, start: Int32Array, hashes: Int32Array): void {
    const n = start.length - 1;
    this.terms.length = 0;
    this.stringBytes = 0;
    this.baseText = text;
    this.baseStart = start;
    this.baseCount = n;
    this.hashes = new Int32Array(Math.max(512, n));
    this.hashes.set(hashes.subarray(0, n));
    this.scans = 0;
    if (n < this.scanMinTerms) this.rehash(tableSize(n));
    else this.slots = undefined;
  }

  /** Empties the table. */
  clear(): void {
    this.terms.length = 0;
    this.stringBytes = 0;
    this.baseText = "";
    this.baseStart = new Int32Array(1);
    this.baseCount = 0;
    this.slots = new Int32Array(1024);
    this.mask = 1023;
    this.scans = 0;
  }

  private find(text: string, from: number, to: number, h: number): number {
    let slots = this.slots;
    if (slots === undefined) {
      if (this.scans < SCANS_BEFORE_BUILDING) {
        this.scans++;
        return this.scan(text, from, to, h);
      }
      slots = this.rehash(tableSize(this.size));
    }
    const mask = this.mask;
    let s = Math.imul(h, 0x9e3779b1) & mask;
    for (;;) {
      const v = slots[s]!;
      if (v === 0) return -1;
      const id = v - 1;
      if (this.hashes[id] === h && this.holds(id, text, from, to)) return id;
      s = (s + 1) & mask;
    }
  }

  /** {@link find} by a pass over the hashes, in id order (no table). */
  private scan(text: string, from: number, to: number, h: number): number {
    const hashes = this.hashes;
    const n = this.size;
    for (let id = 0; id < n; id++) if (hashes[id] === h && this.holds(id, text, from, to)) return id;
    return -1;
  }

  /** Whether term `id` is `text[from..to)`. */
  private holds(id: number, text: string, from: number, to: number): boolean {
    const len = to - from;
    if (id < this.baseCount) {
      // A restored term, compared in place with its stretch of the joined text.
      const at = this.baseStart[id]!;
      return this.baseStart[id + 1]! - at === len && sameRange(text, from, this.baseText, at, len);
    }
    // Compared in place by the engine (no substring, no loop over the characters here).
    const t = this.terms[id - this.baseCount]!;
    return t.length === len && text.startsWith(t, from);
  }

  private place(slots: Int32Array, id: number, h: number): void {
    const mask = this.mask;
    let s = Math.imul(h, 0x9e3779b1) & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = id + 1;
  }

  private rehash(size: number): Int32Array {
    const slots = new Int32Array(size);
    this.slots = slots;
    this.mask = size - 1;
    const n = this.size;
    for (let id = 0; id < n; id++) this.place(slots, id, this.hashes[id]!);
    return slots;
  }
}
