// The first search of a SQLite index loads the postings cache in slices, yielding to the event
// loop between them: a process serving requests keeps answering while a large file loads. What
// other connections (and this one) write or delete meanwhile is in the first result, and closing
// the index mid-load ends the load with IndexClosed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { entry, type IndexEntry } from "../src/contract.js";
import { postingsCacheStats } from "../src/ranking/scopes.js";
import { openSqliteIndex } from "../src/sqlite.js";
import { left, right } from "./support/contract.js";
import { expectReferenceTopK } from "./support/reference-bm25.js";

const dir = mkdtempSync(join(tmpdir(), "cc-sliced-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** More rows than several load slices hold. */
const ROWS = 5000;
const corpus: IndexEntry[] = Array.from({ length: ROWS }, (_, i) =>
  entry({
    id: `e${i}`,
    namespace: i % 3 === 0 ? "gone" : "kept",
    summary: `alpha note ${i % 97}`,
    content: `beta output ${i % 13} file${i}.py`,
  }),
);

let files = 0;
/** A file holding `corpus`, written and closed (the next connection starts with an empty cache). */
async function filled(): Promise<string> {
  const path = join(dir, `f${files++}.db`);
  const w = right(await openSqliteIndex({ path })());
  right(await w.write(corpus)());
  right(await w.close()());
  return path;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Event-loop turns that run while `work` is pending (a chain of setImmediate callbacks). */
async function turnsDuring<A>(work: Promise<A>): Promise<{ readonly value: A; readonly turns: number }> {
  let done = false;
  let turns = 0;
  const spin = (): void => {
    if (done) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const value = await work;
  done = true;
  return { value, turns };
}

describe("sqlite: the first search loads the cache in slices", () => {
  it("yields to the event loop while a large file loads, and ranks exactly as the reference", async () => {
    const index = right(await openSqliteIndex({ path: await filled() })());
    const { value, turns } = await turnsDuring(index.search("alpha beta", { k: 50 })());
    expect(turns).toBeGreaterThanOrEqual(3);
    expectReferenceTopK(right(value), corpus, "alpha beta", { k: 50 }, "first search");
    // Loaded once: the next search does not load again (no yield needed).
    expectReferenceTopK(
      right(await index.search("file42 py", { k: 10 })()),
      corpus,
      "file42 py",
      { k: 10 },
      "second search",
    );
    right(await index.close()());
  });

  it("sees what this and another connection write and delete while it loads", async () => {
    const path = await filled();
    const reader = right(await openSqliteIndex({ path })());
    const other = right(await openSqliteIndex({ path })());
    const pending = reader.search("gamma alpha beta", { k: 100 })();
    await nextTurn();
    const added = [
      entry({ id: "new-1", namespace: "kept", summary: "gamma arrived later", content: "beta" }),
      entry({ id: "new-2", namespace: "gone", summary: "gamma too", content: "x" }),
    ];
    right(await other.write(added)());
    const rewritten = { ...corpus[1]!, summary: "gamma rewritten elsewhere" };
    right(await other.write([rewritten])());
    right(await other.deleteNamespace("gone")());
    const mine = entry({ id: "mine", namespace: "kept", summary: "gamma written here", content: "beta beta" });
    right(await reader.write([mine])());
    const now = [...corpus.filter((e) => e.namespace !== "gone" && e.id !== "e1"), rewritten, added[0]!, mine];
    expectReferenceTopK(right(await pending), now, "gamma alpha beta", { k: 100 }, "the loading search");
    for (const query of ["gamma", "alpha beta", "file3 py", "note"]) {
      expectReferenceTopK(right(await reader.search(query, { k: 100 })()), now, query, { k: 100 }, `after: ${query}`);
    }
    expect(
      right(await reader.search("gamma", { k: 100 })())
        .map((h) => h.id)
        .sort(),
    ).toEqual(["e1", "mine", "new-1"]);
    right(await other.close()());
    right(await reader.close()());
  });

  it("concurrent first searches share one load", async () => {
    const index = right(await openSqliteIndex({ path: await filled() })());
    const [a, b] = await Promise.all([index.search("alpha", { k: 20 })(), index.search("file7 py", { k: 20 })()]);
    expectReferenceTopK(right(a), corpus, "alpha", { k: 20 }, "a");
    expectReferenceTopK(right(b), corpus, "file7 py", { k: 20 }, "b");
    right(await index.close()());
  });

  it("closing the index while it loads ends the search with IndexClosed, and later calls too", async () => {
    const index = right(await openSqliteIndex({ path: await filled() })());
    const pending = index.search("alpha", { k: 5 })();
    await nextTurn();
    right(await index.close()());
    expect(left(await pending)).toEqual({ _tag: "IndexClosed", backend: "sqlite" });
    expect(left(await index.search("alpha")())).toEqual({ _tag: "IndexClosed", backend: "sqlite" });
  });
});

/** The page cache bytes of `index`'s connection at each event-loop turn while `work` is pending, and after. */
async function pageCacheDuring<A>(
  index: object,
  work: Promise<A>,
): Promise<{ readonly value: A; readonly seen: ReadonlySet<number | undefined>; readonly after: number | undefined }> {
  const seen = new Set<number | undefined>();
  let done = false;
  const spin = (): void => {
    if (done) return;
    seen.add(postingsCacheStats(index)?.pageCacheBytes);
    setImmediate(spin);
  };
  setImmediate(spin);
  const value = await work;
  done = true;
  return { value, seen, after: postingsCacheStats(index)?.pageCacheBytes };
}

describe("sqlite: a load reads under a small page cache", () => {
  const CAP = 256 * 1024;

  it("caps the connection's page cache while a namespace or the whole index loads, and gives it back after", async () => {
    const index = right(await openSqliteIndex({ path: await filled() })());
    const own = postingsCacheStats(index)?.pageCacheBytes;
    expect(own).toBeGreaterThan(CAP); // better-sqlite3's default, 16 MiB
    for (const scope of [{ namespace: "kept" }, {}]) {
      const { value, seen, after } = await pageCacheDuring(index, index.search("alpha beta", { k: 5, ...scope })());
      expect(right(value)).toHaveLength(5);
      expect(seen).toContain(CAP);
      expect(after).toBe(own);
    }
    // Loaded: the next searches read nothing and leave the setting alone.
    const { seen } = await pageCacheDuring(index, index.search("beta", { k: 5, namespace: "kept" })());
    expect([...seen].every((b) => b === own)).toBe(true);
    right(await index.close()());
  });

  it("keeps the cap until the last of concurrent loads ends, and writes meanwhile still commit", async () => {
    const index = right(await openSqliteIndex({ path: await filled() })());
    const own = postingsCacheStats(index)?.pageCacheBytes;
    // "kept" holds twice the rows of "gone": its load takes more slices and ends last.
    const longer = index.search("alpha", { k: 3, namespace: "kept" })();
    const shorter = index.search("alpha", { k: 3, namespace: "gone" })();
    await nextTurn();
    expect(postingsCacheStats(index)?.pageCacheBytes).toBe(CAP);
    right(await index.write([entry({ id: "mid-load", namespace: "kept", summary: "alpha zeta", content: "z" })])());
    expect(right(await shorter)).toHaveLength(3);
    expect(postingsCacheStats(index)?.pageCacheBytes).toBe(CAP);
    const { value, after } = await pageCacheDuring(index, longer);
    expect(right(value)).toHaveLength(3);
    expect(after).toBe(own);
    expect(right(await index.search("zeta", { k: 3, namespace: "kept" })()).map((h) => h.id)).toEqual(["mid-load"]);
    right(await index.close()());
  });

  it("closing the index mid-load ends the load with IndexClosed and nothing throws", async () => {
    const index = right(await openSqliteIndex({ path: await filled() })());
    const pending = index.search("alpha", { k: 3 })();
    await nextTurn();
    expect(postingsCacheStats(index)?.pageCacheBytes).toBe(CAP);
    right(await index.close()());
    expect(left(await pending)._tag).toBe("IndexClosed");
    expect(postingsCacheStats(index)?.pageCacheBytes).toBeUndefined();
  });
});
