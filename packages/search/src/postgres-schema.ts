/**
 * Schema of the PostgreSQL index, its version (kept in the table's comment,
 * `cc-segment-index schema N`) and the migrations run when an older table is opened.
 *
 * - version 0 (no comment): strings stored verbatim; NUL and lone surrogates were rejected.
 * - version 1: text columns hold `encodeText(value)` and metadata that holds NUL or a lone
 *   surrogate is a jsonb string `U+FFFF + JSON` (see `search/lossless`). The migration re-encodes
 *   the (rare) version-0 values that start with U+FFFF.
 * - version 2: ranking moved into the process (`search/ranking`, terms loaded from `tsv`): each
 *   row has the generation that last wrote it (`gen`), `<table>_gen` holds the counter (its row
 *   lock orders writers, so generations commit in order) and `<table>_log` the namespace
 *   deletions, so a process brings its postings cache up to date with what others wrote. The
 *   GIN index, which nothing reads any more, is dropped.
 * - version 3: `<table>_identity` holds a random id created with the table, so a postings
 *   snapshot (`search/ranking/snapshot`) names the index it came from and a snapshot of another
 *   or a recreated table is refused.
 *
 * Everything runs in one transaction under an advisory lock, so processes racing to create or
 * migrate the table all succeed and the work is done once.
 *
 * @module search/postgres-schema
 */
import { ESCAPED, encodeText } from "./lossless.js";
import type { SqlRunner } from "./sql.js";

/** Schema version this library writes; a table with a newer one is refused. */
export const POSTGRES_SCHEMA_VERSION = 3;

const COMMENT = /^cc-segment-index schema (\d+)$/;
const TEXT_COLUMNS = ["namespace", "id", "kind", "summary", "content"] as const;

/** The DDL of one index table and its indexes as versions 0 and 1 wrote them (what the migrations start from). */
export function createStatements(table: string): readonly string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      namespace text NOT NULL, id text NOT NULL, kind text NOT NULL,
      summary text NOT NULL, content text NOT NULL,
      token_cost double precision NOT NULL, created_at double precision NOT NULL, evicted_at double precision NOT NULL,
      metadata jsonb NOT NULL, tsv tsvector NOT NULL,
      PRIMARY KEY (namespace, id))`,
    `CREATE INDEX IF NOT EXISTS ${table}_tsv ON ${table} USING gin (tsv)`,
    `CREATE INDEX IF NOT EXISTS ${table}_kind ON ${table} (namespace, kind)`,
  ];
}

/** What version 2 adds to a version-1 table (idempotent): generations, counter, deletion log; the GIN index goes. */
export function generationStatements(table: string): readonly string[] {
  return [
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS gen bigint NOT NULL DEFAULT 0`,
    `CREATE INDEX IF NOT EXISTS ${table}_by_gen ON ${table} (gen)`,
    `CREATE TABLE IF NOT EXISTS ${table}_gen (one int PRIMARY KEY CHECK (one = 0), gen bigint NOT NULL)`,
    `INSERT INTO ${table}_gen (one, gen) VALUES (0, 0) ON CONFLICT DO NOTHING`,
    `CREATE TABLE IF NOT EXISTS ${table}_log (gen bigint PRIMARY KEY, namespace text NOT NULL)`,
    `DROP INDEX IF EXISTS ${table}_tsv`,
  ];
}

/** What version 3 adds (idempotent): the table's identity, a random id created once. */
export function identityStatements(table: string): readonly string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${table}_identity (one int PRIMARY KEY CHECK (one = 0), id text NOT NULL)`,
    `INSERT INTO ${table}_identity (one, id) VALUES (0, md5(random()::text || clock_timestamp()::text || pg_backend_pid()::text)) ON CONFLICT DO NOTHING`,
  ];
}

/** A stable 31-bit key for the advisory lock that serialises schema work on one table. */
function lockKey(table: string): number {
  let h = 0;
  for (const ch of `cc:${table}`) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

type TextRow = Record<(typeof TEXT_COLUMNS)[number], string>;

/** Version 0 → 1: re-encode the stored values that start with U+FFFF. */
async function migrateToV1(tx: SqlRunner, table: string): Promise<void> {
  const led = TEXT_COLUMNS.map((c) => `left(${c}, 1) = $1`).join(" OR ");
  const { rows } = await tx.query<TextRow>(`SELECT ${TEXT_COLUMNS.join(", ")} FROM ${table} WHERE ${led}`, [ESCAPED]);
  for (const row of rows) {
    await tx.query(
      `UPDATE ${table} SET ${TEXT_COLUMNS.map((c, i) => `${c} = $${i + 1}`).join(", ")} WHERE namespace = $6 AND id = $7`,
      [...TEXT_COLUMNS.map((c) => encodeText(row[c])), row.namespace, row.id],
    );
  }
}

/**
 * Creates the table and its indexes when missing, or migrates an older one to
 * {@link POSTGRES_SCHEMA_VERSION}. Run inside a transaction. Rejects when the table was written
 * by a newer schema version.
 */
export async function prepareSchema(tx: SqlRunner, table: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock($1)", [lockKey(table)]);
  const { rows } = await tx.query<{ present: boolean; comment: string | null }>(
    `SELECT to_regclass($1) IS NOT NULL AS present, obj_description(to_regclass($1), 'pg_class') AS comment`,
    [table],
  );
  const present = rows[0]?.present === true;
  const version = present ? Number(COMMENT.exec(rows[0]?.comment ?? "")?.[1] ?? 0) : POSTGRES_SCHEMA_VERSION;
  if (version > POSTGRES_SCHEMA_VERSION) {
    throw new Error(
      `table ${table} has index schema version ${version}; this library reads versions up to ${POSTGRES_SCHEMA_VERSION}`,
    );
  }
  if (present && version >= 3) return;
  if (!present || version < 2) {
    for (const statement of createStatements(table)) await tx.query(statement);
    if (present && version < 1) await migrateToV1(tx, table);
    for (const statement of generationStatements(table)) await tx.query(statement);
  }
  for (const statement of identityStatements(table)) await tx.query(statement);
  if (!present || version !== POSTGRES_SCHEMA_VERSION) {
    await tx.query(`COMMENT ON TABLE ${table} IS 'cc-segment-index schema ${POSTGRES_SCHEMA_VERSION}'`);
  }
}
