/**
 * The binary encoding of one scope's postings cache (a snapshot), so a fresh process can take a
 * scope's postings from one file instead of rebuilding them from every stored row.
 *
 * Layout (little-endian; every section starts on an 8-byte boundary):
 *
 * | bytes | content |
 * |---|---|
 * | 0–7 | magic {@link SNAPSHOT_MAGIC} |
 * | 8–11 | format version ({@link SNAPSHOT_VERSION}) |
 * | 12–15 | bytes of the meta section |
 * | 16–23 | bytes of the body (float64) |
 * | 24–31 | generation the snapshot is complete up to (float64) |
 * | meta | identity and scope lengths (2 × u32), then both as UTF-16 code units |
 * | body | counts (float64 × {@link COUNTS}), then the arrays of {@link CacheImage} in a fixed order, backend numbers per entry and named marks, the packed postings last |
 * | trailer | the CRC-32 of each {@link SNAPSHOT_PAGE} bytes of everything before (u32 each, padded to 8 bytes), then the CRC-32 of that table (u32) and its length in pages (u32) |
 *
 * A page checksum, not one over the file, so a reader can trust a part of the file once its pages
 * check out: everything but the packed postings is read and checked at once, and a postings list
 * when a search first needs it (see `search/snapshot-pages`). A reader of the whole file checks
 * every page before it decodes anything (version 3 had one checksum over the file).
 *
 * The entries' forward lists (each entry's term ids) are not stored: they double the file and
 * only a write or a removal needs them, so a restored cache rebuilds them from the postings on its
 * first one (version 1 stored them). The postings are stored packed (`search/ranking/packed`:
 * differences as varints, about a third of their 4 bytes each) and stay packed in the restored
 * cache until a list's first use, so a restore reads a smaller file and unpacks only what a
 * search touches (version 2 stored them as int32). A file of another version is refused and
 * rebuilt from the rows.
 *
 * Strings are stored as UTF-16 code units, so any JavaScript string (a lone surrogate included)
 * round-trips; a joined text (keys, terms, namespaces, kinds, marks) whose characters are all below
 * U+0100 is stored one byte a character (Latin-1, the `narrowTexts` count says which), half the
 * bytes to read and a one-byte string to decode.
 *
 * {@link decodeSnapshot} never throws and never yields a partial cache: a short file, another
 * magic or version, a checksum mismatch, another index or scope, a generation ahead of the
 * caller's counter, or counts or list bounds that disagree are each a {@link SnapshotRejection}.
 *
 * @module search/ranking/snapshot
 */
import { endianness } from "node:os";
import * as zlib from "node:zlib";
import * as E from "fp-ts/lib/Either.js";
import type { SnapshotStoreError } from "../snapshot-store.js";
import type { FlatLists } from "./flat-lists.js";
import { keyString, type CacheImage, type KeyBytes } from "./postings.js";

/** The first 8 bytes of every snapshot. */
export const SNAPSHOT_MAGIC: Uint8Array = Uint8Array.from([0x89, 0x43, 0x43, 0x53, 0x4e, 0x41, 0x50, 0x0a]); // "\x89CCSNAP\n"
/** Format version this library writes and reads. */
export const SNAPSHOT_VERSION = 4;
/** Bytes of the fixed header. */
export const SNAPSHOT_HEAD = 32;
const HEAD = SNAPSHOT_HEAD;
/** Bytes each checksum of the trailer's table covers (the last page may be shorter). */
export const SNAPSHOT_PAGE = 1 << 16;
/** Counts at the start of the body. */
const COUNTS = 20;

/** What a snapshot says about where it came from. */
export interface SnapshotMeta {
  /** The identity of the index (a random id created with its table). */
  readonly identity: string;
  /** The scope's key (see `scopeKey`). */
  readonly scope: string;
  /** Every change up to this generation is in the snapshot. */
  readonly generation: number;
}

/** A scope's cache as a snapshot holds it. */
export interface SnapshotContent extends SnapshotMeta {
  readonly image: CacheImage;
  /** Per docId, a number the backend keeps (SQLite: the row id; PostgreSQL: the generation the entry was applied at). */
  readonly docExtra: Float64Array | undefined;
  /** Named numbers the backend keeps (PostgreSQL: namespace → generation of its deletion). */
  readonly marks: readonly (readonly [string, number])[];
  /**
   * When the packed postings are read after the rest (a snapshot restored from a store that reads
   * blobs in parts): how to read them. The image's lists say which bytes are read
   * (`lists.ready`); the cache's owner reads a search's lists before it ranks, and all of them
   * before any change.
   */
  readonly later?: LaterPostings;
}

/** Why the later part of a snapshot could not be used: refused (damaged), a store failure, or let go (see {@link LaterPostings}). */
export type LaterFailure =
  | { readonly _tag: "rejected"; readonly rejection: SnapshotRejection }
  | { readonly _tag: "failed"; readonly error: SnapshotStoreError }
  | { readonly _tag: "closed" };

/** The packed postings of a snapshot restored before they were read. */
export interface LaterPostings {
  /** Reads and checks what `packed[from..to)` of each range needs and is not read yet; undefined once it is read and checks out. */
  readonly load: (ranges: readonly (readonly [number, number])[]) => Promise<LaterFailure | undefined>;
  /** Reads and checks everything not read yet, then lets the blob go. */
  readonly loadAll: () => Promise<LaterFailure | undefined>;
  /** Lets the blob go (idempotent): a later load is `closed`. */
  readonly close: () => void;
}

/** Why a snapshot was not accepted. */
export type SnapshotRejectReason =
  "truncated" | "magic" | "version" | "checksum" | "malformed" | "identity" | "scope" | "ahead";

/** A snapshot refused by {@link decodeSnapshot} (or by the backend reading it), with a reason and a human-readable detail. */
export interface SnapshotRejection {
  readonly reason: SnapshotRejectReason;
  readonly detail: string;
}

/** What the reader expects of a snapshot. */
export interface SnapshotExpectation {
  readonly identity: string;
  readonly scope: string;
  /** The index's current generation: a snapshot ahead of it (a restored or recreated database) is refused. */
  readonly maxGeneration: number;
}

/** Element kinds; `l8` is text whose every character is below U+0100, one byte each (Latin-1), `u16` any text (UTF-16 code units). */
type Kind = "i32" | "u8" | "u16" | "l8" | "f64";
const WIDTH: Readonly<Record<Kind, number>> = { i32: 4, u8: 1, u16: 2, l8: 1, f64: 8 };
/** The joined texts, in the bit order of the `narrowTexts` count (bit set: stored one byte a character). */
const TEXTS = ["keyText", "termText", "nsText", "kindText", "markText"] as const;
/** True when every character of `s` is below U+0100 (so Latin-1 holds it byte for byte). */
function narrow(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return false;
  return true;
}

/** The counts, in their body order. */
interface Counts {
  readonly docCount: number;
  readonly termCount: number;
  readonly nsCount: number;
  readonly kindCount: number;
  readonly live: number;
  readonly totalLen: number;
  readonly deadPostings: number;
  readonly livePostings: number;
  readonly forwardLen: number;
  readonly postingsLen: number;
  readonly blocksLen: number;
  readonly keyChars: number;
  readonly termChars: number;
  readonly nsChars: number;
  readonly kindChars: number;
  readonly hasExtra: number;
  readonly markCount: number;
  readonly markChars: number;
  readonly packedLen: number;
  /** Bit i set: text {@link TEXTS}[i] is stored one byte a character. */
  readonly narrowTexts: number;
}
const COUNT_NAMES: readonly (keyof Counts)[] = [
  "docCount",
  "termCount",
  "nsCount",
  "kindCount",
  "live",
  "totalLen",
  "deadPostings",
  "livePostings",
  "forwardLen",
  "postingsLen",
  "blocksLen",
  "keyChars",
  "termChars",
  "nsChars",
  "kindChars",
  "hasExtra",
  "markCount",
  "markChars",
  "packedLen",
  "narrowTexts",
];

/** The body's sections after the counts, in order: name, element kind, element count. */
function sections(c: Counts): readonly (readonly [string, Kind, number])[] {
  const textKind = (name: (typeof TEXTS)[number]): Kind => ((c.narrowTexts >> TEXTS.indexOf(name)) & 1 ? "l8" : "u16");
  return [
    ["docLen", "i32", c.docCount],
    ["docNs", "i32", c.docCount],
    ["docKind", "i32", c.docCount],
    ["docStart", "i32", c.docCount + 1],
    ["keyStart", "i32", c.docCount + 1],
    ["termHash", "i32", c.termCount],
    ["termStart", "i32", c.termCount + 1],
    ["listStart", "i32", c.termCount + 1],
    ["df", "i32", c.termCount],
    ["minLen", "i32", c.termCount],
    ["packedStart", "i32", c.termCount + 1],
    ["blockStart", "i32", c.termCount + 1],
    ["blockMinLen", "i32", c.blocksLen],
    ["nsStart", "i32", c.nsCount + 1],
    ["kindStart", "i32", c.kindCount + 1],
    ["markStart", "i32", c.markCount + 1],
    ["docExtra", "f64", c.hasExtra === 1 ? c.docCount : 0],
    ["markValue", "f64", c.markCount],
    ["docLive", "u8", c.docCount],
    ["orMask", "u8", c.termCount],
    ["blockMask", "u8", c.blocksLen],
    ["keyText", textKind("keyText"), c.keyChars],
    ["termText", textKind("termText"), c.termChars],
    ["nsText", textKind("nsText"), c.nsChars],
    ["kindText", textKind("kindText"), c.kindChars],
    ["markText", textKind("markText"), c.markChars],
    // Last: everything before it is what a restore reads at once (see SNAPSHOT_PAGE).
    ["packed", "u8", c.packedLen],
  ];
}

const pad8 = (n: number): number => (n + 7) & ~7;

/** Offsets of every section (from the body's start) and the body's length in bytes. */
function layout(c: Counts): {
  readonly at: ReadonlyMap<string, { readonly kind: Kind; readonly offset: number; readonly length: number }>;
  readonly bytes: number;
} {
  const at = new Map<string, { kind: Kind; offset: number; length: number }>();
  let off = COUNTS * 8;
  for (const [name, kind, length] of sections(c)) {
    at.set(name, { kind, offset: off, length });
    off = pad8(off + length * WIDTH[kind]);
  }
  return { at, bytes: off };
}

/** Strings joined, with their bounds. */
function joined(strings: readonly string[]): { readonly text: string; readonly start: Int32Array } {
  const start = new Int32Array(strings.length + 1);
  for (let i = 0; i < strings.length; i++) start[i + 1] = start[i]! + strings[i]!.length;
  return { text: strings.join(""), start };
}

/** CRC-32 (IEEE) table, for Node versions without `zlib.crc32` (before 20.15). */
let crcTable: Uint32Array | undefined;

/**
 * The CRC-32 (IEEE, as zip and PNG use) of `bytes`, continuing from `previous` (the value over
 * the bytes before them): `zlib.crc32` where Node has it (20.15 and later: ~7 GB/s), else a
 * table-driven loop.
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
  const native = (zlib as { readonly crc32?: (data: Uint8Array, value?: number) => number }).crc32;
  return native !== undefined ? native(bytes, previous) : portableCrc32(bytes, previous);
}

/** {@link crc32} without `zlib.crc32`: a table-driven loop (the same values). */
export function portableCrc32(bytes: Uint8Array, previous = 0): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const table = crcTable;
  let c = ~previous >>> 0;
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** Pages of a snapshot whose content (header, meta and body) takes `content` bytes. */
export const pageCount = (content: number): number => Math.ceil(content / SNAPSHOT_PAGE);

/**
 * Bytes of the trailer after `content` bytes: a CRC-32 per page (padded to 8 bytes), then the
 * table's own CRC-32 and its length in pages. A checksum against torn, truncated or damaged files
 * (what a snapshot must survive: it is rewritten atomically, read back after crashes and copies),
 * not a signature: anyone who can write the directory can write a valid file under any checksum,
 * so a faster one costs no protection. SHA-256 took as long as reading the file (2 GB/s).
 */
export const trailerBytes = (content: number): number => pad8(4 * pageCount(content)) + 8;

/** The CRC-32 of each page of `bytes[from..to)` into `out` by page number; `from` starts a page. */
export function pageChecksums(bytes: Uint8Array, from: number, to: number, out: Uint32Array): void {
  for (let at = from; at < to; at += SNAPSHOT_PAGE)
    out[at / SNAPSHOT_PAGE] = crc32(bytes.subarray(at, Math.min(to, at + SNAPSHOT_PAGE)));
}

/** The trailer of `content` bytes whose pages have the checksums `sums`. */
function trailerOf(content: number, sums: Uint32Array): Uint8Array {
  const pages = pageCount(content);
  const out = new Uint8Array(trailerBytes(content));
  const view = new DataView(out.buffer);
  for (let i = 0; i < pages; i++) view.setUint32(4 * i, sums[i]!, true);
  const at = out.length - 8;
  view.setUint32(at, crc32(out.subarray(0, 4 * pages)), true);
  view.setUint32(at + 4, pages, true);
  return out;
}

/**
 * The page checksums a trailer holds, checked (its length, its own checksum); a rejection when
 * the trailer is damaged.
 */
export function trailerChecksums(trailer: Uint8Array, content: number): E.Either<SnapshotRejection, Uint32Array> {
  const pages = pageCount(content);
  if (trailer.length !== trailerBytes(content)) return reject("malformed", "trailer length");
  const view = new DataView(trailer.buffer, trailer.byteOffset, trailer.length);
  const at = trailer.length - 8;
  if (view.getUint32(at + 4, true) !== pages) return reject("checksum", "page count in the trailer");
  if (view.getUint32(at, true) !== crc32(trailer.subarray(0, 4 * pages)))
    return reject("checksum", "CRC-32 mismatch in the page table");
  for (let i = 4 * pages; i < at; i++) if (trailer[i] !== 0) return reject("malformed", "trailer padding");
  const sums = new Uint32Array(pages);
  for (let i = 0; i < pages; i++) sums[i] = view.getUint32(4 * i, true);
  return E.right(sums);
}

/**
 * Encodes a scope's cache. Pure: the same content gives the same bytes.
 *
 * @example
 * const bytes = encodeSnapshot({ identity: "3f…", scope: "nrun-1", generation: 42, image: cache.image(), docExtra: undefined, marks: [] });
 */
export function encodeSnapshot(content: SnapshotContent): Uint8Array {
  const img = content.image;
  const terms = { text: img.termText, start: img.termStart };
  const termCount = img.termStart.length - 1;
  const ns = joined(img.namespaces);
  const kinds = joined(img.kinds);
  const marks = joined(content.marks.map((m) => m[0]));
  const keyText = keyString(img.keyText);
  const strings: Readonly<Record<string, string>> = {
    keyText,
    termText: terms.text,
    nsText: ns.text,
    kindText: kinds.text,
    markText: marks.text,
  };
  const narrowTexts = TEXTS.reduce((bits, name, i) => (narrow(strings[name]!) ? bits | (1 << i) : bits), 0);
  const counts: Counts = {
    docCount: img.docCount,
    termCount,
    nsCount: img.namespaces.length,
    kindCount: img.kinds.length,
    live: img.live,
    totalLen: img.totalLen,
    deadPostings: img.deadPostings,
    livePostings: img.livePostings,
    // The forward lists are not stored (the cache rebuilds them from the postings on its first
    // write); their length is, as the end of docStart.
    forwardLen: img.docStart[img.docCount] ?? 0,
    postingsLen: img.lists.listStart[termCount] ?? 0,
    blocksLen: img.lists.blockMask.length,
    keyChars: keyText.length,
    termChars: terms.text.length,
    nsChars: ns.text.length,
    kindChars: kinds.text.length,
    hasExtra: content.docExtra === undefined ? 0 : 1,
    markCount: content.marks.length,
    markChars: marks.text.length,
    packedLen: img.lists.packed.length,
    narrowTexts,
  };
  const metaBytes = pad8(8 + 2 * (content.identity.length + content.scope.length));
  const body = layout(counts);
  const contentBytes = HEAD + metaBytes + body.bytes;
  const total = contentBytes + trailerBytes(contentBytes);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(SNAPSHOT_MAGIC, 0);
  view.setUint32(8, SNAPSHOT_VERSION, true);
  view.setUint32(12, metaBytes, true);
  view.setFloat64(16, body.bytes, true);
  view.setFloat64(24, content.generation, true);
  view.setUint32(HEAD, content.identity.length, true);
  view.setUint32(HEAD + 4, content.scope.length, true);
  const text = (s: string, byteOffset: number): void => {
    if (s.length > 0) Buffer.from(out.buffer, byteOffset, 2 * s.length).write(s, 0, "utf16le");
  };
  text(content.identity, HEAD + 8);
  text(content.scope, HEAD + 8 + 2 * content.identity.length);
  const base = HEAD + metaBytes;
  const countValues = new Float64Array(out.buffer, base, COUNTS);
  COUNT_NAMES.forEach((name, i) => (countValues[i] = counts[name]));
  const lists: FlatLists = img.lists;
  const arrays: Readonly<Record<string, Int32Array | Uint8Array | Float64Array | undefined>> = {
    docLen: img.docLen,
    docNs: img.docNs,
    docKind: img.docKind,
    docStart: img.docStart,
    keyStart: img.keyStart,
    termHash: img.termHashes,
    termStart: terms.start,
    listStart: lists.listStart,
    df: lists.df,
    minLen: lists.minLen,
    packedStart: lists.packedStart,
    blockStart: lists.blockStart,
    blockMinLen: lists.blockMinLen,
    nsStart: ns.start,
    kindStart: kinds.start,
    markStart: marks.start,
    docExtra: content.docExtra,
    markValue: Float64Array.from(content.marks, (m) => m[1]),
    docLive: img.docLive,
    orMask: lists.orMask,
    blockMask: lists.blockMask,
    packed: lists.packed,
  };
  for (const [name, s] of body.at) {
    const at = base + s.offset;
    if (s.kind === "u16") {
      text(strings[name] ?? "", at);
      continue;
    }
    if (s.kind === "l8") {
      if (s.length > 0) Buffer.from(out.buffer, at, s.length).write(strings[name]!, 0, "latin1");
      continue;
    }
    const src = arrays[name];
    if (src === undefined || s.length === 0) continue;
    const dst =
      s.kind === "i32"
        ? new Int32Array(out.buffer, at, s.length)
        : s.kind === "f64"
          ? new Float64Array(out.buffer, at, s.length)
          : new Uint8Array(out.buffer, at, s.length);
    dst.set(src.subarray(0, s.length));
  }
  const sums = new Uint32Array(pageCount(contentBytes));
  pageChecksums(out, 0, contentBytes, sums);
  out.set(trailerOf(contentBytes, sums), contentBytes);
  return out;
}

const reject = (reason: SnapshotRejectReason, detail: string): E.Either<SnapshotRejection, never> =>
  E.left({ reason, detail });

/** What a snapshot's header says (before any checksum is checked): lengths and generation. */
export interface SnapshotHeader {
  readonly metaBytes: number;
  readonly bodyBytes: number;
  readonly generation: number;
  /** Bytes of the header, meta and body (what the pages cover). */
  readonly content: number;
  /** Bytes of the whole file, trailer included. */
  readonly total: number;
}

/**
 * Reads a snapshot's fixed header (its first {@link SNAPSHOT_HEAD} bytes): magic, version and
 * lengths in range. Nothing is trusted until the pages check out.
 */
export function snapshotHeader(bytes: Uint8Array): E.Either<SnapshotRejection, SnapshotHeader> {
  if (endianness() !== "LE") return reject("malformed", "snapshots are read on little-endian hosts only");
  if (bytes.length < HEAD) return reject("truncated", `${bytes.length} bytes, shorter than a header`);
  for (let i = 0; i < SNAPSHOT_MAGIC.length; i++)
    if (bytes[i] !== SNAPSHOT_MAGIC[i]) return reject("magic", "not a postings snapshot");
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEAD);
  const version = view.getUint32(8, true);
  if (version !== SNAPSHOT_VERSION)
    return reject("version", `format version ${version}; this library reads ${SNAPSHOT_VERSION}`);
  const metaBytes = view.getUint32(12, true);
  const bodyBytes = view.getFloat64(16, true);
  const generation = view.getFloat64(24, true);
  if (
    metaBytes % 8 !== 0 ||
    metaBytes < 8 ||
    !Number.isSafeInteger(bodyBytes) ||
    bodyBytes < COUNTS * 8 ||
    bodyBytes % 8 !== 0 ||
    bodyBytes > 2 ** 46
  )
    return reject("malformed", "header lengths out of range");
  const content = HEAD + metaBytes + bodyBytes;
  return E.right({ metaBytes, bodyBytes, generation, content, total: content + trailerBytes(content) });
}

/**
 * Where the packed postings start and end in the file, from its first bytes (the header, meta and
 * counts: `bytes` at least {@link snapshotHeader}'s `content` − body + 160 bytes long); what a
 * reader that reads the rest later reads at once is everything before `packedAt`. Unchecked.
 */
export function snapshotPackedRange(
  bytes: Uint8Array,
  header: SnapshotHeader,
): E.Either<SnapshotRejection, { readonly packedAt: number; readonly packedEnd: number }> {
  const base = HEAD + header.metaBytes;
  if (bytes.length < base + COUNTS * 8) return reject("truncated", "the counts are cut off");
  const counts = countsOf(bytes, base);
  if (E.isLeft(counts)) return counts;
  const body = layout(counts.right);
  if (body.bytes !== header.bodyBytes)
    return reject("malformed", `the counts need ${body.bytes} body bytes, the header says ${header.bodyBytes}`);
  const packed = body.at.get("packed")!;
  return E.right({ packedAt: base + packed.offset, packedEnd: base + packed.offset + packed.length });
}

/** The counts at `base`, each an integer in range. */
function countsOf(bytes: Uint8Array, base: number): E.Either<SnapshotRejection, Counts> {
  const view = new DataView(bytes.buffer, bytes.byteOffset + base, COUNTS * 8);
  const c = Object.fromEntries(COUNT_NAMES.map((name, i) => [name, view.getFloat64(8 * i, true)])) as unknown as Counts;
  for (const name of COUNT_NAMES)
    if (!Number.isSafeInteger(c[name]) || c[name] < 0 || c[name] > 0x7fffffff)
      return reject("malformed", `count ${name} = ${c[name]}`);
  if (c.narrowTexts >= 1 << TEXTS.length) return reject("malformed", `text widths ${c.narrowTexts}`);
  return E.right(c);
}

/**
 * Decodes and checks a whole snapshot: magic, version, length, every page's checksum, identity,
 * scope, generation not ahead of `expect.maxGeneration`, counts consistent with the arrays.
 * `sums` are the checksums of its pages when the caller already computed them (while reading the
 * file, see {@link pageChecksums}); else they are computed here. Never throws: every failure is
 * `Left(SnapshotRejection)`.
 */
export function decodeSnapshot(
  input: Uint8Array,
  expect: SnapshotExpectation,
  sums?: Uint32Array,
): E.Either<SnapshotRejection, SnapshotContent> {
  try {
    const header = snapshotHeader(input);
    if (E.isLeft(header)) return header;
    const { content, total } = header.right;
    if (input.length < total) return reject("truncated", `${input.length} bytes of ${total}`);
    if (input.length > total) return reject("malformed", `${input.length} bytes, the header says ${total}`);
    const table = trailerChecksums(input.subarray(content), content);
    if (E.isLeft(table)) return table;
    let computed = sums;
    if (computed === undefined || computed.length !== table.right.length) {
      computed = new Uint32Array(table.right.length);
      pageChecksums(input, 0, content, computed);
    }
    for (let i = 0; i < computed.length; i++)
      if (computed[i] !== table.right[i]) return reject("checksum", `CRC-32 mismatch in page ${i}`);
    // Typed views need aligned offsets: a misaligned input is copied once.
    const bytes = input.byteOffset % 8 === 0 ? input : input.slice();
    return decodeBody(bytes.subarray(0, content), header.right, expect, undefined);
  } catch (e) {
    return reject("malformed", e instanceof Error ? e.message : String(e));
  }
}

/**
 * Decodes the checked content of a snapshot (`bytes`: its header, meta and body, 8-aligned) into
 * views of its bytes; `packedReady` (for a snapshot whose packed postings are read later) tells
 * the cache which parts of them are read. Throws only on a bug (the caller catches).
 */
export function decodeBody(
  bytes: Uint8Array,
  header: SnapshotHeader,
  expect: SnapshotExpectation,
  packedReady: ((from: number, to: number) => boolean) | undefined,
): E.Either<SnapshotRejection, SnapshotContent> {
  const { metaBytes, generation } = header;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const idChars = view.getUint32(HEAD, true);
  const scopeChars = view.getUint32(HEAD + 4, true);
  if (8 + 2 * (idChars + scopeChars) > metaBytes) return reject("malformed", "meta lengths out of range");
  const str = (byteOffset: number, chars: number): string =>
    chars === 0 ? "" : Buffer.from(bytes.buffer, bytes.byteOffset + byteOffset, 2 * chars).toString("utf16le");
  const identity = str(HEAD + 8, idChars);
  const scope = str(HEAD + 8 + 2 * idChars, scopeChars);
  if (identity !== expect.identity)
    return reject(
      "identity",
      `a snapshot of index ${JSON.stringify(identity)}, not ${JSON.stringify(expect.identity)}`,
    );
  if (scope !== expect.scope)
    return reject("scope", `a snapshot of scope ${JSON.stringify(scope)}, not ${JSON.stringify(expect.scope)}`);
  if (!Number.isSafeInteger(generation) || generation < 0) return reject("malformed", `generation ${generation}`);
  if (generation > expect.maxGeneration)
    return reject(
      "ahead",
      `complete up to generation ${generation}, ahead of the index's ${expect.maxGeneration} (a restored or recreated database)`,
    );
  const base = HEAD + metaBytes;
  const counts = countsOf(bytes, base);
  if (E.isLeft(counts)) return counts;
  const c = counts.right;
  const body = layout(c);
  if (body.bytes !== header.bodyBytes)
    return reject("malformed", `the counts need ${body.bytes} body bytes, the header says ${header.bodyBytes}`);
  const sec = (name: string): { readonly at: number; readonly length: number; readonly kind: Kind } => {
    const s = body.at.get(name)!;
    return { at: bytes.byteOffset + base + s.offset, length: s.length, kind: s.kind };
  };
  const i32 = (name: string): Int32Array => {
    const s = sec(name);
    return new Int32Array(bytes.buffer, s.at, s.length);
  };
  const u8 = (name: string): Uint8Array => {
    const s = sec(name);
    return new Uint8Array(bytes.buffer, s.at, s.length);
  };
  const f64 = (name: string): Float64Array => {
    const s = sec(name);
    return new Float64Array(bytes.buffer, s.at, s.length);
  };
  const text = (name: string): string => {
    const s = sec(name);
    if (s.length === 0) return "";
    return s.kind === "l8"
      ? Buffer.from(bytes.buffer, s.at, s.length).toString("latin1")
      : Buffer.from(bytes.buffer, s.at, 2 * s.length).toString("utf16le");
  };
  /** The keys' joined text as it is stored, decoded a key at a time by the cache. */
  const keyBytes = (): KeyBytes => {
    const s = sec("keyText");
    return {
      bytes: new Uint8Array(bytes.buffer, s.at, s.kind === "l8" ? s.length : 2 * s.length),
      wide: s.kind !== "l8",
    };
  };
  /** Whether the bounds of a joined text ascend from 0 to its length. */
  const bounded = (start: Int32Array, length: number): boolean => {
    if (start[0] !== 0 || start[start.length - 1] !== length) return false;
    for (let i = 1; i < start.length; i++) if (start[i]! < start[i - 1]!) return false;
    return true;
  };
  /** Strings from a joined text and its bounds (checked). */
  const split = (startName: string, textName: string): string[] | undefined => {
    const start = i32(startName);
    const all = text(textName);
    if (!bounded(start, all.length)) return undefined;
    const out: string[] = [];
    for (let i = 0; i + 1 < start.length; i++) out.push(all.slice(start[i]!, start[i + 1]!));
    return out;
  };
  // The terms stay one joined text (the cache compares and slices them in place), their bounds checked as split's are.
  const termStart = i32("termStart");
  const termText = text("termText");
  // (Ascending: checked below with the lists' bounds, in one pass.)
  const termsInOrder = termStart[0] === 0 && termStart[termStart.length - 1] === termText.length;
  const namespaces = split("nsStart", "nsText");
  const kinds = split("kindStart", "kindText");
  const markNames = split("markStart", "markText");
  if (!termsInOrder || namespaces === undefined || kinds === undefined || markNames === undefined)
    return reject("malformed", "string bounds out of range");
  const docStart = i32("docStart");
  const keyStart = i32("keyStart");
  const listStart = i32("listStart");
  const blockStart = i32("blockStart");
  const packedStart = i32("packedStart");
  const ends = (a: Int32Array, last: number): boolean => a[0] === 0 && a[a.length - 1] === last;
  if (
    !ends(docStart, c.forwardLen) ||
    !ends(keyStart, c.keyChars) ||
    !ends(listStart, c.postingsLen) ||
    !ends(blockStart, c.blocksLen) ||
    !ends(packedStart, c.packedLen)
  )
    return reject("malformed", "array bounds disagree with the counts");
  // The lists' bounds are read without further checks when a list is first used, and the terms'
  // when a term is compared: they must ascend. One pass over the four (run once, mostly before
  // the engine has optimized anything: a pass per array took four times as long).
  if (termStart.length !== listStart.length) return reject("malformed", "term and list counts disagree");
  for (let i = 1; i < listStart.length; i++)
    if (
      listStart[i]! < listStart[i - 1]! ||
      packedStart[i]! < packedStart[i - 1]! ||
      blockStart[i]! < blockStart[i - 1]! ||
      termStart[i]! < termStart[i - 1]!
    )
      return reject("malformed", "list or term bounds out of order");
  if (c.live > c.docCount) return reject("malformed", "more live entries than entries");
  const markValue = f64("markValue");
  const lists: FlatLists = {
    listStart,
    packed: u8("packed"),
    packedStart,
    df: i32("df"),
    orMask: u8("orMask"),
    minLen: i32("minLen"),
    blockStart,
    blockMask: u8("blockMask"),
    blockMinLen: i32("blockMinLen"),
    ...(packedReady === undefined ? {} : { ready: packedReady }),
  };
  const image: CacheImage = {
    docCount: c.docCount,
    live: c.live,
    totalLen: c.totalLen,
    deadPostings: c.deadPostings,
    livePostings: c.livePostings,
    docLen: i32("docLen"),
    docNs: i32("docNs"),
    docKind: i32("docKind"),
    docLive: u8("docLive"),
    docStart,
    forward: undefined,
    keyText: keyBytes(),
    keyStart,
    termText,
    termStart,
    termHashes: i32("termHash"),
    lists,
    namespaces,
    kinds,
  };
  return E.right({
    identity,
    scope,
    generation,
    image,
    docExtra: c.hasExtra === 1 ? f64("docExtra") : undefined,
    marks: markNames.map((name, i) => [name, markValue[i]!] as const),
  });
}
