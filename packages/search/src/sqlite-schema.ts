/**
 * Schema of the SQLite index, its version (`PRAGMA user_version`) and the migrations that bring
 * an older file up to date when it is opened.
 *
 * - version 0 (no `user_version`): strings stored verbatim; NUL and lone surrogates were rejected.
 * - version 1: every string column holds `encodeText(value)` (see `search/lossless`), so any
 *   JavaScript string round-trips. A version-0 value that starts with U+FFFF would now read as
 *   escaped: the migration re-encodes exactly those values, in every index table of the file.
 * - version 2: ranking moved into the process (`search/ranking`): the FTS5 twin is gone; each row
 *   keeps its indexed terms (`terms`: summary terms, a tab, content terms, space-separated) and
 *   the generation that last wrote it (`gen`); `<table>_gen` holds the index's generation
 *   counter and `<table>_log` the namespace deletions, so a process can bring its postings
 *   cache up to date with what other connections wrote. The migration computes the terms of
 *   every row and drops the FTS5 table.
 * - version 3: `<table>_identity` holds a random id created with the table, so a postings
 *   snapshot (`search/ranking/snapshot`) names the index it came from and a snapshot of another
 *   or a recreated index is refused. The migration gives every index table of the file its id.
 *
 * @module search/sqlite-schema
 */
import { randomBytes } from "node:crypto";
import { ESCAPED, decodeText, encodeText } from "./lossless.js";
import { indexedTerms } from "./query.js";

/**
 * A prepared statement, as far as the schema code uses it. Structural, so that the optional
 * driver's types never appear in this package's declarations (a better-sqlite3 `Statement` fits).
 */
export interface SchemaStatement<P extends unknown[], R> {
  /** Runs the query and returns every row. */
  all(...params: P): R[];
  /** Runs the statement. */
  run(...params: P): unknown;
}

/**
 * The connection the schema code needs: a better-sqlite3 `Database` fits. Structural, so that a
 * consumer without better-sqlite3 (or its types) can type-check this package's declarations.
 */
export interface SchemaDatabase {
  /** Prepares `sql`. */
  prepare<P extends unknown[] | object = unknown[], R = unknown>(
    sql: string,
  ): P extends unknown[] ? SchemaStatement<P, R> : SchemaStatement<[P], R>;
  /** Runs `sql` (one or more statements, no parameters). */
  exec(sql: string): unknown;
  /** Reads or sets a pragma. */
  pragma(source: string, options?: { readonly simple?: boolean }): unknown;
  /** Wraps `fn` in a transaction whose `immediate` variant runs it under `BEGIN IMMEDIATE`. */
  transaction(fn: () => void): { immediate(): void };
}

/** Schema version this library writes; a file with a newer one is refused. */
export const SQLITE_SCHEMA_VERSION = 3;

const TEXT_COLUMNS = ["namespace", "id", "kind", "summary", "content"] as const;

/**
 * The DDL of one index table as schema versions 0 and 1 wrote it (entries and a contentless
 * FTS5 twin `<table>_fts`): what the migrations start from.
 */
export function legacyStatements(table: string): readonly string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      rid INTEGER PRIMARY KEY,
      namespace TEXT NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL,
      summary TEXT NOT NULL, content TEXT NOT NULL,
      token_cost REAL NOT NULL, created_at REAL NOT NULL, evicted_at REAL NOT NULL,
      metadata TEXT NOT NULL,
      UNIQUE (namespace, id))`,
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${table}_fts USING fts5(summary, content, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`,
  ];
}

/** The DDL of one index table (entries with their terms and generation), its counter and its deletion log. */
export function createStatements(table: string): readonly string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      rid INTEGER PRIMARY KEY,
      namespace TEXT NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL,
      summary TEXT NOT NULL, content TEXT NOT NULL,
      token_cost REAL NOT NULL, created_at REAL NOT NULL, evicted_at REAL NOT NULL,
      metadata TEXT NOT NULL, terms TEXT NOT NULL, gen INTEGER NOT NULL,
      UNIQUE (namespace, id))`,
    ...generationStatements(table),
    ...identityStatements(table),
  ];
}

/** The table's identity: one row holding a random id, created once (see {@link SQLITE_SCHEMA_VERSION} 3). */
function identityStatements(table: string): readonly string[] {
  const q = `"${`${table}_identity`.replaceAll('"', '""')}"`;
  return [
    `CREATE TABLE IF NOT EXISTS ${q} (one INTEGER PRIMARY KEY CHECK (one = 0), id TEXT NOT NULL)`,
    `INSERT OR IGNORE INTO ${q} (one, id) VALUES (0, '${randomBytes(16).toString("hex")}')`,
  ];
}

/** Version 2 → 3: an identity for every index table of the file (a table with a generation counter). */
function migrateToV3(db: SchemaDatabase): void {
  const names = db
    .prepare<[], { name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name || '_gen' IN (SELECT name FROM sqlite_master WHERE type = 'table')`,
    )
    .all();
  for (const { name } of names) for (const statement of identityStatements(name)) db.exec(statement);
}

/** The generation counter, the namespace-deletion log and the index on `gen`. */
function generationStatements(table: string): readonly string[] {
  const q = (name: string): string => `"${name.replaceAll('"', '""')}"`;
  return [
    `CREATE INDEX IF NOT EXISTS ${q(`${table}_by_gen`)} ON ${q(table)} (gen)`,
    `CREATE TABLE IF NOT EXISTS ${q(`${table}_gen`)} (one INTEGER PRIMARY KEY CHECK (one = 0), gen INTEGER NOT NULL)`,
    `INSERT OR IGNORE INTO ${q(`${table}_gen`)} (one, gen) VALUES (0, 0)`,
    `CREATE TABLE IF NOT EXISTS ${q(`${table}_log`)} (gen INTEGER PRIMARY KEY, namespace TEXT NOT NULL)`,
  ];
}

/** The stored `terms` of an entry: its summary terms, a tab, its content terms (space-separated). */
export function termsColumn(summary: readonly string[], content: readonly string[]): string {
  return `${summary.join(" ")}\t${content.join(" ")}`;
}

/** Names of the index tables in the file: a table with the entry columns and a `<name>_fts` twin. */
function indexTables(db: SchemaDatabase): string[] {
  const names = db
    .prepare<[], { name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name || '_fts' IN (SELECT name FROM sqlite_master WHERE type = 'table')`,
    )
    .all()
    .map((r) => r.name);
  return names.filter((name) => {
    const columns = new Set(
      db
        .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${name.replaceAll("'", "''")}')`)
        .all()
        .map((c) => c.name),
    );
    return ["rid", ...TEXT_COLUMNS, "metadata"].every((c) => columns.has(c));
  });
}

/** Version 0 → 1: re-encode the (rare) stored values that start with U+FFFF. */
function migrateToV1(db: SchemaDatabase): void {
  for (const table of indexTables(db)) {
    const quoted = `"${table.replaceAll('"', '""')}"`;
    const led = TEXT_COLUMNS.map((c) => `substr(${c}, 1, 1) = ?`).join(" OR ");
    const rows = db
      .prepare<string[], Record<(typeof TEXT_COLUMNS)[number], string> & { rid: number }>(
        `SELECT rid, ${TEXT_COLUMNS.join(", ")} FROM ${quoted} WHERE ${led}`,
      )
      .all(...TEXT_COLUMNS.map(() => ESCAPED));
    const update = db.prepare(
      `UPDATE ${quoted} SET ${TEXT_COLUMNS.map((c) => `${c} = @${c}`).join(", ")} WHERE rid = @rid`,
    );
    for (const row of rows) {
      const encoded = Object.fromEntries(TEXT_COLUMNS.map((c) => [c, encodeText(row[c])]));
      update.run({ ...encoded, rid: row.rid });
    }
  }
}

/** Version 1 → 2: terms and generation columns, counter and log; the FTS5 twin dropped. */
function migrateToV2(db: SchemaDatabase): void {
  for (const table of indexTables(db)) {
    const quoted = `"${table.replaceAll('"', '""')}"`;
    db.exec(`ALTER TABLE ${quoted} ADD COLUMN terms TEXT NOT NULL DEFAULT ''`);
    db.exec(`ALTER TABLE ${quoted} ADD COLUMN gen INTEGER NOT NULL DEFAULT 0`);
    const rows = db
      .prepare<[], { rid: number; summary: string; content: string }>(`SELECT rid, summary, content FROM ${quoted}`)
      .all();
    const update = db.prepare(`UPDATE ${quoted} SET terms = ? WHERE rid = ?`);
    for (const r of rows)
      update.run(termsColumn(indexedTerms(decodeText(r.summary)), indexedTerms(decodeText(r.content))), r.rid);
    db.exec(`DROP TABLE "${`${table}_fts`.replaceAll('"', '""')}"`);
    for (const statement of generationStatements(table)) db.exec(statement);
  }
}

/**
 * Creates `table` when missing and migrates the file to {@link SQLITE_SCHEMA_VERSION}, in one
 * immediate transaction (processes opening the same file at once migrate it once).
 * Throws when the file was written by a newer schema version.
 */
export function prepareSchema(db: SchemaDatabase, table: string): void {
  db.transaction(() => {
    const version = Number(db.pragma("user_version", { simple: true }));
    if (version > SQLITE_SCHEMA_VERSION) {
      throw new Error(
        `the file has index schema version ${version}; this library reads versions up to ${SQLITE_SCHEMA_VERSION}`,
      );
    }
    if (version < 1) migrateToV1(db);
    if (version < 2) migrateToV2(db);
    if (version < 3) migrateToV3(db);
    for (const statement of createStatements(table)) db.exec(statement);
    if (version !== SQLITE_SCHEMA_VERSION) db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
  }).immediate();
}
