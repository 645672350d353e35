/**
 * Snapshot stores kept in the index's own database (option `snapshots: { store: "database" }`),
 * so that every worker of a fleet, on any host, restores its scope from the snapshot another
 * worker wrote, without a directory shared between hosts.
 *
 * Two tables beside the index table: `<table>_snapshots` (one head row per snapshot name: the
 * writer id of its current version, its length and its number of parts) and
 * `<table>_snapshot_parts` (the bytes, in parts of {@link PART_BYTES}, keyed by name, writer id
 * and part number). A write puts its parts under a fresh writer id (several small statements or
 * transactions, so no long lock is held and, on SQLite, the event loop is not blocked for a large
 * snapshot), then switches the head to them in one short transaction, which also deletes the
 * previous version's parts. A reader reads the head and its parts in one transaction (one
 * snapshot of the database), so it sees the old version or the new one, never a mix; a version
 * whose parts are missing or short is read short, and the decoder refuses it as truncated. Parts
 * of a writer that died before switching the head are never read (no head names them) and are
 * deleted by a later write of the same name once they are older than ten minutes (a live writer
 * of a large snapshot may still be adding parts before that).
 *
 * The bytes are those of the directory store (the same format, checksum and refusals apply: see
 * `search/snapshots`). Errors are `Left(SnapshotStoreError)`, never thrown.
 *
 * @module search/database-snapshots
 */
import { randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import * as E from "fp-ts/lib/Either.js";
import { withRetries } from "./postgres-client.js";
import { checkSnapshotName, snapshotFailure } from "./snapshot-store.js";
import type { ChunkObserver, SnapshotStore } from "./snapshot-store.js";
import type { SqlClient, SqlRunner } from "./sql.js";

/** Bytes per stored part. */
export const PART_BYTES = 1 << 20;
/** Parts written per statement (PostgreSQL) or transaction (SQLite). */
const WRITE_PARTS = 4;
/** Parts of a writer that never switched the head are a dead writer's after this long (seconds). */
const STALE_PARTS_S = 600;
const checkName = checkSnapshotName;

/**
 * Puts the pieces of a blob (parts in order, each read in one or more pieces) together, telling
 * `onChunk` of each; stops at a gap. A blob read in one piece is kept as it came (no copy).
 */
class Assembly {
  private buf: Buffer | undefined;
  private single: Uint8Array | undefined;
  off = 0;
  /** The part expected next, and the offset expected next within it. */
  private part = 0;
  private within = 0;
  ok = true;
  constructor(
    readonly total: number,
    readonly onChunk: ChunkObserver | undefined,
  ) {}
  /** Adds the piece of part `part` at `at` in it; false (and the blob cut here) when it does not follow. */
  add(part: number, at: number, bytes: Uint8Array): boolean {
    if (!this.ok || part !== this.part || at !== this.within || this.off + bytes.length > this.total) {
      this.ok = false;
      return false;
    }
    this.within += bytes.length;
    const start = this.off;
    this.off += bytes.length;
    let view: Uint8Array;
    if (start === 0 && bytes.length === this.total) view = this.single = bytes;
    else {
      this.buf ??= Buffer.allocUnsafeSlow(this.total);
      this.buf.set(bytes, start);
      view = this.buf.subarray(start, this.off);
    }
    this.onChunk?.(view, start, this.total);
    return true;
  }
  /**
   * Adds a piece that arrived as base64 text (decoded straight into the blob's buffer: no
   * intermediate bytes); `size` is the piece's length in bytes.
   */
  addBase64(part: number, at: number, text: string, size: number): boolean {
    if (!this.ok || part !== this.part || at !== this.within || this.off + size > this.total) {
      this.ok = false;
      return false;
    }
    this.buf ??= Buffer.allocUnsafeSlow(this.total);
    const start = this.off;
    if (this.buf.write(text, start, size, "base64") !== size) {
      this.ok = false;
      return false;
    }
    this.within += size;
    this.off += size;
    this.onChunk?.(this.buf.subarray(start, this.off), start, this.total);
    return true;
  }
  /** The current part is complete: the next piece starts the next part. */
  endPart(): void {
    this.part++;
    this.within = 0;
  }
  /** What was read: the whole blob, or its prefix up to the first missing or wrong piece (refused as truncated). */
  result(): Uint8Array {
    if (this.single !== undefined) return this.single;
    const buf = this.buf ?? Buffer.alloc(0);
    return this.off === this.total ? buf : buf.subarray(0, this.off);
  }
}

/**
 * Bytes fetched per statement when reading a blob of `total` bytes: a sixteenth of it, within
 * [32 KiB, 8 MiB]. A piece arrives as base64 text (a third more than its bytes) and is decoded
 * straight into the blob's buffer, so what one statement leaves behind (the protocol message and
 * the text) is small beside the blob itself — for a namespace's snapshot, small enough for V8's
 * young generation — while a large blob is still read in few round trips.
 */
export function readPieceBytes(total: number): number {
  return Math.min(8 << 20, Math.max(32 << 10, Math.ceil(total / 16)));
}

/**
 * Creates a PostgreSQL snapshot store's tables when missing. Run inside the schema transaction
 * (under its advisory lock, so racing processes all succeed); when they exist this is one catalog
 * lookup (no DDL, so no lock on a table another process is reading).
 */
export async function preparePostgresSnapshotTables(tx: SqlRunner, table: string): Promise<void> {
  const { rows } = await tx.query<{ present: boolean }>(
    `SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL AS present`,
    [`${table}_snapshots`, `${table}_snapshot_parts`],
  );
  if (rows[0]?.present === true) return;
  await tx.query(`CREATE TABLE IF NOT EXISTS ${table}_snapshots (name text PRIMARY KEY, writer text NOT NULL, total bigint NOT NULL, parts int NOT NULL,
      written_at timestamptz NOT NULL DEFAULT now())`);
  await tx.query(`CREATE TABLE IF NOT EXISTS ${table}_snapshot_parts (name text NOT NULL, writer text NOT NULL, part int NOT NULL, bytes bytea NOT NULL,
      written_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (name, writer, part))`);
  // Snapshots are compact binary: PostgreSQL's compression would cost time and gain little.
  await tx.query(`ALTER TABLE ${table}_snapshot_parts ALTER COLUMN bytes SET STORAGE EXTERNAL`);
}

/**
 * The snapshot store in the PostgreSQL database of the index on `table` (its tables are created
 * by {@link preparePostgresSnapshotTables} when the index is opened with `store: "database"`); a
 * write puts its bytes in parts of `partBytes`, any size a reader accepts).
 *
 * @example
 * const store = postgresSnapshotStore(client, "cc_segments");
 * await store.write("cc_segments.ab12.ccsnap", new Uint8Array([1, 2, 3]));
 */
export function postgresSnapshotStore(client: SqlClient, table: string, partBytes = PART_BYTES): SnapshotStore {
  const heads = `${table}_snapshots`;
  const parts = `${table}_snapshot_parts`;
  return {
    read: async (name, onChunk) => {
      try {
        checkName(name);
        const read = async (tx: SqlRunner): Promise<Uint8Array | undefined> => {
          await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
          const head = (
            await tx.query<{ writer: string; total: string | number; parts: number }>(
              `SELECT writer, total, parts FROM ${heads} WHERE name = $1`,
              [name],
            )
          ).rows[0];
          if (head === undefined) return undefined;
          const total = Number(head.total);
          const got = new Assembly(total, onChunk);
          const piece = readPieceBytes(total);
          for (let p = 0; p < head.parts && got.ok; p++) {
            for (let at = 0; ; at += piece) {
              // base64 without line breaks: a third more than the bytes (bytea's hex text is twice).
              const row = (
                await tx.query<{ b64: string; len: number }>(
                  `SELECT translate(encode(substring(bytes FROM $4 FOR $5), 'base64'), E'\\n', '') AS b64, octet_length(bytes) AS len FROM ${parts} WHERE name = $1 AND writer = $2 AND part = $3`,
                  [name, head.writer, p, at + 1, piece],
                )
              ).rows[0];
              if (
                row === undefined ||
                !got.addBase64(p, at, row.b64, Math.max(0, Math.min(piece, Number(row.len) - at)))
              )
                break;
              if (at + piece >= Number(row.len)) {
                got.endPart();
                break;
              }
            }
          }
          return got.result();
        };
        return E.right(await withRetries(() => client.transaction(read), true));
      } catch (e) {
        return E.left(snapshotFailure("read", name, e));
      }
    },
    write: async (name, bytes) => {
      const writer = randomBytes(8).toString("hex");
      let wrote = false;
      try {
        checkName(name);
        const count = Math.ceil(bytes.length / partBytes);
        const part = (i: number): Buffer =>
          Buffer.from(
            bytes.buffer,
            bytes.byteOffset + i * partBytes,
            Math.min(partBytes, bytes.length - i * partBytes),
          );
        for (let i = 0; i < count; i += WRITE_PARTS) {
          const ids = Array.from({ length: Math.min(WRITE_PARTS, count - i) }, (_, j) => i + j);
          const values = ids.map((_, j) => `($1, $2, $${j * 2 + 3}, $${j * 2 + 4})`).join(", ");
          wrote = true;
          await client.query(`INSERT INTO ${parts} (name, writer, part, bytes) VALUES ${values}`, [
            name,
            writer,
            ...ids.flatMap((id) => [id, part(id)]),
          ]);
        }
        // The switch: the head names this version; the previous version's parts and a dead writer's go.
        await withRetries(
          () =>
            client.transaction(async (tx) => {
              const old =
                (await tx.query<{ writer: string }>(`SELECT writer FROM ${heads} WHERE name = $1 FOR UPDATE`, [name]))
                  .rows[0]?.writer ?? null;
              await tx.query(
                `INSERT INTO ${heads} (name, writer, total, parts) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (name) DO UPDATE SET writer = EXCLUDED.writer, total = EXCLUDED.total, parts = EXCLUDED.parts, written_at = now()`,
                [name, writer, bytes.length, count],
              );
              await tx.query(
                `DELETE FROM ${parts} WHERE name = $1 AND writer <> $2 AND (writer = $3 OR written_at < now() - make_interval(secs => $4))`,
                [name, writer, old, STALE_PARTS_S],
              );
            }),
          true,
        );
        return E.right(undefined);
      } catch (e) {
        if (wrote)
          await client
            .query(`DELETE FROM ${parts} WHERE name = $1 AND writer = $2`, [name, writer])
            .catch(() => undefined);
        return E.left(snapshotFailure("write", name, e));
      }
    },
    remove: async (name) => {
      try {
        checkName(name);
        await withRetries(
          () =>
            client.transaction(async (tx) => {
              await tx.query(`DELETE FROM ${heads} WHERE name = $1`, [name]);
              await tx.query(`DELETE FROM ${parts} WHERE name = $1`, [name]);
            }),
          true,
        );
        return E.right(undefined);
      } catch (e) {
        return E.left(snapshotFailure("remove", name, e));
      }
    },
  };
}

/** The statements that create a SQLite snapshot store's tables (idempotent). */
export function sqliteSnapshotStatements(table: string): readonly string[] {
  return [
    `CREATE TABLE IF NOT EXISTS "${table}_snapshots" (name TEXT PRIMARY KEY, writer TEXT NOT NULL, total INTEGER NOT NULL, parts INTEGER NOT NULL, written_at REAL NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS "${table}_snapshot_parts" (name TEXT NOT NULL, writer TEXT NOT NULL, part INTEGER NOT NULL, bytes BLOB NOT NULL, written_at REAL NOT NULL,
      PRIMARY KEY (name, writer, part)) WITHOUT ROWID`,
  ];
}

/** One turn of the event loop. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A better-sqlite3 `Database`, named structurally so that the package's declarations import no
 * driver type (the driver is an optional peer).
 */
export interface SqliteConnection {
  readonly exec: (source: string) => unknown;
  readonly prepare: (source: string) => unknown;
  readonly transaction: (fn: never) => unknown;
}

/**
 * The snapshot store in the SQLite database file of the index on `table` (creates its tables when
 * missing). Reads run in one read transaction; a write adds its parts a few at a time (a short
 * write transaction each, the event loop served between them), then switches the head.
 *
 * @example
 * import Database from "better-sqlite3";
 * const store = sqliteSnapshotStore(new Database("agent-journal.db"), "cc_segments");
 */
export function sqliteSnapshotStore(
  connection: SqliteConnection,
  table: string,
  partBytes = PART_BYTES,
): SnapshotStore {
  // The declaration names no driver type (better-sqlite3 is an optional peer of the package); the
  // connection is a better-sqlite3 Database, which is all this module is ever given.
  const db = connection as unknown as Database.Database;
  for (const s of sqliteSnapshotStatements(table)) db.exec(s);
  const heads = `"${table}_snapshots"`;
  const parts = `"${table}_snapshot_parts"`;
  const headOf = db.prepare<[string], { writer: string; total: number; parts: number }>(
    `SELECT writer, total, parts FROM ${heads} WHERE name = ?`,
  );
  const partsOf = db.prepare<[string, string, number], { part: number; bytes: Uint8Array }>(
    `SELECT part, bytes FROM ${parts} WHERE name = ? AND writer = ? AND part >= ? ORDER BY part`,
  );
  const addPart = db.prepare(`INSERT INTO ${parts} (name, writer, part, bytes, written_at) VALUES (?, ?, ?, ?, ?)`);
  const setHead = db.prepare(
    `INSERT INTO ${heads} (name, writer, total, parts, written_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET writer = excluded.writer, total = excluded.total, parts = excluded.parts, written_at = excluded.written_at`,
  );
  const dropParts = db.prepare(
    `DELETE FROM ${parts} WHERE name = ? AND writer <> ? AND (writer = ? OR written_at < ?)`,
  );
  const dropOwn = db.prepare(`DELETE FROM ${parts} WHERE name = ? AND writer = ?`);
  const dropHead = db.prepare(`DELETE FROM ${heads} WHERE name = ?`);
  const dropAll = db.prepare(`DELETE FROM ${parts} WHERE name = ?`);
  const readAll = db.transaction((name: string, onChunk: ChunkObserver | undefined): Uint8Array | undefined => {
    const head = headOf.get(name);
    if (head === undefined) return undefined;
    const got = new Assembly(head.total, onChunk);
    for (const r of partsOf.iterate(name, head.writer, 0)) {
      if (!got.add(r.part, 0, r.bytes)) break;
      got.endPart();
    }
    return got.result();
  });
  const addParts = db.transaction(
    (name: string, writer: string, list: readonly (readonly [number, Uint8Array])[], at: number) => {
      for (const [i, bytes] of list) addPart.run(name, writer, i, bytes, at);
    },
  );
  const switchHead = db.transaction((name: string, writer: string, total: number, count: number, now: number) => {
    const old = headOf.get(name)?.writer ?? null;
    setHead.run(name, writer, total, count, now);
    dropParts.run(name, writer, old, now - STALE_PARTS_S * 1000);
  });
  const removeAll = db.transaction((name: string) => {
    dropHead.run(name);
    dropAll.run(name);
  });
  return {
    read: async (name, onChunk) => {
      try {
        checkName(name);
        return E.right(readAll(name, onChunk));
      } catch (e) {
        return E.left(snapshotFailure("read", name, e));
      }
    },
    write: async (name, bytes) => {
      const writer = randomBytes(8).toString("hex");
      let wrote = false;
      try {
        checkName(name);
        const count = Math.ceil(bytes.length / partBytes);
        for (let i = 0; i < count; i += WRITE_PARTS) {
          const list = Array.from({ length: Math.min(WRITE_PARTS, count - i) }, (_, j) => {
            const at = (i + j) * partBytes;
            return [i + j, bytes.subarray(at, Math.min(at + partBytes, bytes.length))] as const;
          });
          wrote = true;
          addParts.immediate(name, writer, list, Date.now());
          await nextTurn();
        }
        switchHead.immediate(name, writer, bytes.length, count, Date.now());
        return E.right(undefined);
      } catch (e) {
        if (wrote)
          try {
            dropOwn.run(name, writer);
          } catch {
            // a dead writer's parts: removed by a later write
          }
        return E.left(snapshotFailure("write", name, e));
      }
    },
    remove: async (name) => {
      try {
        checkName(name);
        removeAll.immediate(name);
        return E.right(undefined);
      } catch (e) {
        return E.left(snapshotFailure("remove", name, e));
      }
    },
  };
}
