// A snapshot read in parts: the first part (everything but the packed postings) checked at once,
// each list's pages when a search needs them. A cache restored that way ranks exactly as one
// restored from the whole file, whatever lists are read in whatever order; a damaged page is
// refused when it is read (never used), a short file and a failing store are typed failures, and
// the blob is let go once every page is read or the reader is closed.
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryKey } from "../src/contract.js";
import { PostingsCache } from "../src/ranking/postings.js";
import {
  decodeSnapshot,
  encodeSnapshot,
  SNAPSHOT_PAGE,
  snapshotHeader,
  snapshotPackedRange,
  type LaterFailure,
} from "../src/ranking/snapshot.js";
import { rank } from "../src/ranking/topk.js";
import { decodePaged, readingInParts, readPaged } from "../src/snapshot-pages.js";
import type { SnapshotBlob } from "../src/snapshot-store.js";
import { runsFor } from "../../../.ci/support/runs.js";

const WORDS = Array.from({ length: 400 }, (_, i) => `w${i}`);
const expectation = { identity: "index-1", scope: "*", maxGeneration: 9 };

/** A cache of `n` entries over a vocabulary large enough for its lists to span many pages. */
function cacheOf(n: number, seed: number): PostingsCache<number> {
  const cache = new PostingsCache<number>();
  const items = [];
  for (let i = 0; i < n; i++) {
    const terms = new Set<string>();
    for (let j = 0; j < 12; j++) terms.add(WORDS[(i * 7 + j * j * 13 + seed) % WORDS.length]!);
    terms.add("common");
    items.push({
      key: entryKey(i % 3 === 0 ? "a" : "b", `d${i}`),
      handle: i,
      terms: { summary: [`s${i % 5}`], content: [...terms] },
      namespace: i % 3 === 0 ? "a" : "b",
      kind: "file",
    });
  }
  cache.putMany(items);
  return cache;
}
function encoded(cache: PostingsCache<number>): Uint8Array {
  const image = cache.image();
  const extra = new Float64Array(image.docCount);
  for (let d = 0; d < image.docCount; d++) extra[d] = cache.handleOf(d);
  return encodeSnapshot({ identity: "index-1", scope: "*", generation: 9, image, docExtra: extra, marks: [] });
}

/** A blob over bytes in memory, counting its reads; `fail` makes every read from then on reject. */
function memoryBlob(bytes: Uint8Array): SnapshotBlob & { reads: number; closed: boolean; fail: boolean } {
  const blob = {
    size: bytes.length,
    reads: 0,
    closed: false,
    fail: false,
    readInto: async (offset: number, into: Uint8Array): Promise<number> => {
      await new Promise((r) => setImmediate(r));
      if (blob.closed) throw new Error("read after close");
      if (blob.fail) throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
      blob.reads++;
      const part = bytes.subarray(offset, Math.min(bytes.length, offset + into.length));
      into.set(part);
      return part.length;
    },
    close: async () => {
      blob.closed = true;
    },
  };
  return blob;
}
const ranked = (cache: PostingsCache<number>, terms: readonly string[]): readonly unknown[] =>
  rank(cache, terms, { k: 15, summaryWeight: 2 }).map((r) => [r.handle, r.score]);

async function opened(bytes: Uint8Array, blob = memoryBlob(bytes)) {
  const read = await readPaged(blob, "x.ccsnap");
  if (E.isLeft(read)) return { blob, failure: read.left, content: undefined };
  const decoded = decodePaged(read.right, expectation);
  if (E.isLeft(decoded)) return { blob, failure: decoded.left, content: undefined };
  return { blob, failure: undefined, content: decoded.right };
}

describe("snapshots read in parts", () => {
  // Small enough for a test corpus (packed postings under this are read at once: see the last test).
  beforeAll(() => void (readingInParts.readLaterFrom = 0));
  afterAll(() => void (readingInParts.readLaterFrom = 2 << 20));
  const original = cacheOf(20_000, 1);
  const bytes = encoded(original);
  /** The cache restored from the whole file (a copy: a restored cache's arrays view its bytes, and changes write them). */
  const wholeCache = (): PostingsCache<number> => {
    const whole = decodeSnapshot(bytes.slice(), expectation);
    if (E.isLeft(whole)) throw new Error(JSON.stringify(whole.left));
    return PostingsCache.restore<number>(whole.right.image, (d) => whole.right.docExtra![d]!);
  };
  const header = snapshotHeader(bytes);
  if (E.isLeft(header)) throw new Error("header");
  const range = snapshotPackedRange(bytes, header.right);
  if (E.isLeft(range)) throw new Error("range");
  const { packedAt, packedEnd } = range.right;

  it("the corpus spans many pages, most of them packed postings read later", () => {
    expect(packedEnd - packedAt).toBeGreaterThan(4 * SNAPSHOT_PAGE);
    expect(packedAt).toBeLessThan(packedEnd - 4 * SNAPSHOT_PAGE);
  });

  it("property: lists read as searches need them rank as the whole file does, in any order, then every change applies alike", async () => {
    const query = fc.array(fc.constantFrom(...WORDS.slice(0, 60), "common", "s1", "nothing"), {
      minLength: 1,
      maxLength: 4,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(query, { minLength: 1, maxLength: 6 }), async (queries) => {
        const { content, blob, failure } = await opened(bytes);
        if (content === undefined) throw new Error(`not opened: ${JSON.stringify(failure)}`);
        expect(content.later).toBeDefined();
        const lazy = PostingsCache.restore<number>(content.image, (d) => content.docExtra![d]!);
        const full = wholeCache();
        for (const q of queries) {
          const unread = lazy.unreadRanges(q);
          expect(await content.later!.load(unread)).toBeUndefined();
          expect(lazy.unreadRanges(q)).toEqual([]);
          expect(ranked(lazy, q)).toEqual(ranked(full, q));
        }
        // A change needs every list: refused (a bug, never a wrong answer) until all are read.
        if (!lazy.allRead()) expect(() => lazy.remove(entryKey("a", "d0"))).toThrow(/before its lists were read/);
        expect(await content.later!.loadAll()).toBeUndefined();
        expect(lazy.allRead()).toBe(true);
        for (const c of [lazy, full]) {
          c.remove(entryKey("a", "d3"));
          c.put(entryKey("b", "new"), 99999, { summary: ["w1"], content: ["w2", "common"] }, "b", "file");
        }
        expect(ranked(lazy, ["w1", "w2"])).toEqual(ranked(full, ["w1", "w2"]));
        await new Promise((r) => setImmediate(r));
        expect(blob.closed).toBe(true);
      }),
      { numRuns: runsFor(8, 25) },
    );
  });

  it("property: a flipped byte is refused when its page is read (the first part at once, a list's page when a search needs it), never used", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, mask) => {
        const bad = bytes.slice();
        bad[at]! ^= mask;
        const { content, failure } = await opened(bad);
        if (at < Math.ceil(packedAt / SNAPSHOT_PAGE) * SNAPSHOT_PAGE || at >= packedEnd) {
          // The header, a page of the first part or the trailer: refused before anything is decoded.
          expect(content).toBeUndefined();
          expect(failure?._tag).toBe("rejected");
          return;
        }
        if (content === undefined) throw new Error(`refused at once: ${JSON.stringify(failure)}`);
        const lazy = PostingsCache.restore<number>(content.image, (d) => content.docExtra![d]!);
        const damagedPage = Math.floor(at / SNAPSHOT_PAGE);
        // Every list whose pages are intact reads and ranks as the whole file.
        const full = wholeCache();
        let refused: LaterFailure | undefined;
        for (const w of WORDS.slice(0, 40)) {
          const unread = lazy.unreadRanges([w]);
          const touches = unread.some(
            ([a, b]) =>
              Math.floor((packedAt + a) / SNAPSHOT_PAGE) <= damagedPage &&
              damagedPage <= Math.floor((packedAt + b - 1) / SNAPSHOT_PAGE),
          );
          const f = await content.later!.load(unread);
          if (refused !== undefined) {
            // Refused for good: any list still to read is refused too.
            if (unread.length > 0) expect(f).toEqual(refused);
            continue;
          }
          if (touches) {
            expect(f).toMatchObject({ _tag: "rejected", rejection: { reason: "checksum" } });
            refused = f;
            continue;
          }
          expect(f).toBeUndefined();
          expect(ranked(lazy, [w])).toEqual(ranked(full, [w]));
        }
        const all = await content.later!.loadAll();
        expect(all).toMatchObject({ _tag: "rejected", rejection: { reason: "checksum" } });
        expect(lazy.allRead()).toBe(false);
        content.later!.close();
      }),
      { numRuns: runsFor(40, 120) },
    );
  });

  it("a short file, a longer one, a failing store and a closed reader are typed failures; the blob is let go", async () => {
    for (const cut of [10, packedAt - 3, bytes.length - 1]) {
      const { failure, blob } = await opened(bytes.subarray(0, cut));
      expect(failure).toMatchObject({ _tag: "rejected", rejection: { reason: "truncated" } });
      await new Promise((r) => setImmediate(r));
      expect(blob.closed).toBe(true);
    }
    const longer = new Uint8Array(bytes.length + 8);
    longer.set(bytes);
    expect((await opened(longer)).failure).toMatchObject({ _tag: "rejected", rejection: { reason: "malformed" } });

    const failing = memoryBlob(bytes);
    const first = await opened(bytes, failing);
    failing.fail = true;
    const lazy = PostingsCache.restore<number>(first.content!.image, (d) => first.content!.docExtra![d]!);
    const f = await first.content!.later!.load(lazy.unreadRanges(["w5", "common"]));
    expect(f).toMatchObject({ _tag: "failed", error: { operation: "read", code: "EIO", name: "x.ccsnap" } });

    const closing = memoryBlob(bytes);
    const second = await opened(bytes, closing);
    second.content!.later!.close();
    await new Promise((r) => setImmediate(r));
    expect(closing.closed).toBe(true);
    expect(await second.content!.later!.loadAll()).toEqual({ _tag: "closed" });
  });

  it("reads only what is needed: the first part, then the pages of the lists asked for, each once", async () => {
    const { content, blob } = await opened(bytes);
    const after = blob.reads;
    const lazy = PostingsCache.restore<number>(content!.image, (d) => content!.docExtra![d]!);
    const unread = lazy.unreadRanges(["w7"]);
    expect(unread).toHaveLength(1);
    // Two searches at once read its pages once.
    await Promise.all([content!.later!.load(unread), content!.later!.load(unread)]);
    const pagesOfW7 =
      Math.floor((packedAt + unread[0]![1] - 1) / SNAPSHOT_PAGE) -
      Math.floor((packedAt + unread[0]![0]) / SNAPSHOT_PAGE) +
      1;
    expect(blob.reads - after).toBe(1);
    expect(pagesOfW7).toBeGreaterThanOrEqual(1);
    expect(await content!.later!.load(unread)).toBeUndefined();
    expect(blob.reads - after).toBe(1);
    content!.later!.close();
  });

  it("packed postings under the threshold are read at once: no later part, the blob let go", async () => {
    readingInParts.readLaterFrom = packedEnd - packedAt + 1;
    try {
      const { content, blob } = await opened(bytes);
      expect(content?.later).toBeUndefined();
      await new Promise((r) => setImmediate(r));
      expect(blob.closed).toBe(true);
      const lazy = PostingsCache.restore<number>(content!.image, (d) => content!.docExtra![d]!);
      expect(lazy.allRead()).toBe(true);
      expect(ranked(lazy, ["w3", "common"])).toEqual(ranked(wholeCache(), ["w3", "common"]));
    } finally {
      readingInParts.readLaterFrom = 0;
    }
  });
});
