// The postings cache follows writes made elsewhere: another connection, another process (SQLite)
// or another client (PostgreSQL) writes, rewrites and deletes; the next search of an index that
// had already loaded its cache sees exactly the new state (checked against the reference BM25).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entry, type IndexEntry, type SegmentIndex } from "../src/contract.js";
import { openPostgresIndex } from "../src/postgres.js";
import { openSqliteIndex } from "../src/sqlite.js";
import { right } from "./support/contract.js";
import { testDatabase, type TestDatabase } from "./support/postgres.js";
import { expectReferenceTopK } from "./support/reference-bm25.js";

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "cc-stale-"));
let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

const first: IndexEntry[] = Array.from({ length: 40 }, (_, i) =>
  entry({
    id: `e${i}`,
    namespace: i % 4 === 0 ? "gone" : "kept",
    summary: `alpha note ${i}`,
    content: `beta output ${i % 5} file${i}.py`,
  }),
);

/** Loads `reader`'s cache, changes the data through `writer`, and checks what `reader` finds next. */
async function followsOtherWriter(
  reader: SegmentIndex,
  write: (batch: readonly IndexEntry[]) => Promise<void>,
  deleteNs: (ns: string) => Promise<void>,
): Promise<void> {
  right(await reader.write(first)());
  expectReferenceTopK(right(await reader.search("alpha beta", { k: 50 })()), first, "alpha beta", { k: 50 }, "before");
  // Elsewhere: new entries, a rewritten summary, a deleted namespace.
  const added = [
    entry({ id: "new-1", namespace: "kept", summary: "gamma arrived later", content: "beta" }),
    entry({ id: "new-2", namespace: "gone", summary: "gamma too", content: "x" }),
  ];
  await write(added);
  const rewritten = { ...first[1]!, summary: "gamma rewritten elsewhere" };
  await write([rewritten]);
  await deleteNs("gone");
  const now = [...first.filter((e) => e.namespace !== "gone" && e.id !== "e1"), rewritten, added[0]!];
  for (const query of ["gamma", "alpha beta", "py", "gamma alpha note"]) {
    expectReferenceTopK(right(await reader.search(query, { k: 50 })()), now, query, { k: 50 }, `after: ${query}`);
  }
  expect(
    right(await reader.search("gamma", { k: 50 })())
      .map((h) => h.id)
      .sort(),
  ).toEqual(["e1", "new-1"]);
}

function child(path: string, name: string, count: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=development",
        join(here, "./support/sqlite-writer.ts"),
        path,
        name,
        String(count),
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    p.on("error", reject);
    p.on("exit", (code) => resolve(code ?? -1));
  });
}

describe("the postings cache follows other writers", () => {
  it("sqlite: a second connection on the same file", async () => {
    const path = join(dir, "two.db");
    const reader = right(await openSqliteIndex({ path })());
    const other = right(await openSqliteIndex({ path })());
    await followsOtherWriter(
      reader,
      async (batch) => void right(await other.write(batch)()),
      async (ns) => void right(await other.deleteNamespace(ns)()),
    );
    right(await other.close()());
    right(await reader.close()());
  });

  it("sqlite: another process", async () => {
    const path = join(dir, "process.db");
    const reader = right(await openSqliteIndex({ path })());
    right(await reader.write([entry({ id: "mine", namespace: "p", summary: "written here", content: "payload" })])());
    expect(right(await reader.search("payload", { k: 100 })()).map((h) => h.id)).toEqual(["mine"]);
    expect(await child(path, "p", 30)).toBe(0);
    const hits = right(await reader.search("payload", { k: 100 })());
    expect(hits).toHaveLength(31);
    expect(right(await reader.search("number", { k: 100, namespace: "p" })())).toHaveLength(30);
    right(await reader.close()());
  });

  it("postgres: a second client on the same table", async () => {
    const reader = right(await openPostgresIndex({ connection: db.client(), table: "stale" })());
    const other = right(await openPostgresIndex({ connection: db.client(), table: "stale" })());
    await followsOtherWriter(
      reader,
      async (batch) => void right(await other.write(batch)()),
      async (ns) => void right(await other.deleteNamespace(ns)()),
    );
    right(await other.close()());
    right(await reader.close()());
  });
});
