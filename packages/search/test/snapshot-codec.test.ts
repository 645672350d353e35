// The snapshot encoding of a postings cache: a round trip ranks exactly as the original (and keeps
// doing so under further writes, removals and compactions); any truncation or flipped byte is a
// typed rejection, never a throw or a cache.
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { entryKey } from "../src/contract.js";
import { PostingsCache } from "../src/ranking/postings.js";
import * as zlib from "node:zlib";
import { crc32, decodeSnapshot, encodeSnapshot, portableCrc32, type SnapshotContent } from "../src/ranking/snapshot.js";
import { rank } from "../src/ranking/topk.js";
import { runsFor } from "../../../.ci/support/runs.js";
import { runs } from "./support/contract.js";

const VOCAB = ["alpha", "beta", "gamma", "delta", "error", "file", "read", "py", "x1", "x2", "\ud800odd", "é"];
const word = fc.nat({ max: 999 }).map((x) => VOCAB[Math.floor((x / 1000) ** 2 * VOCAB.length)]!);
const doc = fc.record({
  id: fc.nat({ max: 300 }),
  ns: fc.constantFrom("a", "b", "\u0000c"),
  kind: fc.constantFrom("file", "tool"),
  summary: fc.array(word, { maxLength: 4 }),
  content: fc.array(word, { maxLength: 12 }),
});
type Doc = typeof doc extends fc.Arbitrary<infer T> ? T : never;
const op = fc.oneof(
  doc.map((d) => ({ put: d })),
  fc.record({ remove: fc.nat({ max: 300 }), ns: fc.constantFrom("a", "b", "\u0000c") }),
  fc.record({ dropNs: fc.constantFrom("a", "b", "\u0000c") }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

const keyOf = (ns: string, id: number): string => entryKey(ns, `d${id}`);
function apply(cache: PostingsCache<number>, o: Op): void {
  if ("put" in o) {
    const d: Doc = o.put;
    cache.put(
      keyOf(d.ns, d.id),
      d.id * 7 + d.ns.length,
      { summary: [...new Set(d.summary)], content: [...new Set(d.content)] },
      d.ns,
      d.kind,
    );
  } else if ("remove" in o) cache.remove(keyOf(o.ns, o.remove));
  else cache.removeNamespace(o.dropNs);
}
const ranked = (cache: PostingsCache<number>, terms: readonly string[], ns: string | undefined): readonly unknown[] =>
  rank(cache, terms, { k: 20, summaryWeight: 2, namespace: ns, kinds: undefined }).map((r) => [r.handle, r.score]);

const meta = { identity: "index-1", scope: "*", generation: 17 };
const expect1 = { identity: "index-1", scope: "*", maxGeneration: 17 };
function snapshotOf(cache: PostingsCache<number>): Uint8Array {
  const img = cache.image();
  const extra = new Float64Array(img.docCount);
  for (let d = 0; d < img.docCount; d++) if (img.docLive[d] === 1) extra[d] = cache.handleOf(d);
  const content: SnapshotContent = {
    ...meta,
    image: img,
    docExtra: extra,
    marks: [
      ["a", 3],
      ["\ud800", 5],
    ],
  };
  return encodeSnapshot(content);
}
function restored(bytes: Uint8Array): PostingsCache<number> {
  const r = decodeSnapshot(bytes, expect1);
  if (E.isLeft(r)) throw new Error(r.left.detail);
  const extra = r.right.docExtra!;
  return PostingsCache.restore(r.right.image, (d) => extra[d]!, 8);
}

describe("postings snapshot encoding", () => {
  it("property: a decoded snapshot ranks as the cache it came from, before and after the same further operations", () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 120 }),
        fc.array(op, { maxLength: 60 }),
        fc.array(fc.array(word, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }),
        (before, after, queries) => {
          const original = new PostingsCache<number>(8);
          for (const o of before) apply(original, o);
          const bytes = snapshotOf(original);
          const copy = restored(bytes);
          const decoded = decodeSnapshot(bytes, expect1);
          expect(E.isRight(decoded) && decoded.right.marks).toEqual([
            ["a", 3],
            ["\ud800", 5],
          ]);
          for (const cache of [original, copy]) expect(cache.live).toBe(original.live);
          for (const q of queries)
            for (const ns of [undefined, "a", "\u0000c"]) expect(ranked(copy, q, ns)).toEqual(ranked(original, q, ns));
          for (const o of after) {
            apply(original, o);
            apply(copy, o);
          }
          for (const q of queries)
            for (const ns of [undefined, "b"]) expect(ranked(copy, q, ns)).toEqual(ranked(original, q, ns));
          // Encoding a restored cache gives the bytes of encoding the original.
          expect(snapshotOf(copy)).toEqual(snapshotOf(original));
        },
      ),
      { numRuns: runsFor(40, 150) },
    );
  });

  it("property: every truncation and every flipped byte is rejected with a reason, never thrown", () => {
    const cache = new PostingsCache<number>();
    for (let i = 0; i < 40; i++)
      apply(cache, {
        put: {
          id: i,
          ns: i % 2 === 0 ? "a" : "b",
          kind: "file",
          summary: [VOCAB[i % VOCAB.length]!],
          content: ["py", VOCAB[(i * 5) % VOCAB.length]!],
        },
      });
    const bytes = snapshotOf(cache);
    fc.assert(
      fc.property(
        fc.nat({ max: bytes.length - 1 }),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        (at, mask, truncate) => {
          const bad = truncate ? bytes.slice(0, at) : bytes.slice();
          if (!truncate) bad[at]! ^= mask;
          const r = decodeSnapshot(bad, expect1);
          expect(E.isLeft(r)).toBe(true);
          if (E.isLeft(r)) expect(["truncated", "magic", "version", "checksum", "malformed"]).toContain(r.left.reason);
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it("refuses another index, another scope and a generation ahead of the counter", () => {
    const cache = new PostingsCache<number>();
    apply(cache, { put: { id: 1, ns: "a", kind: "file", summary: ["alpha"], content: [] } });
    const bytes = snapshotOf(cache);
    const reason = (e: ReturnType<typeof decodeSnapshot>): string | undefined =>
      E.isLeft(e) ? e.left.reason : undefined;
    expect(reason(decodeSnapshot(bytes, { ...expect1, identity: "index-2" }))).toBe("identity");
    expect(reason(decodeSnapshot(bytes, { ...expect1, scope: "na" }))).toBe("scope");
    expect(reason(decodeSnapshot(bytes, { ...expect1, maxGeneration: 16 }))).toBe("ahead");
    expect(reason(decodeSnapshot(bytes, { ...expect1, maxGeneration: 18 }))).toBeUndefined();
    // An unaligned copy decodes too.
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(reason(decodeSnapshot(shifted.subarray(1), expect1))).toBeUndefined();
  });

  it("a restored cache, cleared, takes new entries as a fresh one does (its forward lists and shared buffer forgotten)", () => {
    const original = new PostingsCache<number>(8);
    for (let i = 0; i < 30; i++)
      apply(original, {
        put: { id: i, ns: "a", kind: "file", summary: ["alpha", "beta"], content: [VOCAB[i % VOCAB.length]!, "read"] },
      });
    const copy = restored(snapshotOf(original));
    copy.clear();
    const fresh = new PostingsCache<number>(8);
    for (const cache of [copy, fresh])
      for (let i = 0; i < 12; i++)
        apply(cache, {
          put: { id: i, ns: "b", kind: "tool", summary: ["gamma"], content: [VOCAB[(i * 5) % VOCAB.length]!] },
        });
    for (const cache of [copy, fresh]) apply(cache, { remove: 3, ns: "b" });
    for (const q of [["gamma"], ["alpha"], ["x1", "py"]])
      expect(ranked(copy, q, undefined)).toEqual(ranked(fresh, q, undefined));
    expect(copy.live).toBe(11);
    expect(copy.bytes()).toBeLessThan(restored(snapshotOf(original)).bytes() + fresh.bytes());
  });

  it("property: the checksum is CRC-32, the same with zlib and without it, whole or continued part by part", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(portableCrc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.nat(), (bytes, cut) => {
        const at = bytes.length === 0 ? 0 : cut % (bytes.length + 1);
        const whole = portableCrc32(bytes);
        expect(zlib.crc32(bytes)).toBe(whole);
        expect(portableCrc32(bytes.subarray(at), portableCrc32(bytes.subarray(0, at)))).toBe(whole);
        expect(crc32(bytes.subarray(at), crc32(bytes.subarray(0, at)))).toBe(whole);
      }),
      { numRuns: runsFor(200, 1000) },
    );
  });
});

describe("restored keys", () => {
  it("are read a key at a time from the stored bytes, Latin-1 or UTF-16, and every key through the key map", () => {
    for (const ns of ["a", "\u0000c", "é", "\ud800"]) {
      const cache = new PostingsCache<number>();
      for (let i = 0; i < 50; i++)
        cache.put(keyOf(ns, i), i, { summary: ["alpha"], content: [VOCAB[i % VOCAB.length]!] }, ns, "file");
      const copy = restored(snapshotOf(cache));
      for (let d = 0; d < 50; d++) expect(copy.keyOf(d)).toBe(cache.keyOf(d));
      // A change builds the key map from every key (the joined text decoded once).
      copy.remove(keyOf(ns, 7));
      cache.remove(keyOf(ns, 7));
      expect(ranked(copy, ["alpha"], ns)).toEqual(ranked(cache, ["alpha"], ns));
      expect(copy.docOf(keyOf(ns, 8))).toBe(cache.docOf(keyOf(ns, 8)));
    }
  });

  it("key bounds out of order (a writer's bug under a valid checksum) read as clamped slices, never a throw", () => {
    const cache = new PostingsCache<number>();
    for (let i = 0; i < 5; i++)
      apply(cache, { put: { id: i, ns: "a", kind: "file", summary: ["alpha"], content: [] } });
    const img = cache.image();
    const keyStart = Int32Array.from(img.keyStart);
    keyStart[2] = 1_000_000;
    keyStart[3] = -5;
    const bytes = encodeSnapshot({
      ...meta,
      image: { ...img, keyStart },
      docExtra: new Float64Array(img.docCount),
      marks: [],
    });
    const copy = restored(bytes);
    for (let d = 0; d < 5; d++) expect(typeof copy.keyOf(d)).toBe("string");
    expect(copy.keyOf(0)).toBe(cache.keyOf(0));
  });
});
