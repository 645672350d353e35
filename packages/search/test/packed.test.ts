// Packed postings (differences as varints): every int32 sequence round-trips, unpacking a range
// is total (short, long or garbage bytes never read outside it and never throw), a snapshot
// stores its postings packed and a restored cache unpacks a list only when it is used.
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { packedSize, packInto, unpackInto } from "../src/ranking/packed.js";
import { PostingsCache } from "../src/ranking/postings.js";
import { decodeSnapshot, encodeSnapshot } from "../src/ranking/snapshot.js";
import { rank } from "../src/ranking/topk.js";
import { runsFor } from "../../../.ci/support/runs.js";

const pack = (values: Int32Array): Uint8Array => {
  const out = new Uint8Array(packedSize(values, 0, values.length));
  expect(packInto(values, 0, values.length, out, 0)).toBe(out.length);
  return out;
};

describe("packed postings", () => {
  it("property: any int32 sequence (ascending or not) round-trips, in exactly packedSize bytes", () => {
    const sequences = fc.oneof(
      fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
      fc.array(fc.nat({ max: 5000 })).map((xs) => {
        let at = 0;
        return xs.map((x) => (at += x));
      }),
    );
    fc.assert(
      fc.property(sequences, (xs) => {
        const values = Int32Array.from(xs);
        const bytes = pack(values);
        const out = new Int32Array(values.length);
        expect(unpackInto(bytes, 0, bytes.length, values.length, out)).toBe(values.length);
        expect([...out]).toEqual([...values]);
      }),
      { numRuns: runsFor(300, 1000) },
    );
  });

  it("property: unpacking any bytes over any range is total: exactly count values, nothing read outside the range", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }),
        fc.integer({ min: -4, max: 70 }),
        fc.integer({ min: -4, max: 70 }),
        fc.nat({ max: 40 }),
        (bytes, from, to, count) => {
          const out = new Int32Array(count).fill(7);
          const held = unpackInto(bytes, from, to, count, out);
          expect(held).toBeGreaterThanOrEqual(0);
          expect(held).toBeLessThanOrEqual(count);
          for (let i = held; i < count; i++) expect(out[i]).toBe(0);
          // The bytes outside the range do not change what is read.
          const a = Math.max(0, from);
          const b = Math.min(to, bytes.length);
          if (a < b) {
            const fenced = new Uint8Array(bytes.length).fill(0xff);
            fenced.set(bytes.subarray(a, b), a);
            const again = new Int32Array(count);
            expect(unpackInto(fenced, from, to, count, again)).toBe(held);
            expect([...again]).toEqual([...out]);
          }
        },
      ),
      { numRuns: runsFor(300, 1000) },
    );
  });

  it("an ascending list takes one byte a posting when neighbours are close, five for a step down", () => {
    expect(
      packedSize(
        Int32Array.from({ length: 100 }, (_, i) => 4 * i + 1),
        0,
        100,
      ),
    ).toBe(100);
    expect(packedSize(Int32Array.of(300, 299), 0, 2)).toBe(2 + 5);
    expect(packedSize(Int32Array.of(-1), 0, 1)).toBe(5);
  });

  it("a snapshot stores the postings packed; a restored cache unpacks only the lists a search touches, and ranks as the original", () => {
    const cache = new PostingsCache<number>();
    const words = Array.from({ length: 50 }, (_, i) => `w${i}`);
    for (let d = 0; d < 2000; d++)
      cache.put(
        `k${d}`,
        d,
        { summary: [words[d % 7]!], content: words.filter((_, i) => (d * 31 + i * 17) % 5 === 0) },
        "ns",
        "file",
      );
    const image = cache.image();
    const postings = image.lists.listStart[image.termStart.length - 1]!;
    expect(image.lists.packed.length).toBeLessThan(1.5 * postings); // int32 would be 4 × postings
    const bytes = encodeSnapshot({ identity: "i", scope: "*", generation: 1, image, docExtra: undefined, marks: [] });
    const decoded = decodeSnapshot(bytes, { identity: "i", scope: "*", maxGeneration: 1 });
    if (E.isLeft(decoded)) throw new Error(decoded.left.detail);
    const copy = PostingsCache.restore(decoded.right.image, (d) => d);
    const before = copy.bytes();
    const query = ["w3", "w7"];
    const opts = { k: 10, summaryWeight: 2, namespace: undefined, kinds: undefined };
    expect(rank(copy, query, opts)).toEqual(rank(cache, query, opts));
    // Two lists were unpacked (an array each), not fifty.
    const grown = copy.bytes() - before;
    expect(grown).toBeGreaterThan(0);
    expect(grown).toBeLessThan(cache.bytes() / 4);
  });

  it("property: a batch into an empty cache (built flat and packed), a cache packed after its writes and the same entries one at a time as arrays hold the same state and rank alike, through later writes and removals; a terms column reads as its arrays", () => {
    const term = fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h", "app", "py", "main", "数据");
    const entry = fc.record({
      key: fc.constantFrom("k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"),
      summary: fc.uniqueArray(term, { maxLength: 4 }),
      content: fc.uniqueArray(term, { maxLength: 8 }),
      ns: fc.constantFrom("n1", "n2"),
      column: fc.boolean(),
    });
    type Entry = typeof entry extends fc.Arbitrary<infer T> ? T : never;
    // Some entries as a terms column (SQLite's stored form), the others as arrays; `asArrays` all as arrays.
    const item = (e: Entry, i: number, asArrays = false) => ({
      key: e.key,
      handle: i,
      terms:
        e.column && !asArrays
          ? `${e.summary.join(" ")}\t${e.content.join(" ")}`
          : { summary: e.summary, content: e.content },
      namespace: e.ns,
      kind: "file",
    });
    const encode = (c: PostingsCache<number>): Uint8Array =>
      encodeSnapshot({ identity: "i", scope: "*", generation: 1, image: c.image(), docExtra: undefined, marks: [] });
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 60 }),
        fc.array(entry, { maxLength: 20 }),
        (first, later) => {
          const batch = new PostingsCache<number>();
          batch.putMany(first.map((e, i) => item(e, i)));
          const single = new PostingsCache<number>();
          first.forEach((e, i) => single.putMany([item(e, i, true)]));
          const packed = new PostingsCache<number>();
          first.forEach((e, i) => packed.putMany([item(e, i)]));
          packed.pack();
          expect(encode(batch)).toEqual(encode(single));
          expect(encode(packed)).toEqual(encode(single));
          // A batch into an empty cache builds its key map on first use: every key finds its entry.
          const keys = ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"];
          expect(keys.map((k) => batch.docOf(k))).toEqual(keys.map((k) => single.docOf(k)));
          const caches = [batch, single, packed];
          const query = ["a", "app", "数据", "h"];
          const opts = { k: 5, summaryWeight: 2, namespace: undefined, kinds: undefined };
          const ranked = (c: PostingsCache<number>) => rank(c, query, opts).map((r) => [r.handle, r.score]);
          for (const c of caches) expect(ranked(c)).toEqual(ranked(single));
          later.forEach((e, i) => {
            for (const c of caches) {
              if (i % 3 === 2) c.remove(e.key);
              else c.putMany([item(e, 100 + i, c === single)]);
            }
          });
          expect(encode(batch)).toEqual(encode(single));
          expect(encode(packed)).toEqual(encode(single));
          for (const c of caches) expect(ranked(c)).toEqual(ranked(single));
        },
      ),
      { numRuns: runsFor(200, 1000) },
    );
  });

  it("a snapshot whose list bounds do not ascend is refused as malformed", () => {
    const cache = new PostingsCache<number>();
    for (let d = 0; d < 20; d++) cache.put(`k${d}`, d, { summary: ["a", `t${d % 3}`], content: ["b"] }, "ns", "file");
    const image = cache.image();
    const packedStart = image.lists.packedStart.slice();
    [packedStart[1], packedStart[2]] = [packedStart[2]!, packedStart[1]!];
    expect(packedStart[1]!).toBeGreaterThan(packedStart[2]!);
    const bad = { ...image, lists: { ...image.lists, packedStart } };
    const bytes = encodeSnapshot({
      identity: "i",
      scope: "*",
      generation: 1,
      image: bad,
      docExtra: undefined,
      marks: [],
    });
    const r = decodeSnapshot(bytes, { identity: "i", scope: "*", maxGeneration: 1 });
    expect(E.isLeft(r) && r.left.reason).toBe("malformed");
  });

  it("texts below U+0100 are stored one byte a character and others as UTF-16; keys and terms round-trip either way", () => {
    const sizes: number[] = [];
    for (const mark of ["é", "€", "\ud800"]) {
      const cache = new PostingsCache<number>();
      for (let d = 0; d < 50; d++)
        cache.put(`key-${mark}-${d}`, d, { summary: [`t${d % 4}`], content: ["x"] }, `ns${mark}`, "file");
      const image = cache.image();
      const bytes = encodeSnapshot({ identity: "i", scope: "*", generation: 1, image, docExtra: undefined, marks: [] });
      sizes.push(bytes.length);
      const r = decodeSnapshot(bytes, { identity: "i", scope: "*", maxGeneration: 1 });
      if (E.isLeft(r)) throw new Error(r.left.detail);
      const copy = PostingsCache.restore(r.right.image, (d) => d);
      for (let d = 0; d < 50; d++) expect(copy.keyOf(d)).toBe(`key-${mark}-${d}`);
      expect(r.right.image.namespaces).toEqual([`ns${mark}`]);
      const opts = { k: 5, summaryWeight: 2, namespace: `ns${mark}`, kinds: undefined };
      expect(rank(copy, ["t1"], opts)).toEqual(rank(cache, ["t1"], opts));
    }
    // The keys of the first (é, Latin-1) take one byte a character, the others two.
    expect(sizes[1]! - sizes[0]!).toBeGreaterThanOrEqual(50 * "key-é-0".length - 8);
    expect(sizes[2]).toBe(sizes[1]);
  });
});
