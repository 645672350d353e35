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
  /** Per slot: id + 1 (0 when empty). */
  private slots = new Int32Array(1024);
  private mask = 1023;
  /** Per id: the term and its hash. */
  private readonly terms: string[] = [];
  private hashes = new Int32Array(512);
  /** The estimated bytes of the terms' strings (see {@link bytes}), kept as terms are added: reading the estimate is O(1). */
  private stringBytes = 0;

  /** How many terms the table holds. */
  get size(): number {
    return this.terms.length;
  }

  /** The term of `id`. */
  termOf(id: number): string {
    return this.terms[id]!;
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
    const id = this.terms.length;
    this.terms.push(from === 0 && to === text.length ? text : text.slice(from, to));
    this.stringBytes += termBytes(to - from);
    if (id >= this.hashes.length) {
      const grown = new Int32Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[id] = h;
    if (2 * (id + 1) > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(id, h);
    return id;
  }

  /**
   * An estimate of the table's memory, in bytes: its two arrays at their allocated sizes, the
   * id array's slots and every term's string (a V8 string of n characters takes 16 + 2n rounded
   * up to 8 when two-byte, as terms decoded from a snapshot are; a one-byte one takes less).
   */
  bytes(): number {
    return this.slots.byteLength + this.hashes.byteLength + 8 * this.terms.length + this.stringBytes;
  }

  /** The hash of every term, in id order (a view). */
  hashArray(): Int32Array {
    return this.hashes.subarray(0, this.terms.length);
  }

  /** Replaces the table's content with `terms` (ids in order) and their hashes (as {@link hashArray} gave them). */
  restore(terms: readonly string[], hashes: Int32Array): void {
    this.terms.length = 0;
    let bytes = 0;
    for (const t of terms) {
      this.terms.push(t);
      bytes += termBytes(t.length);
    }
    this.stringBytes = bytes;
    this.hashes = new Int32Array(Math.max(512, terms.length));
    this.hashes.set(hashes.subarray(0, terms.length));
    let size = 1024;
    while (size < 2 * (terms.length + 1)) size *= 2;
    this.rehash(size);
  }

  /** Empties the table. */
  clear(): void {
    this.terms.length = 0;
    this.stringBytes = 0;
    this.slots = new Int32Array(1024);
    this.mask = 1023;
  }

  private find(text: string, from: number, to: number, h: number): number {
    const len = to - from;
    const slots = this.slots;
    const mask = this.mask;
    let s = Math.imul(h, 0x9e3779b1) & mask;
    for (;;) {
      const v = slots[s]!;
      if (v === 0) return -1;
      const id = v - 1;
      if (this.hashes[id] === h) {
        // Compared in place by the engine (no substring, no loop over the characters here).
        const t = this.terms[id]!;
        if (t.length === len && text.startsWith(t, from)) return id;
      }
      s = (s + 1) & mask;
    }
  }

  private place(id: number, h: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let s = Math.imul(h, 0x9e3779b1) & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = id + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let id = 0; id < this.terms.length; id++) this.place(id, this.hashes[id]!);
  }
}
