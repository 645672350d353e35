// Files and tables written by schema version 0 (strings stored verbatim, no version mark) open,
// migrate once, and return exactly what was written; a newer schema version is refused.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entry } from "../src/contract.js";
import { POSTGRES_SCHEMA_VERSION, createStatements as pgStatements } from "../src/postgres-schema.js";
import { openPostgresIndex } from "../src/postgres.js";
import { indexedText } from "../src/query.js";
import { SQLITE_SCHEMA_VERSION, legacyStatements as sqliteStatements } from "../src/sqlite-schema.js";
import { openSqliteIndex } from "../src/sqlite.js";
import { left, right } from "./support/contract.js";
import { testDatabase } from "./support/postgres.js";
import type { TestDatabase } from "./support/postgres.js";

const dir = mkdtempSync(join(tmpdir(), "cc-migrate-"));
let pgdb: TestDatabase;
beforeAll(async () => {
  pgdb = await testDatabase();
});
afterAll(async () => {
  await pgdb.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** What version 0 could hold: plain strings, one of them led by U+FFFF (now the escape mark). */
const v0 = [
  entry({
    id: "plain",
    namespace: "s",
    kind: "file",
    summary: "read src/app.py",
    content: "def main(): pass",
    metadata: { turn: 3 },
  }),
  entry({
    id: "\uFFFFled",
    namespace: "s",
    kind: "\uFFFFkind",
    summary: "\uFFFF odd summary",
    content: '\uFFFF"quoted"',
    metadata: {},
  }),
];

function writeV0Sqlite(path: string, tables: readonly string[]): void {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  for (const table of tables) {
    for (const s of sqliteStatements(table)) db.exec(s);
    const insert = db.prepare(
      `INSERT INTO ${table} (namespace, id, kind, summary, content, token_cost, created_at, evicted_at, metadata) VALUES (?, ?, ?, ?, ?, 0, 0, 0, ?)`,
    );
    const fts = db.prepare(`INSERT INTO ${table}_fts (rowid, summary, content) VALUES (?, ?, ?)`);
    for (const e of v0) {
      const rid = insert.run(
        e.namespace,
        e.id,
        e.kind,
        e.summary,
        e.content,
        JSON.stringify(e.metadata),
      ).lastInsertRowid;
      fts.run(rid, indexedText(e.summary), indexedText(e.content));
    }
  }
  expect(db.pragma("user_version", { simple: true })).toBe(0);
  db.close();
}

describe("SQLite schema migration", () => {
  it("opens a version-0 file, migrates every index table in it once, and returns the originals", async () => {
    const path = join(dir, "v0.db");
    writeV0Sqlite(path, ["cc_segments", "other_journal"]);
    for (const table of ["cc_segments", "other_journal", "cc_segments"]) {
      const index = right(await openSqliteIndex({ path, table })());
      for (const e of v0) expect(right(await index.expand(e.id, "s")())).toEqual(e);
      expect(right(await index.search("odd")()).map((h) => h.id)).toEqual(["\uFFFFled"]);
      expect(right(await index.search("anything", { kinds: ["\uFFFFkind"] })())).toEqual([]);
      expect(right(await index.search("summary", { kinds: ["\uFFFFkind"] })()).map((h) => h.id)).toEqual(["\uFFFFled"]);
      right(await index.close()());
    }
    const db = new Database(path, { readonly: true });
    expect(db.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    db.close();
  });

  it("refuses a file written by a newer schema version, and leaves it untouched", async () => {
    const path = join(dir, "future.db");
    writeV0Sqlite(path, ["cc_segments"]);
    const db = new Database(path);
    db.pragma("user_version = 99");
    db.close();
    const err = left(await openSqliteIndex({ path })());
    expect(err).toMatchObject({ _tag: "StorageError", operation: "open" });
    expect(JSON.stringify(err)).toContain("schema version 99");
    const after = new Database(path, { readonly: true });
    expect(after.pragma("user_version", { simple: true })).toBe(99);
    expect(after.prepare("SELECT id FROM cc_segments ORDER BY rid").all()).toEqual(v0.map((e) => ({ id: e.id })));
    after.close();
  });
});

describe("PostgreSQL schema migration", () => {
  const writeV0 = async (table: string): Promise<void> => {
    const c = pgdb.client();
    for (const s of pgStatements(table)) await c.query(s);
    for (const e of v0) {
      await c.query(
        `INSERT INTO ${table} (namespace, id, kind, summary, content, token_cost, created_at, evicted_at, metadata, tsv)
         VALUES ($1, $2, $3, $4, $5, 0, 0, 0, $6::jsonb, to_tsvector('simple', $4 || ' ' || $5))`,
        [e.namespace, e.id, e.kind, e.summary, e.content, JSON.stringify(e.metadata)],
      );
    }
  };

  it("opens a version-0 table, migrates it once, and returns the originals", async () => {
    await writeV0("legacy");
    for (let round = 0; round < 2; round++) {
      const index = right(await openPostgresIndex({ connection: pgdb.client(), table: "legacy" })());
      for (const e of v0) expect(right(await index.expand(e.id, "s")())).toEqual(e);
      expect(right(await index.search("summary", { kinds: ["\uFFFFkind"] })()).map((h) => h.id)).toEqual(["\uFFFFled"]);
      right(await index.close()());
    }
    const { rows } = await pgdb
      .client()
      .query<{ c: string }>(`SELECT obj_description('legacy'::regclass, 'pg_class') AS c`);
    expect(rows[0]?.c).toBe(`cc-segment-index schema ${POSTGRES_SCHEMA_VERSION}`);
  });

  it("refuses a table marked with a newer schema version", async () => {
    await writeV0("future");
    await pgdb.client().query(`COMMENT ON TABLE future IS 'cc-segment-index schema 7'`);
    const err = left(await openPostgresIndex({ connection: pgdb.client(), table: "future" })());
    expect(err).toMatchObject({ _tag: "StorageError", operation: "open" });
    expect(JSON.stringify(err)).toContain("schema version 7");
  });
});
