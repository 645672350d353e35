// The postings cache's byte estimate (what the scope LRU's byte cap is held to) against the heap
// and external memory a loaded cache really retains, built from rows and restored from an image.
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { PostingsCache } from "../src/ranking/postings.js";
import { decodeSnapshot, encodeSnapshot } from "../src/ranking/snapshot.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Terms columns of `docs` entries: 40–100 terms each from a skewed vocabulary of `vocab` terms (seeded, deterministic). */
function columns(docs: number, vocab: number, seed: number): string[] {
  let x = seed;
  const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: docs }, () => {
    const n = 40 + Math.floor(next() * 60);
    const terms = Array.from({ length: n }, () => `w${Math.floor(vocab * next() ** 2).toString(36)}`);
    return `${terms.slice(0, 8).join(" ")}\t${terms.slice(8).join(" ")}`;
  });
}

/** Heap used plus external memory after two collections. */
function retained(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

describe("PostingsCache.bytes", () => {
  it("is within 25% of the memory a cache built from rows retains, and of one restored from its image", () => {
    const sets = [columns(1000, 4000, 1), columns(1000, 4000, 2), columns(2000, 20000, 3), columns(500, 1500, 4)];
    const items = sets.map((cols, s) =>
      cols.map((terms, i) => ({ key: `ns${s}\u0000id-${i}`, handle: i, terms, namespace: `ns${s}`, kind: "text" })),
    );
    const before = retained();
    const built = items.map((batch) => {
      const c = new PostingsCache<number>();
      c.putMany(batch);
      return c;
    });
    const real = retained() - before;
    const estimate = built.reduce((n, c) => n + c.bytes(), 0);
    expect(real / estimate).toBeGreaterThan(0.75);
    expect(real / estimate).toBeLessThan(1.25);

    // Restored as a fresh process restores a scope: from a snapshot's bytes, read inside the measurement.
    const files = built.map((c) =>
      encodeSnapshot({ identity: "i", scope: "s", generation: 1, image: c.image(), docExtra: undefined, marks: [] }),
    );
    const beforeRestore = retained();
    const restored = files.map((file) => {
      const decoded = decodeSnapshot(file.slice(), { identity: "i", scope: "s", maxGeneration: 1 });
      if (E.isLeft(decoded)) throw new Error(decoded.left.detail);
      const image = decoded.right.image;
      const c = PostingsCache.restore(image, (doc) => doc);
      // Half the lists and every key made, as searches and a write would.
      for (let t = 0; t < image.termStart.length - 1; t += 2) c.list(t);
      c.docOf("ns0\u0000id-0");
      return c;
    });
    const realRestored = retained() - beforeRestore;
    const estimateRestored = restored.reduce((n, c) => n + c.bytes(), 0);
    expect(realRestored / estimateRestored).toBeGreaterThan(0.75);
    expect(realRestored / estimateRestored).toBeLessThan(1.25);
    expect(built.length + restored.length).toBe(8);
  });
});
