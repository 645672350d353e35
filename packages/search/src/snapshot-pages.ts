/**
 * A postings snapshot read in parts, from a store that opens blobs for reads of their parts (a
 * directory): the header, the page checksums and everything before the packed postings are read
 * and checked at once, so a scope is restored from about a third of the file (the rest is its
 * postings lists); a list's pages are read and checked when a search first needs it, and all of
 * them before the scope changes or is written again. Every page is checked against its checksum
 * before a byte of it is used: a damaged page refuses the snapshot when it is read (the scope is
 * then loaded from the rows), never gives a wrong answer.
 *
 * @module search/snapshot-pages
 */
import * as E from "fp-ts/lib/Either.js";
import {
  crc32,
  decodeBody,
  SNAPSHOT_HEAD,
  SNAPSHOT_PAGE,
  snapshotHeader,
  snapshotPackedRange,
  trailerChecksums,
  type LaterFailure,
  type SnapshotContent,
  type SnapshotExpectation,
  type SnapshotHeader,
  type SnapshotRejection,
} from "./ranking/snapshot.js";
import { snapshotFailure, type SnapshotBlob } from "./snapshot-store.js";

/** Bytes read per call (whole pages): a part is checked while the next ones are read. */
const CHUNK = 8 << 20;
/** Reads in flight at once. */
const READ_AHEAD = 4;
/**
 * How much is left to read later. `readLaterFrom`: packed postings shorter than this (2 MiB, about
 * 20,000 entries) are read with the rest at once and the blob let go at once, so a worker with
 * many small scopes (a namespace each) holds no open file per scope, and a few pages more cost
 * less than a later read. Only larger scopes keep their file open until every list is read, so
 * open files are bounded by the postings cache's byte cap over what such a scope holds (each
 * counts its whole snapshot: at most about 350 under the default 1 GiB cap). Mutable for tests.
 */
export const readingInParts = { readLaterFrom: 2 << 20 };

/** A snapshot whose first part is read and checked, not yet decoded (see {@link decodePaged}). */
export interface PagedRead {
  readonly header: SnapshotHeader;
  /** The content's bytes (header, meta, body; 8-aligned), read as far as `pages` says. */
  readonly bytes: Uint8Array;
  /** Where the packed postings start in `bytes`. */
  readonly packedAt: number;
  readonly pages: Pages;
}

/** The pages of one opened blob. */
export interface Pages {
  /** True when `bytes[from..to)` is read and checked. */
  readonly ready: (from: number, to: number) => boolean;
  /** Reads and checks the pages of `bytes[from..to)` not read yet. */
  readonly load: (from: number, to: number) => Promise<LaterFailure | undefined>;
  readonly close: () => void;
}

const rejected = (reason: "truncated" | "malformed" | "checksum", detail: string): LaterFailure => ({
  _tag: "rejected",
  rejection: { reason, detail },
});

/**
 * Reads a snapshot's header, its page checksums and everything before its packed postings from
 * an opened blob, each page checked; `found` is called once the header's bytes are read. The blob
 * stays open for the rest (closed on failure).
 */
export async function readPaged(
  blob: SnapshotBlob,
  name: string,
  found?: () => void,
): Promise<E.Either<LaterFailure, PagedRead>> {
  let pages: Pages | undefined;
  let handed = false;
  try {
    const head = new Uint8Array(SNAPSHOT_HEAD);
    const got = await blob.readInto(0, head);
    if (got > 0) found?.();
    const header = snapshotHeader(head.subarray(0, got));
    if (E.isLeft(header)) return E.left({ _tag: "rejected", rejection: header.left });
    const { content, total } = header.right;
    if (blob.size < total) return E.left(rejected("truncated", `${blob.size} bytes of ${total}`));
    if (blob.size > total) return E.left(rejected("malformed", `${blob.size} bytes, the header says ${total}`));
    const trailer = new Uint8Array(total - content);
    if ((await blob.readInto(content, trailer)) < trailer.length)
      return E.left(rejected("truncated", "the file ended in its trailer"));
    const sums = trailerChecksums(trailer, content);
    if (E.isLeft(sums)) return E.left({ _tag: "rejected", rejection: sums.left });
    // Not zero-filled: a page is read before any of its bytes is used.
    const bytes = new Uint8Array(Buffer.allocUnsafeSlow(content).buffer, 0, content);
    pages = pagesOf(blob, name, bytes, sums.right);
    // The counts (right after the meta) say where the packed postings start.
    const countsEnd = Math.min(content, SNAPSHOT_HEAD + header.right.metaBytes + 160);
    const first = await pages.load(0, countsEnd);
    if (first !== undefined) return E.left(first);
    const range = snapshotPackedRange(bytes, header.right);
    if (E.isLeft(range)) return E.left({ _tag: "rejected", rejection: range.left });
    const { packedAt, packedEnd } = range.right;
    const rest = await pages.load(0, packedEnd - packedAt < readingInParts.readLaterFrom ? content : packedAt);
    if (rest !== undefined) return E.left(rest);
    handed = true;
    return E.right({ header: header.right, bytes, packedAt, pages });
  } catch (e) {
    return E.left({ _tag: "failed", error: snapshotFailure("read", name, e) });
  } finally {
    // Let go unless handed over (the pages let the blob go once their reads settle).
    if (!handed) {
      if (pages !== undefined) pages.close();
      else await blob.close().catch(() => undefined);
    }
  }
}

/**
 * Decodes a snapshot read by {@link readPaged} against what the reader expects; its `later`
 * reads the packed postings' pages (and lets the blob go once every one is read, or on `close`).
 */
export function decodePaged(read: PagedRead, expect: SnapshotExpectation): E.Either<LaterFailure, SnapshotContent> {
  const { bytes, packedAt, pages, header } = read;
  let decoded: E.Either<SnapshotRejection, SnapshotContent>;
  try {
    decoded = decodeBody(bytes, header, expect, (from, to) => pages.ready(packedAt + from, packedAt + to));
  } catch (e) {
    decoded = E.left({ reason: "malformed", detail: e instanceof Error ? e.message : String(e) });
  }
  if (E.isLeft(decoded)) {
    pages.close();
    return E.left({ _tag: "rejected", rejection: decoded.left });
  }
  const content = decoded.right;
  const end = header.content;
  if (pages.ready(packedAt, end)) {
    pages.close();
    return E.right(content);
  }
  return E.right({
    ...content,
    later: {
      load: async (ranges) => {
        for (const [from, to] of ranges) {
          const f = await pages.load(packedAt + from, packedAt + to);
          if (f !== undefined) return f;
        }
        return undefined;
      },
      loadAll: async () => {
        const f = await pages.load(packedAt, end);
        if (f === undefined) pages.close();
        return f;
      },
      close: pages.close,
    },
  });
}

/** The page reader of one blob: pages read at most once, each checked before it counts as read. */
function pagesOf(blob: SnapshotBlob, name: string, bytes: Uint8Array, sums: Uint32Array): Pages {
  const content = bytes.length;
  const count = sums.length;
  /** 1 once a page is read and checked. */
  const state = new Uint8Array(count);
  let left = count;
  /** The read in flight of each page being read. */
  const inFlight = new Map<number, Promise<LaterFailure | undefined>>();
  let failure: LaterFailure | undefined;
  let closed = false;
  let active = 0;
  const waiting: (() => void)[] = [];
  const slot = async (): Promise<void> => {
    if (active < READ_AHEAD) {
      active++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const free = (): void => {
    const next = waiting.shift();
    if (next !== undefined) next();
    else active--;
  };
  /** Reads pages [p0, p1) (none read or in flight), then checks each. */
  const readRun = async (p0: number, p1: number): Promise<LaterFailure | undefined> => {
    await slot();
    try {
      if (failure !== undefined) return failure;
      if (closed) return { _tag: "closed" };
      const from = p0 * SNAPSHOT_PAGE;
      const to = Math.min(content, p1 * SNAPSHOT_PAGE);
      let got: number;
      try {
        got = await blob.readInto(from, bytes.subarray(from, to));
      } catch (e) {
        return closed ? { _tag: "closed" } : (failure = { _tag: "failed", error: snapshotFailure("read", name, e) });
      }
      if (got < to - from)
        return (failure = rejected("truncated", `the file ended in page ${p0 + Math.floor(got / SNAPSHOT_PAGE)}`));
      for (let p = p0; p < p1; p++) {
        const a = p * SNAPSHOT_PAGE;
        if (crc32(bytes.subarray(a, Math.min(content, a + SNAPSHOT_PAGE))) !== sums[p])
          return (failure = rejected("checksum", `CRC-32 mismatch in page ${p}`));
        state[p] = 1;
        left--;
      }
      return undefined;
    } finally {
      free();
    }
  };
  const ready = (from: number, to: number): boolean => {
    if (left === 0) return true;
    if (to <= from) return true;
    const last = Math.ceil(Math.min(to, content) / SNAPSHOT_PAGE);
    for (let p = Math.floor(from / SNAPSHOT_PAGE); p < last; p++) if (state[p] !== 1) return false;
    return true;
  };
  const load = async (from: number, to: number): Promise<LaterFailure | undefined> => {
    if (failure !== undefined) return failure;
    if (ready(from, to)) return undefined;
    if (closed) return { _tag: "closed" };
    const waits: Promise<LaterFailure | undefined>[] = [];
    const first = Math.floor(from / SNAPSHOT_PAGE);
    const last = Math.ceil(Math.min(to, content) / SNAPSHOT_PAGE);
    const perRead = CHUNK / SNAPSHOT_PAGE;
    for (let p = first; p < last;) {
      const pending = inFlight.get(p);
      if (state[p] === 1 || pending !== undefined) {
        if (pending !== undefined) waits.push(pending);
        p++;
        continue;
      }
      let q = p + 1;
      while (q < last && q - p < perRead && state[q] !== 1 && !inFlight.has(q)) q++;
      const run = readRun(p, q);
      const done = run.finally(() => {
        for (let i = p; i < q; i++) inFlight.delete(i);
      });
      for (let i = p; i < q; i++) inFlight.set(i, done);
      waits.push(done);
      p = q;
    }
    for (const w of waits) {
      const f = await w;
      if (f !== undefined) {
        // Let every read of this load settle before the caller acts on the failure.
        await Promise.allSettled(waits);
        return f;
      }
    }
    return undefined;
  };
  return {
    ready,
    load,
    close: () => {
      if (closed) return;
      closed = true;
      // The blob goes once the reads in flight have settled.
      void Promise.allSettled([...inFlight.values()]).then(() => blob.close());
    },
  };
}
