// Per-namespace postings: a search in a namespace loads only that namespace, loaded namespaces
// are kept under the byte cap (LRU) and reloaded after eviction, another writer's rows are caught
// up by generation; and a namespace's ranking never depends on another namespace's entries.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchHit, SegmentIndex } from "../src/contract.js";
import { entry } from "../src/contract.js";
import { memoryIndex } from "../src/memory.js";
import { openPostgresIndex } from "../src/postgres.js";
import { postingsCacheStats } from "../src/ranking/scopes.js";
import { openSqliteIndex } from "../src/sqlite.js";
import { right } from "./support/contract.js";
import { testDatabase, type TestDatabase } from "./support/postgres.js";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = (local: number): number => runsFor(local, Math.max(1000, local));

let dir: string;
let db: TestDatabase;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cc-ns-"));
  db = await testDatabase();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await db.drop();
});

let n = 0;
/** Opens `count` indexes over one fresh store (one for memory: it has no shared store). */
type Opener = (options?: {
  readonly postingsCacheBytes?: number;
}) => Promise<{ readonly open: (options?: { readonly postingsCacheBytes?: number }) => Promise<SegmentIndex> }>;
const sqliteStore: Opener = async () => {
  const path = join(dir, `ns-${n++}.db`);
  return { open: async (options = {}) => right(await openSqliteIndex({ path, ...options })()) };
};
const pgStore: Opener = async () => {
  const table = `ns_${n++}`;
  return {
    open: async (options = {}) => right(await openPostgresIndex({ connection: db.client(), table, ...options })()),
  };
};

const VOCAB = ["alpha", "beta", "gamma", "delta", "error", "file", "read", "main"];
const text = fc.array(fc.constantFrom(...VOCAB), { maxLength: 6 }).map((ws) => ws.join(" "));
const doc = fc.record({ summary: text, content: text });
const shape = (hits: readonly SearchHit[]) => hits.map((h) => ({ id: h.id, namespace: h.namespace, score: h.score }));

const backends: readonly [string, () => Promise<SegmentIndex>][] = [
  ["memory", async () => memoryIndex()],
  ["sqlite", async () => (await sqliteStore()).open()],
  ["postgres", async () => (await pgStore()).open()],
];

for (const [name, make] of backends) {
  describe(`per-namespace statistics: ${name}`, () => {
    it("property: search results in a namespace (ids, order, scores) are the same with and without other namespaces' entries", async () => {
      const alone = await make();
      const shared = await make();
      let tag = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(doc, { minLength: 1, maxLength: 12 }),
          fc.array(doc, { maxLength: 12 }),
          fc.array(doc, { maxLength: 12 }),
          text,
          fc.integer({ min: 1, max: 8 }),
          fc.boolean(),
          async (a, before, after, query, k, dropOther) => {
            const t = tag++;
            const ns = `a${t}`;
            const as = a.map((d, i) =>
              entry({ id: `e${i}`, namespace: ns, summary: d.summary, content: `${d.content} py` }),
            );
            const others = (ds: typeof before, o: string) =>
              ds.map((d, i) =>
                entry({ id: `e${i}`, namespace: `${o}${t}`, summary: d.summary, content: `${d.content} py` }),
              );
            right(await alone.write(as)());
            if (before.length > 0) right(await shared.write(others(before, "b"))());
            right(await shared.write(as.slice(0, 1))());
            if (after.length > 0) right(await shared.write([...others(after, "c"), ...as.slice(1)])());
            else right(await shared.write(as.slice(1))());
            if (dropOther) right(await shared.deleteNamespace(`b${t}`)());
            const q = `${query} py`;
            const want = shape(right(await alone.search(q, { k, namespace: ns })()));
            expect(shape(right(await shared.search(q, { k, namespace: ns })()))).toEqual(want);
            expect(want.length).toBe(Math.min(k, as.length));
          },
        ),
        { numRuns: runs(25) },
      );
      right(await alone.close()());
      right(await shared.close()());
    }, 120_000);
  });
}

const entries = (ns: string, count: number, word: string) =>
  Array.from({ length: count }, (_, i) =>
    entry({ id: `${ns}-${i}`, namespace: ns, summary: `${word} item${i}`, content: `shared ${word} body${i}` }),
  );

for (const [name, store] of [
  ["sqlite", sqliteStore],
  ["postgres", pgStore],
] as const) {
  describe(`per-namespace loading: ${name}`, () => {
    it("a search in a namespace loads that namespace's entries only", async () => {
      const s = await store();
      const writer = await s.open();
      right(
        await writer.write([
          ...entries("n1", 10, "alpha"),
          ...entries("n2", 20, "beta"),
          ...entries("n3", 30, "gamma"),
        ])(),
      );
      const reader = await s.open();
      expect(postingsCacheStats(reader)?.loads).toBe(0);
      expect(right(await reader.search("shared", { namespace: "n1", k: 50 })()).map((h) => h.namespace)).toEqual(
        Array(10).fill("n1"),
      );
      const stats = postingsCacheStats(reader)!;
      expect(stats.loads).toBe(1);
      expect(stats.loadedEntries).toBe(10);
      expect(stats.scopes.map((x) => [x.namespace, x.entries])).toEqual([["n1", 10]]);
      // Across namespaces: the whole index, in one more scope.
      expect(right(await reader.search("shared", { k: 100 })()).length).toBe(60);
      expect(postingsCacheStats(reader)!.scopes.map((x) => [x.namespace, x.entries])).toEqual([
        ["n1", 10],
        [undefined, 60],
      ]);
      expect(postingsCacheStats(reader)!.loadedEntries).toBe(70);
      for (const ix of [writer, reader]) right(await ix.close()());
    });

    it("keeps loaded namespaces under the byte cap, least recently used out first, and reloads an evicted one", async () => {
      const s = await store();
      const writer = await s.open();
      right(
        await writer.write([
          ...entries("n1", 40, "alpha"),
          ...entries("n2", 40, "beta"),
          ...entries("n3", 40, "gamma"),
        ])(),
      );
      const probe = await s.open();
      right(await probe.search("alpha", { namespace: "n1" })());
      const one = postingsCacheStats(probe)!.scopes[0]!.bytes;
      expect(one).toBeGreaterThan(0);
      // Room for two namespaces of this size, not three.
      const reader = await s.open({ postingsCacheBytes: Math.floor(one * 2.5) });
      const first = right(await reader.search("alpha shared", { namespace: "n1", k: 5 })());
      right(await reader.search("beta", { namespace: "n2" })());
      expect(postingsCacheStats(reader)!.evictions).toBe(0);
      right(await reader.search("gamma", { namespace: "n3" })());
      let stats = postingsCacheStats(reader)!;
      expect(stats.evictions).toBe(1);
      expect(stats.scopes.map((x) => x.namespace)).toEqual(["n2", "n3"]);
      expect(stats.bytes).toBeLessThanOrEqual(stats.capBytes);
      // n1 again: loaded again (n2, now least recently used, goes), same answer.
      expect(right(await reader.search("alpha shared", { namespace: "n1", k: 5 })())).toEqual(first);
      stats = postingsCacheStats(reader)!;
      expect(stats.loads).toBe(4);
      expect(stats.scopes.map((x) => x.namespace)).toEqual(["n3", "n1"]);
      // A cap of 0 still searches (the namespace in use is held alone).
      const tiny = await s.open({ postingsCacheBytes: 0 });
      expect(right(await tiny.search("alpha shared", { namespace: "n1", k: 5 })())).toEqual(first);
      right(await tiny.search("beta", { namespace: "n2" })());
      expect(postingsCacheStats(tiny)!.scopes.map((x) => x.namespace)).toEqual(["n2"]);
      for (const ix of [writer, probe, reader, tiny]) right(await ix.close()());
    });

    it("catches a loaded namespace up by generation after another writer writes to it", async () => {
      const s = await store();
      const writer = await s.open();
      right(await writer.write(entries("n1", 5, "alpha"))());
      const reader = await s.open();
      expect(right(await reader.search("zeta", { namespace: "n1" })())).toEqual([]);
      right(
        await writer.write([
          entry({ id: "late", namespace: "n1", summary: "zeta arrives", content: "late body" }),
          ...entries("n2", 3, "zeta"),
        ])(),
      );
      expect(right(await reader.search("zeta", { namespace: "n1" })()).map((h) => h.id)).toEqual(["late"]);
      right(await writer.deleteNamespace("n1")());
      expect(right(await reader.search("zeta alpha", { namespace: "n1" })())).toEqual([]);
      const stats = postingsCacheStats(reader)!;
      expect(stats.loads).toBe(1);
      expect(stats.scopes.map((x) => [x.namespace, x.entries])).toEqual([["n1", 0]]);
      for (const ix of [writer, reader]) right(await ix.close()());
    });

    it("refuses a bad postingsCacheBytes, naming the field", async () => {
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 1.5]) {
        const r =
          name === "sqlite"
            ? await openSqliteIndex({ postingsCacheBytes: bad })()
            : await openPostgresIndex({ connection: db.client(), postingsCacheBytes: bad })();
        expect(r._tag).toBe("Left");
        if (r._tag === "Left") {
          expect(r.left._tag).toBe("InvalidOptions");
          expect(JSON.stringify(r.left)).toContain("postingsCacheBytes");
        }
      }
      const typo =
        name === "sqlite"
          ? await openSqliteIndex({ postingsCacheByte: 1 } as never)()
          : await openPostgresIndex({ connection: db.client(), postingsCacheByte: 1 } as never)();
      expect(typo._tag === "Left" && typo.left._tag).toBe("InvalidOptions");
    });
  });
}
