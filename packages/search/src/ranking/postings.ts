/**
 * The in-process postings cache every backend ranks from: term → a growable `Int32Array` of
 * postings (`docId << 2 | field mask`, docIds ascending), with per-block bounds (the largest
 * field mask and the shortest entry of every {@link BLOCK} postings) for block-max pruning, and
 * per-entry length, namespace and kind in typed arrays.
 *
 * An entry is identified by a caller's key (e.g. `entryKey(namespace, id)`) and carries a handle
 * (what the backend fetches the row by). Writing a key again replaces the entry: the old docId
 * becomes dead and the entry gets a new docId at the end, so lists stay sorted by appending.
 * Dead postings are dropped (and docIds renumbered, order kept) once they outnumber live ones.
 *
 * @module search/ranking/postings
 */
import { flatList, flatOf, NO_POSTINGS, packForward, type FlatLists } from "./flat-lists.js";
import { packedSize, packInto, unpackInto } from "./packed.js";
import { appendPosting, BLOCK, emptyList, grownInt32, type TermList } from "./term-list.js";
import { TermTable } from "./term-table.js";

export { BLOCK, blockMaskOf, blockMinLenOf, type TermList } from "./term-list.js";
export type { FlatLists } from "./flat-lists.js";

/** The distinct indexed terms of an entry's two fields (see `indexedTerms`). */
export interface EntryTerms {
  readonly summary: readonly string[];
  readonly content: readonly string[];
}

/**
 * An entry's terms as stored in a terms column: the summary terms joined by " ", a tab, the
 * content terms joined by " " (`termsColumn` of the SQLite schema). Read in place, with no
 * substring per term.
 */
export type ColumnTerms = string;

/**
 * Joined keys kept as a snapshot stores them, decoded a key at a time when one is read (a search
 * reads its hits' keys only): one byte a character (Latin-1), or UTF-16 code units when `wide`.
 */
export interface KeyBytes {
  readonly bytes: Uint8Array;
  readonly wide: boolean;
}

/** The characters of `bytes[from..to)` (character offsets) of joined keys. */
function keySlice(keys: KeyBytes, from: number, to: number): string {
  const b = keys.bytes;
  // Bounds from a snapshot are clamped to the text (as `String.prototype.slice` would).
  const chars = keys.wide ? b.length >> 1 : b.length;
  from = Math.max(0, Math.min(from, chars));
  to = Math.max(from, Math.min(to, chars));
  return keys.wide
    ? Buffer.from(b.buffer, b.byteOffset + 2 * from, 2 * (to - from)).toString("utf16le")
    : Buffer.from(b.buffer, b.byteOffset + from, to - from).toString("latin1");
}

/** Joined keys as one string. */
export function keyString(keys: string | KeyBytes): string {
  return typeof keys === "string" ? keys : keySlice(keys, 0, keys.wide ? keys.bytes.length / 2 : keys.bytes.length);
}

/**
 * A cache's state as arrays (see {@link PostingsCache.image} and {@link PostingsCache.restore}):
 * per docId (dead ones included) its length, namespace id, kind id, liveness, forward-list
 * bounds and key; per term id its text, hash and postings list; namespaces and kinds in id order.
 */
export interface CacheImage {
  readonly docCount: number;
  readonly live: number;
  readonly totalLen: number;
  readonly deadPostings: number;
  readonly livePostings: number;
  readonly docLen: Int32Array;
  readonly docNs: Int32Array;
  readonly docKind: Int32Array;
  readonly docLive: Uint8Array;
  /** docCount + 1 bounds into `forward`. */
  readonly docStart: Int32Array;
  /**
   * Every entry's term ids, entry after entry; undefined when the cache does not hold them (one
   * restored from a snapshot, which stores none: they are rebuilt from the postings lists on the
   * cache's first write or removal).
   */
  readonly forward: Int32Array | undefined;
  readonly keyText: string | KeyBytes;
  /** docCount + 1 bounds into `keyText` (in characters). */
  readonly keyStart: Int32Array;
  /** Every term, joined in id order; term `t` is `termText.slice(termStart[t], termStart[t + 1])`. */
  readonly termText: string;
  /** termCount + 1 bounds into `termText`. */
  readonly termStart: Int32Array;
  readonly termHashes: Int32Array;
  readonly lists: FlatLists;
  readonly namespaces: readonly string[];
  readonly kinds: readonly string[];
}

/** One entry for {@link PostingsCache.putMany}. */
export interface CacheItem<H> {
  readonly key: string;
  readonly handle: H;
  readonly terms: EntryTerms | ColumnTerms;
  readonly namespace: string;
  readonly kind: string;
}

/** Bytes of a V8 string of `length` characters, counted as two-byte (a one-byte one takes less). */
export const stringBytes = (length: number): number => 16 + ((2 * length + 7) & ~7);
/** Bytes a typed array with its own buffer takes besides its elements (wrapper, buffer object, backing store), measured on Node 20. */
const TYPED_ARRAY_BYTES = 200;
/** Bytes a typed array viewing another's buffer takes (a restored list's slice of the snapshot arrays). */
const VIEW_BYTES = 110;
/** Bytes of one postings list object (seven fields). */
const LIST_OBJECT_BYTES = 90;
/** Bytes per live entry besides its key's characters: the key → docId map entry and the entry's key and handle slots. */
const KEY_ENTRY_BYTES = 120;

/**
 * The postings cache: a mutable index, owned by one backend instance.
 *
 * @example
 * const cache = new PostingsCache<string>();
 * cache.put("k1", "k1", { summary: ["read", "app", "py"], content: ["def", "main"] }, "default", "file");
 * cache.docOf("k1") // 0
 */
export class PostingsCache<H> {
  /**
   * @param compactAfter Dead postings tolerated before a compaction (which also needs them to
   *   outnumber the live ones).
   */
  constructor(private readonly compactAfter = 65_536) {}

  private readonly termIds = new TermTable();
  /** Per term id (after a restore, made from {@link flat} on first use). */
  private lists: (TermList | undefined)[] = [];
  /**
   * The ids whose list was made since the lists were last all undefined (a restore, a pack, a
   * clear), so {@link bytes} counts those and never walks a million never-used ids; undefined
   * once lists were made for every id at once (then it walks them all).
   */
  private made: number[] | undefined = [];
  /** After a restore: the restored lists, flat. */
  private flat: FlatLists | undefined;
  private readonly nsIds = new Map<string, number>();
  private readonly kindIds = new Map<string, number>();
  /** Key → live docId; built on first use after {@link PostingsCache.restore} and after a batch into an empty cache. */
  private keyMap: Map<string, number> | undefined = new Map<string, number>();
  /** The estimated bytes of the live entries' key strings (see `stringBytes`; restored keys not yet made are counted with their joined text), kept as keys come and go: `bytes()` reads it in O(1). */
  private keyStringBytes = 0;
  /** Per docId. */
  docLen: Int32Array = new Int32Array(1024);
  docNs: Int32Array = new Int32Array(1024);
  docKind: Int32Array = new Int32Array(1024);
  docLive: Uint8Array = new Uint8Array(1024);
  private docStart: Int32Array = new Int32Array(1025);
  private docKey: (string | undefined)[] = [];
  private docHandle: (H | undefined)[] = [];
  /** After a restore: every restored docId's key, `keyText[keyStart[d]..keyStart[d + 1])`, read on demand. */
  private keyText: string | KeyBytes = "";
  private keyStart: Int32Array | undefined;
  /** After a restore: the handle of a restored docId, made on demand. */
  private derive: ((doc: number, key: string) => H) | undefined;
  private restoredDocs = 0;
  /** After a restore: the buffer the restored arrays view (a snapshot's bytes), for {@link bytes}. */
  private restoredBuffer: ArrayBufferLike | undefined;
  /** Term ids of every entry, docId after docId (for df upkeep on removal); see {@link forwardBuilt}. */
  private forward: Int32Array = new Int32Array(4096);
  /** False after a restore from an image without forward lists, until {@link ensureForward} rebuilds them. */
  private forwardBuilt = true;
  /** Per term id: 1 + the last docId that took the term (to merge an entry's two fields). */
  private mark: Int32Array = new Int32Array(1024);
  /** Per term id: the forward slot of the term in the entry being added. */
  private slot: Int32Array = new Int32Array(1024);
  /** Number of docIds handed out (dead ones included). */
  docCount = 0;
  /** Live entries. */
  live = 0;
  /** Sum of the lengths of live entries. */
  totalLen = 0;
  private deadPostings = 0;
  private livePostings = 0;

  /**
   * An estimate of the memory the cache holds, in bytes, as V8 (Node 20) lays it out, so the
   * byte cap of the scope LRU means what it says: every typed array at its allocated size plus
   * {@link TYPED_ARRAY_BYTES} for its own buffer ({@link VIEW_BYTES} for a view into a restored
   * snapshot's), {@link LIST_OBJECT_BYTES} per postings list made, the term table (strings,
   * slots, hashes), and per live entry its key string and {@link KEY_ENTRY_BYTES} of map entry
   * and per-entry slots. The constants are measured (`new Int32Array(4)` kept in an array takes
   * 224 bytes, a subarray 117, a `Map` entry with a 24-character key 157); a test checks the
   * estimate against the heap and external memory a loaded cache really retains.
   * Linear in the number of terms and entries; meant to be read after a load or a catch-up, not per posting.
   */
  bytes(): number {
    // Arrays restored from a snapshot are views into its one buffer, which they keep whole: the
    // buffer is counted once while any array still views it, each view as a view.
    const shared = this.restoredBuffer;
    let viewed = false;
    const own = (a: { readonly byteLength: number; readonly buffer: ArrayBufferLike }): number => {
      if (a.buffer === shared) {
        viewed = true;
        return VIEW_BYTES;
      }
      // An empty array is one of the shared empty ones.
      return a.byteLength === 0 ? 0 : TYPED_ARRAY_BYTES + a.byteLength;
    };
    let n = 0;
    for (const a of [
      this.docLen,
      this.docNs,
      this.docKind,
      this.docLive,
      this.docStart,
      this.forward,
      this.mark,
      this.slot,
    ])
      n += own(a);
    const made = this.made;
    if (made === undefined) {
      for (const list of this.lists)
        if (list !== undefined)
          n += LIST_OBJECT_BYTES + own(list.postings) + own(list.blockMask) + own(list.blockMinLen);
    } else
      for (const id of made) {
        const list = this.lists[id]!;
        n += LIST_OBJECT_BYTES + own(list.postings) + own(list.blockMask) + own(list.blockMinLen);
      }
    const f = this.flat;
    if (f !== undefined)
      for (const a of [
        f.listStart,
        f.packed,
        f.packedStart,
        f.df,
        f.orMask,
        f.minLen,
        f.blockStart,
        f.blockMask,
        f.blockMinLen,
      ])
        n += own(a);
    n += 8 * this.lists.length + this.termIds.bytes();
    // Restored keys are one string, kept until the restored entries are renumbered; counted as
    // two-byte (an upper bound: keys below U+0100 are restored as a one-byte string).
    if (this.keyStart !== undefined) n += 2 * (this.keyStart[this.restoredDocs] ?? 0) + own(this.keyStart);
    if (this.keyMap === undefined) n += KEY_ENTRY_BYTES * this.live + this.keyStringBytes;
    else n += KEY_ENTRY_BYTES * this.keyMap.size + this.keyStringBytes;
    if (viewed && shared !== undefined) n += shared.byteLength;
    return n;
  }

  /** The postings list of a term id (undefined for an id never handed out). */
  list(id: number): TermList | undefined {
    const l = this.lists[id];
    if (l !== undefined) return l;
    if (id < 0 || id >= this.lists.length) return undefined;
    const f = this.flat;
    if (f === undefined || id >= f.df.length) {
      // A term handed out whose list was not made yet (see `putBatch`): empty until its first posting.
      const made = emptyList();
      this.lists[id] = made;
      this.made?.push(id);
      return made;
    }
    const from = f.packedStart[id]!;
    const to = f.packedStart[id + 1]!;
    // A list's bytes are read before it is made (see `unreadRanges`): anything else is a bug, never a wrong answer.
    if (f.ready !== undefined && to > from && !f.ready(from, to))
      throw new Error(`postings list ${id} made before its bytes were read`);
    const postings = new Int32Array(Math.max(f.listStart[id + 1]! - f.listStart[id]!, 0));
    unpackInto(f.packed, from, to, postings.length, postings);
    const made = flatList(f, id, postings);
    this.lists[id] = made;
    this.made?.push(id);
    return made;
  }

  /**
   * After a restore whose packed postings are read later (see {@link FlatLists.ready}): the byte
   * ranges of `packed` that the lists of these terms need and that are not read yet. Empty when
   * every one is (always, for any other cache).
   */
  unreadRanges(terms: readonly string[]): [number, number][] {
    const f = this.flat;
    if (f?.ready === undefined) return [];
    const out: [number, number][] = [];
    for (const term of terms) {
      const id = this.termId(term);
      if (id < 0 || id >= f.df.length || this.lists[id] !== undefined) continue;
      const from = f.packedStart[id]!;
      const to = f.packedStart[id + 1]!;
      if (to > from && !f.ready(from, to)) out.push([from, to]);
    }
    return out;
  }

  /** False while some packed postings of a lazily restored cache are not read (see {@link unreadRanges}). */
  allRead(): boolean {
    const f = this.flat;
    return f?.ready === undefined || f.ready(0, f.packed.length);
  }

  /** Throws unless every packed list is read: a change or an image needs every list (a bug otherwise, never a wrong answer). */
  private requireAllRead(): void {
    if (!this.allRead()) throw new Error("the postings cache was changed or imaged before its lists were read");
  }

  /** The term id of `term`, or -1 when no entry ever held it. */
  termId(term: string): number {
    return this.termIds.idOf(term);
  }

  /** The namespace id of `ns`, or -1 when no entry has it. */
  namespaceId(ns: string): number {
    return this.nsIds.get(ns) ?? -1;
  }

  /** The kind id of `kind`, or -1 when no entry has it. */
  kindId(kind: string): number {
    return this.kindIds.get(kind) ?? -1;
  }

  /** The live docId of `key`, or undefined. */
  docOf(key: string): number | undefined {
    return this.keyToDoc().get(key);
  }

  /** The handle of a live docId. */
  handleOf(doc: number): H {
    const h = this.docHandle[doc];
    if (h !== undefined || this.derive === undefined || doc >= this.restoredDocs) return h as H;
    const made = this.derive(doc, this.keyOf(doc));
    this.docHandle[doc] = made;
    return made;
  }

  /** The key of a live docId. */
  keyOf(doc: number): string {
    const k = this.docKey[doc];
    if (k !== undefined || this.keyStart === undefined || doc >= this.restoredDocs) return k as string;
    const text = this.keyText;
    const made =
      typeof text === "string"
        ? text.slice(this.keyStart[doc]!, this.keyStart[doc + 1]!)
        : keySlice(text, this.keyStart[doc]!, this.keyStart[doc + 1]!);
    this.docKey[doc] = made;
    return made;
  }

  /** Key → live docId (built from the restored keys on first use). */
  private keyToDoc(): Map<string, number> {
    if (this.keyMap !== undefined) return this.keyMap;
    // Every key: the joined text decoded once, each key a slice of it.
    if (typeof this.keyText !== "string") this.keyText = keyString(this.keyText);
    const map = new Map<string, number>();
    let bytes = 0;
    for (let d = 0; d < this.docCount; d++)
      if (this.docLive[d] === 1) {
        const key = this.keyOf(d);
        map.set(key, d);
        bytes += stringBytes(key.length);
      }
    this.keyMap = map;
    this.keyStringBytes = bytes;
    return map;
  }

  /** Makes every restored key and handle a plain value (before docIds are renumbered). */
  private materialize(): void {
    if (this.keyStart === undefined && this.derive === undefined) return;
    this.keyToDoc();
    for (let d = 0; d < this.restoredDocs; d++) {
      if (this.docLive[d] !== 1) continue;
      this.keyOf(d);
      this.handleOf(d);
    }
    this.keyStart = undefined;
    this.keyText = "";
    this.derive = undefined;
    this.restoredDocs = 0;
  }

  /**
   * The cache's state as a snapshot stores it (see `search/ranking/snapshot`): the per-entry and
   * per-term arrays as they are (views, not copies), the keys of every docId joined into one
   * string (a dead docId's key is empty), the term table in id order.
   */
  image(): CacheImage {
    const keyStart = new Int32Array(this.docCount + 1);
    const parts: string[] = [];
    let at = 0;
    for (let d = 0; d < this.docCount; d++) {
      const k = this.docLive[d] === 1 ? this.keyOf(d) : "";
      parts.push(k);
      at += k.length;
      keyStart[d + 1] = at;
    }
    const terms = this.termIds.joined();
    const flat = this.packLists();
    return {
      docCount: this.docCount,
      live: this.live,
      totalLen: this.totalLen,
      deadPostings: this.deadPostings,
      livePostings: this.livePostings,
      docLen: this.docLen.subarray(0, this.docCount),
      docNs: this.docNs.subarray(0, this.docCount),
      docKind: this.docKind.subarray(0, this.docCount),
      docLive: this.docLive.subarray(0, this.docCount),
      docStart: this.docStart.subarray(0, this.docCount + 1),
      forward: this.forwardBuilt ? this.forward.subarray(0, this.docStart[this.docCount]!) : undefined,
      keyText: parts.join(""),
      keyStart,
      termText: terms.text,
      termStart: terms.start,
      termHashes: this.termIds.hashArray(),
      lists: flat,
      namespaces: [...this.nsIds.keys()],
      kinds: [...this.kindIds.keys()],
    };
  }

  /**
   * Every term's postings list, flat and packed (see {@link FlatLists}): a list made is packed
   * from its postings, a restored one never used is copied as its bytes are (unpacking every
   * list would cost an array each).
   */
  private packLists(): FlatLists {
    this.requireAllRead();
    const nt = this.termIds.size;
    const f = this.flat;
    const packedOnly = (id: number): boolean => this.lists[id] === undefined && f !== undefined && id < f.df.length;
    const listStart = new Int32Array(nt + 1);
    const blockStart = new Int32Array(nt + 1);
    const packedStart = new Int32Array(nt + 1);
    for (let id = 0; id < nt; id++) {
      let length: number;
      let packedBytes: number;
      if (packedOnly(id)) {
        length = f!.listStart[id + 1]! - f!.listStart[id]!;
        packedBytes = f!.packedStart[id + 1]! - f!.packedStart[id]!;
      } else {
        const l = this.list(id)!;
        length = l.length;
        packedBytes = packedSize(l.postings, 0, l.length);
      }
      listStart[id + 1] = listStart[id]! + length;
      packedStart[id + 1] = packedStart[id]! + packedBytes;
      blockStart[id + 1] = blockStart[id]! + (length > BLOCK ? Math.ceil(length / BLOCK) : 0);
    }
    const flat = flatOf(listStart, packedStart, blockStart);
    for (let id = 0; id < nt; id++) {
      let l: TermList;
      if (packedOnly(id)) {
        flat.packed.set(f!.packed.subarray(f!.packedStart[id]!, f!.packedStart[id + 1]!), packedStart[id]!);
        l = flatList(f!, id, NO_POSTINGS);
      } else {
        l = this.list(id)!;
        packInto(l.postings, 0, l.length, flat.packed, packedStart[id]!);
      }
      const nb = blockStart[id + 1]! - blockStart[id]!;
      flat.df[id] = l.df;
      flat.orMask[id] = l.orMask;
      flat.minLen[id] = l.minLen;
      if (nb > 0) {
        flat.blockMask.set(l.blockMask.subarray(0, nb), blockStart[id]!);
        flat.blockMinLen.set(l.blockMinLen.subarray(0, nb), blockStart[id]!);
      }
    }
    return flat;
  }

  /**
   * Keeps every postings list packed, as a restored cache does: one buffer and a few flat arrays
   * instead of an object and up to three arrays per term (a namespace of 1,000 entries holds a
   * few thousand terms). A list is unpacked again on its first use (a search's term, a write).
   * Called after a load from rows; the cache's content and every answer stay the same.
   */
  pack(): void {
    if (this.made !== undefined ? this.made.length === 0 : this.lists.every((l) => l === undefined)) return;
    this.flat = this.packLists();
    this.lists.fill(undefined);
    this.made = [];
  }

  /**
   * A cache from an {@link image} (as a snapshot decodes it), without re-inserting any entry:
   * the arrays are taken as they are (a later write grows them by copying), keys are read from
   * the joined key string on first use, handles made by `handleOf` on first use.
   */
  static restore<H>(
    image: CacheImage,
    handleOf: (doc: number, key: string) => H,
    compactAfter?: number,
  ): PostingsCache<H> {
    const c = new PostingsCache<H>(compactAfter);
    const nTerms = image.termStart.length - 1;
    c.termIds.restore(image.termText, image.termStart, image.termHashes);
    c.flat = image.lists;
    c.restoredBuffer = image.lists.packed.buffer;
    c.lists.length = nTerms;
    c.lists.fill(undefined);
    image.namespaces.forEach((ns, i) => c.nsIds.set(ns, i));
    image.kinds.forEach((k, i) => c.kindIds.set(k, i));
    c.docLen = image.docLen;
    c.docNs = image.docNs;
    c.docKind = image.docKind;
    c.docLive = image.docLive;
    c.docStart = image.docStart;
    c.forward = image.forward ?? new Int32Array(0);
    c.forwardBuilt = image.forward !== undefined;
    c.mark = new Int32Array(Math.max(1024, nTerms));
    c.slot = new Int32Array(Math.max(1024, nTerms));
    c.docCount = image.docCount;
    c.live = image.live;
    c.totalLen = image.totalLen;
    c.deadPostings = image.deadPostings;
    c.livePostings = image.livePostings;
    c.keyText = image.keyText;
    c.keyStart = image.keyStart;
    c.derive = handleOf;
    c.restoredDocs = image.docCount;
    // Filled on demand (by keyOf / handleOf): `new Array(n)` of a million holes took ~25 ms each,
    // and holds no more than an empty array read out of its bounds (undefined).
    c.docKey = [];
    c.docHandle = [];
    c.keyMap = undefined;
    c.keyStringBytes = 0;
    return c;
  }

  private internName(map: Map<string, number>, s: string): number {
    let id = map.get(s);
    if (id === undefined) {
      id = map.size;
      map.set(s, id);
    }
    return id;
  }

  /** Adds (or replaces) the entry `key`. */
  put(key: string, handle: H, terms: EntryTerms, namespace: string, kind: string): void {
    this.putMany([{ key, handle, terms, namespace, kind }]);
  }

  /**
   * Adds (or replaces) entries, in order. Postings are appended term by term (a counting sort of
   * the batch), so each list is touched once per batch rather than once per entry.
   */
  putMany(items: readonly CacheItem<H>[]): void {
    this.requireAllRead();
    const keys = new Set<string>();
    let from = 0;
    for (let i = 0; i < items.length; i++) {
      const key = items[i]!.key;
      if (keys.has(key)) {
        // The same key twice: the earlier one must be in place before the later replaces it.
        this.putBatch(items, from, i);
        keys.clear();
        from = i;
      }
      keys.add(key);
    }
    this.putBatch(items, from, items.length);
  }

  /**
   * Rebuilds the forward lists of a cache restored without them, from the postings lists: one
   * pass over every posting, each entry's term ids in ascending order (the order is not used).
   * A posting whose entry's span is already full (an inconsistent image) is skipped, so the
   * rebuild never writes outside an entry's span.
   */
  private ensureForward(): void {
    if (this.forwardBuilt) return;
    this.requireAllRead();
    const docCount = this.docCount;
    const docStart = this.docStart;
    const forward = new Int32Array(Math.max(docStart[docCount]!, 4));
    const fill = docStart.slice(0, docCount + 1);
    const nt = this.termIds.size;
    const f = this.flat;
    // A list not made yet is unpacked into one scratch array (making every list would cost an object and an array each).
    let scratch = new Int32Array(0);
    for (let t = 0; t < nt; t++) {
      const made = this.lists[t];
      if (made === undefined && (f === undefined || t >= f.df.length)) continue;
      let postings: Int32Array;
      let end: number;
      if (made !== undefined) {
        postings = made.postings;
        end = made.length;
      } else {
        end = f!.listStart[t + 1]! - f!.listStart[t]!;
        if (scratch.length < end) scratch = new Int32Array(Math.max(end, 2 * scratch.length));
        unpackInto(f!.packed, f!.packedStart[t]!, f!.packedStart[t + 1]!, end, scratch);
        postings = scratch;
      }
      for (let i = 0; i < end; i++) {
        const doc = postings[i]! >>> 2;
        if (doc >= docCount) continue;
        const at = fill[doc]!;
        if (at >= docStart[doc + 1]!) continue;
        forward[at] = t;
        fill[doc] = at + 1;
      }
    }
    this.forward = forward;
    this.forwardBuilt = true;
  }

  private putBatch(items: readonly CacheItem<H>[], from: number, to: number): void {
    if (from >= to) return;
    this.ensureForward();
    if (this.live > 0) for (let i = from; i < to; i++) this.remove(items[i]!.key);
    // Into an empty cache, the key → docId map is left to be built on first use (a search needs none).
    if (this.live === 0 && this.keyStart === undefined) this.keyMap = undefined;
    // A batch into a cache that holds no term yet builds its lists flat and packed (see `packForward`).
    const fresh = this.lists.length === 0 && this.flat === undefined;
    const slot0 = this.docStart[this.docCount]!;
    // Phase 0: every item's terms as term ids, item after item (ids are handed out in this
    // order), each `id << 1 | field` (0 summary, 1 content), item i's in `ids[at[i]..at[i + 1])`.
    // A column is scanned once, each term hashed as it is read (see `TermTable.internColumn`).
    // The ids go where the forward lists will: `forward` is grown once, to the batch's exact
    // count, and phase 1 writes slot `j` only after it has read the id at `slot0 + k ≥ j`.
    let need = 0;
    for (let i = from; i < to; i++) {
      const terms = items[i]!.terms;
      need += typeof terms === "string" ? TermTable.columnTerms(terms) : terms.summary.length + terms.content.length;
    }
    // Term ids are written `id << 2 | mask` in phase 1: they must stay below 2^29 (memory runs out long before).
    if (this.termIds.size + need >= 2 ** 29) throw new RangeError("a postings cache holds fewer than 2^29 terms");
    this.forward = grownInt32(this.forward, slot0 + need);
    const ids = this.forward;
    const at = new Int32Array(to - from + 1);
    let n = slot0;
    for (let i = from; i < to; i++) {
      const terms = items[i]!.terms;
      if (typeof terms === "string") n += this.termIds.internColumn(terms, ids, n);
      else {
        for (const t of terms.summary) ids[n++] = this.termIds.internRange(t, 0, t.length) << 1;
        for (const t of terms.content) ids[n++] = (this.termIds.internRange(t, 0, t.length) << 1) | 1;
      }
      at[i - from + 1] = n - slot0;
    }
    // A new term's list is made on its first use (see `list`): a batch into an empty cache makes none.
    const nt0 = this.termIds.size;
    // Made at its size when empty (growing by pushes copies it about three times over).
    if (this.lists.length === 0) this.lists = new Array<TermList | undefined>(nt0).fill(undefined);
    else while (this.lists.length < nt0) this.lists.push(undefined);
    // Room for everything this batch can add, so the loops below hold their arrays in locals.
    this.mark = grownInt32(this.mark, nt0);
    this.slot = grownInt32(this.slot, nt0);
    if (this.docCount + (to - from) > this.docLen.length) this.growDocs(this.docCount + (to - from));
    const forward = this.forward;
    const mark = this.mark;
    const slot = this.slot;
    const doc0 = this.docCount;
    let j = slot0;
    // Phase 1: the forward lists, entry after entry, each slot `termId << 2 | field mask` until
    // phase 2 takes the masks out (a term in both fields takes mask 3; term ids stay below 2^29).
    for (let i = from; i < to; i++) {
      const { key, handle, namespace, kind } = items[i]!;
      const doc = this.docCount;
      const start = j;
      const end = at[i - from + 1]!;
      for (let k = at[i - from]!; k < end; k++) {
        const v = ids[slot0 + k]!;
        const id = v >>> 1;
        const field = (v & 1) + 1;
        if (mark[id] === doc + 1) forward[slot[id]!]! |= field;
        else {
          mark[id] = doc + 1;
          slot[id] = j;
          forward[j] = (id << 2) | field;
          j++;
        }
      }
      const len = end - at[i - from]!;
      this.docStart[doc + 1] = j;
      this.docLen[doc] = len;
      this.docNs[doc] = this.internName(this.nsIds, namespace);
      this.docKind[doc] = this.internName(this.kindIds, kind);
      this.docLive[doc] = 1;
      this.docKey[doc] = key;
      this.docHandle[doc] = handle;
      this.docCount = doc + 1;
      this.keyMap?.set(key, doc);
      this.keyStringBytes += stringBytes(key.length);
      this.live++;
      this.totalLen += len;
      this.livePostings += j - start;
    }
    // Phase 2: the postings grouped by term (counting sort; docs stay ascending), each
    // `docId << 2 | field mask`, written straight into one array while the forward slots get
    // their plain term ids back. `slot` is free again here and serves as the per-term count.
    const total = j - slot0;
    // Into a fresh cache, ids were handed out in order of first appearance: term `t` is the
    // `t`-th touched, and no array of them is needed.
    const touched = fresh ? undefined : new Int32Array(total);
    let nt = 0;
    for (let k = 0; k < total; k++) slot[forward[slot0 + k]! >>> 2] = 0;
    for (let k = 0; k < total; k++) {
      const id = forward[slot0 + k]! >>> 2;
      if (slot[id] === 0) {
        if (touched !== undefined) touched[nt] = id;
        nt++;
      }
      slot[id]!++;
    }
    const docLen = this.docLen;
    if (fresh) {
      // Ids were handed out in order of first appearance (`touched[t]` is `t`): the lists are
      // packed from the forward lists, with no array of the batch's postings.
      this.flat = packForward(forward, this.docStart, doc0, this.docCount, slot, nt, docLen);
      return;
    }
    const runStart = new Int32Array(nt + 1);
    for (let t = 0; t < nt; t++) {
      const id = touched === undefined ? t : touched[t]!;
      runStart[t + 1] = runStart[t]! + slot[id]!;
      slot[id] = runStart[t]!; // now the term's write offset
    }
    const postings = new Int32Array(total);
    const docStart = this.docStart;
    for (let doc = doc0; doc < this.docCount; doc++) {
      const end = docStart[doc + 1]!;
      for (let k = docStart[doc]!; k < end; k++) {
        const v = forward[k]!;
        const id = v >>> 2;
        postings[slot[id]!++] = (doc << 2) | (v & 3);
        forward[k] = id;
      }
    }
    for (let t = 0; t < nt; t++) {
      const list = this.list(touched![t]!)!;
      const end = runStart[t + 1]!;
      list.postings = grownInt32(list.postings, list.length + end - runStart[t]!);
      for (let k = runStart[t]!; k < end; k++) {
        const v = postings[k]!;
        const doc = v >>> 2;
        appendPosting(list, doc, v & 3, docLen[doc]!);
      }
    }
  }

  /** Removes the entry `key`; false when there was none. */
  remove(key: string): boolean {
    // Before anything changes (a change needs every list).
    this.requireAllRead();
    const keys = this.keyToDoc();
    const doc = keys.get(key);
    if (doc === undefined) return false;
    keys.delete(key);
    this.keyStringBytes -= stringBytes(key.length);
    this.docLive[doc] = 0;
    this.docKey[doc] = undefined;
    this.docHandle[doc] = undefined;
    this.ensureForward();
    const end = this.docStart[doc + 1]!;
    for (let j = this.docStart[doc]!; j < end; j++) this.list(this.forward[j]!)!.df--;
    const n = end - this.docStart[doc]!;
    this.live--;
    this.totalLen -= this.docLen[doc]!;
    this.livePostings -= n;
    this.deadPostings += n;
    this.maybeCompact();
    return true;
  }

  /** Removes every entry of `namespace`; returns how many went. */
  removeNamespace(namespace: string): number {
    this.requireAllRead();
    const ns = this.nsIds.get(namespace);
    if (ns === undefined) return 0;
    const keys: string[] = [];
    for (let d = 0; d < this.docCount; d++) if (this.docLive[d] === 1 && this.docNs[d] === ns) keys.push(this.keyOf(d));
    for (const k of keys) this.remove(k);
    return keys.length;
  }

  /** Empties the cache. */
  clear(): void {
    this.termIds.clear();
    this.lists.length = 0;
    this.made = [];
    this.flat = undefined;
    this.mark = new Int32Array(1024);
    this.slot = new Int32Array(1024);
    this.keyMap = new Map<string, number>();
    this.keyStringBytes = 0;
    this.docKey = [];
    this.docHandle = [];
    this.keyStart = undefined;
    this.keyText = "";
    this.derive = undefined;
    this.restoredDocs = 0;
    // Fresh per-entry arrays: a restored cache's are views that keep the whole snapshot alive.
    this.restoredBuffer = undefined;
    this.docLen = new Int32Array(1024);
    this.docNs = new Int32Array(1024);
    this.docKind = new Int32Array(1024);
    this.docLive = new Uint8Array(1024);
    this.forward = new Int32Array(4096);
    this.forwardBuilt = true;
    this.docStart = new Int32Array(this.docLen.length + 1);
    this.docCount = 0;
    this.live = 0;
    this.totalLen = 0;
    this.deadPostings = 0;
    this.livePostings = 0;
  }

  private growDocs(need: number): void {
    const size = Math.max(need, this.docLen.length * 2);
    const grow32 = (a: Int32Array, n: number): Int32Array => {
      const out = new Int32Array(n);
      out.set(a.subarray(0, Math.min(a.length, n)));
      return out;
    };
    this.docLen = grow32(this.docLen, size);
    this.docNs = grow32(this.docNs, size);
    this.docKind = grow32(this.docKind, size);
    this.docStart = grow32(this.docStart, size + 1);
    const live = new Uint8Array(size);
    live.set(this.docLive);
    this.docLive = live;
  }

  /** Drops dead postings and renumbers docIds (order kept) once they outnumber live postings. */
  private maybeCompact(): void {
    if (this.deadPostings < this.compactAfter || this.deadPostings < this.livePostings) return;
    this.materialize();
    const remap = new Int32Array(this.docCount).fill(-1);
    let next = 0;
    for (let d = 0; d < this.docCount; d++) if (this.docLive[d] === 1) remap[d] = next++;
    const forward = new Int32Array(Math.max(this.livePostings, 4));
    const start = new Int32Array(this.docLen.length + 1);
    let j = 0;
    for (let d = 0; d < this.docCount; d++) {
      const nd = remap[d]!;
      if (nd < 0) continue;
      for (let i = this.docStart[d]!; i < this.docStart[d + 1]!; i++) forward[j++] = this.forward[i]!;
      start[nd + 1] = j;
      this.docLen[nd] = this.docLen[d]!;
      this.docNs[nd] = this.docNs[d]!;
      this.docKind[nd] = this.docKind[d]!;
      this.docKey[nd] = this.docKey[d];
      this.docHandle[nd] = this.docHandle[d];
    }
    this.docLive.fill(0);
    this.docLive.fill(1, 0, next);
    this.docKey.length = next;
    this.docHandle.length = next;
    for (let t = 0; t < this.lists.length; t++) {
      const old = this.list(t)!;
      const list = emptyList();
      for (let i = 0; i < old.length; i++) {
        const p = old.postings[i]!;
        const nd = remap[p >>> 2]!;
        if (nd >= 0) appendPosting(list, nd, p & 3, this.docLen[nd]!);
      }
      this.lists[t] = list;
    }
    this.made = undefined;
    this.flat = undefined;
    const keys = this.keyToDoc();
    for (const [key, d] of keys) keys.set(key, remap[d]!);
    this.forward = forward;
    this.docStart = start;
    this.mark.fill(0);
    this.docCount = next;
    this.deadPostings = 0;
  }
}
