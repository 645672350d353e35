/**
 * SQLite `SegmentIndex` (better-sqlite3, FTS5 with bm25): the embedded default. A file survives
 * restarts and can be shared by several processes on one host (WAL, immediate transactions,
 * busy timeout); `:memory:` gives a private, throwaway index. better-sqlite3 is loaded when an
 * index is opened, not when this module is imported (see `search/driver`).
 *
 * @module search/sqlite
 */
import type Database from "better-sqlite3";
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import type { IndexEntry, IndexError, Json, SearchHit, SearchOptions, SegmentIndex } from "./index.js";
import { loadDriver, SQLITE_DRIVER } from "./driver.js";
import { DEFAULT_NAMESPACE, idConflict, messageOf, resolveSearchOptions, validateEntries } from "./index.js";
import { decodeText, encodeText, entryFromRow, type StoredEntryRow, searchable } from "./lossless.js";
import { bestSnippet, fts5Match, indexedText, queryTerms } from "./query.js";
import { prepareSchema } from "./sqlite-schema.js";
import { decodeWith, intIn, leaf, numberIn, objectCodec } from "@cc/validate";
import * as t from "io-ts";

/**
 * Options of {@link openSqliteIndex}, decoded by a closed codec: an unknown key (with a "did you
 * mean"), NaN, ±Infinity or an out-of-range value is `Left(InvalidOptions)` with subject
 * "sqlite index options", each problem naming its field.
 */
export interface SqliteIndexOptions {
  /** Database file, or ":memory:" (default). */
  readonly path?: string;
  /** Table name prefix: letters, digits, underscores (default "cc_segments"). */
  readonly table?: string;
  /** How long a writer waits for another process's lock, in ms: an integer in [0, 2³¹ − 1] (default 10 000). */
  readonly busyTimeoutMs?: number;
  /** bm25 weight of the summary column relative to content: a finite number in (0, 10⁶] (default 2). */
  readonly summaryWeight?: number;
}

interface Row extends StoredEntryRow {
  readonly rid: number;
  readonly metadata: string;
  readonly rank?: number;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,40}$/;

/** Closed codec of {@link SqliteIndexOptions}: unknown keys (with a did-you-mean), NaN, ±Infinity and out-of-range values are refused. */
const SqliteIndexOptionsCodec = objectCodec("SqliteIndexOptions", {}, {
  path: t.string,
  table: leaf("SqliteTable", "letters, digits and underscores (at most 41, not starting with a digit)", (u): u is string => typeof u === "string" && IDENT.test(u)),
  busyTimeoutMs: intIn(0, 2_147_483_647),
  summaryWeight: numberIn(Number.MIN_VALUE, 1e6),
}, { expected: "an options object" });

const decodeSqliteOptions = decodeWith(SqliteIndexOptionsCodec, "InvalidOptions", "sqlite index options");

/** A caught error as a `StorageError`, with SQLite's code when it has one (e.g. `SQLITE_FULL`). */
function storageError(operation: string, e: unknown): IndexError {
  const code = typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined;
  return { _tag: "StorageError", backend: "sqlite", operation, message: messageOf(e), ...(code === undefined ? {} : { code }) };
}

/** Thrown inside a write transaction to roll it back when an id already holds a different original. */
class IdConflictSignal extends Error {
  constructor(readonly namespace: string, readonly id: string) {
    super(`id conflict: ${id}`);
  }
}

function toEntry(r: Row): IndexEntry {
  return entryFromRow(r, JSON.parse(r.metadata) as { readonly [key: string]: Json });
}

/**
 * Opens (and on first use creates) an FTS5 index in a SQLite file or in memory. Loads
 * better-sqlite3 on first run; when it cannot be loaded the result is an `IndexUnavailable`
 * whose `missingPackage` is `"better-sqlite3"`.
 *
 * @example
 * const r = await openSqliteIndex({ path: "agent-journal.db" })();
 * if (r._tag === "Right") await r.right.write([entry({ id: "s1", summary: "…" })])();
 */
export function openSqliteIndex(options: SqliteIndexOptions = {}): TE.TaskEither<IndexError, SegmentIndex> {
  return async () => {
    const decoded = decodeSqliteOptions(options);
    if (E.isLeft(decoded)) return decoded;
    const table = decoded.right.table ?? "cc_segments";
    const busy = decoded.right.busyTimeoutMs ?? 10_000;
    const weight = decoded.right.summaryWeight ?? 2;
    const driver = await loadDriver("sqlite", SQLITE_DRIVER, () => import("better-sqlite3"), (mod) =>
      typeof mod.default === "function" ? mod.default : undefined,
    )();
    if (E.isLeft(driver)) return driver;
    try {
      return E.right(open(driver.right, options.path ?? ":memory:", table, busy, weight));
    } catch (e) {
      return E.left(storageError("open", e));
    }
  };
}

function open(Driver: typeof Database, path: string, table: string, busyMs: number, weight: number): SegmentIndex {
  const db = new Driver(path);
  const fts = `${table}_fts`;
  try {
    db.pragma(`busy_timeout = ${busyMs}`);
    if (path !== ":memory:") db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    prepareSchema(db, table);
  } catch (e) {
    db.close();
    throw e;
  }

  const find = db.prepare<[string, string], { rid: number; content: string }>(`SELECT rid, content FROM ${table} WHERE namespace = ? AND id = ?`);
  const insert = db.prepare(
    `INSERT INTO ${table} (namespace, id, kind, summary, content, token_cost, created_at, evicted_at, metadata)
     VALUES (@namespace, @id, @kind, @summary, @content, @tokenCost, @createdAt, @evictedAt, @metadata)`,
  );
  const update = db.prepare(
    `UPDATE ${table} SET kind = @kind, summary = @summary, content = @content, token_cost = @tokenCost,
     created_at = @createdAt, evicted_at = @evictedAt, metadata = @metadata WHERE rid = @rid`,
  );
  const ftsInsert = db.prepare(`INSERT INTO ${fts} (rowid, summary, content) VALUES (?, ?, ?)`);
  const ftsDelete = db.prepare(`DELETE FROM ${fts} WHERE rowid = ?`);
  const get = db.prepare<[string, string], Row>(`SELECT * FROM ${table} WHERE namespace = ? AND id = ?`);
  const countAll = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`);
  const countNs = db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM ${table} WHERE namespace = ?`);
  const ridsOf = db.prepare<[string], { rid: number }>(`SELECT rid FROM ${table} WHERE namespace = ?`);
  const deleteNs = db.prepare(`DELETE FROM ${table} WHERE namespace = ?`);

  const writeAll = db.transaction((batch: readonly IndexEntry[]) => {
    for (const e of batch) {
      const params = {
        namespace: encodeText(e.namespace),
        id: encodeText(e.id),
        kind: encodeText(e.kind),
        summary: encodeText(e.summary),
        content: encodeText(e.content),
        tokenCost: e.tokenCost,
        createdAt: e.createdAt,
        evictedAt: e.evictedAt,
        metadata: JSON.stringify(e.metadata),
      };
      const existing = find.get(params.namespace, params.id);
      let rid: number;
      if (existing === undefined) {
        rid = Number(insert.run(params).lastInsertRowid);
      } else {
        // A different original under the same id: refused, and the transaction rolls back.
        if (existing.content !== params.content) throw new IdConflictSignal(e.namespace, e.id);
        rid = existing.rid;
        update.run({ ...params, rid });
        ftsDelete.run(rid);
      }
      ftsInsert.run(rid, indexedText(e.summary), indexedText(e.content));
    }
    return batch.length;
  });
  const dropNamespace = db.transaction((namespace: string) => {
    for (const { rid } of ridsOf.all(namespace)) ftsDelete.run(rid);
    return deleteNs.run(namespace).changes;
  });

  let closed = false;
  const run =
    <A>(operation: string, fn: () => E.Either<IndexError, A>): TE.TaskEither<IndexError, A> =>
    async () => {
      if (closed) return E.left({ _tag: "IndexClosed", backend: "sqlite" });
      try {
        return fn();
      } catch (e) {
        return E.left(storageError(operation, e));
      }
    };

  const search = (query: string, opts?: SearchOptions): TE.TaskEither<IndexError, readonly SearchHit[]> =>
    run("search", () => {
      const resolved = resolveSearchOptions(opts);
      if (E.isLeft(resolved)) return resolved;
      const { k, namespace, kinds } = resolved.right;
      const terms = queryTerms(typeof query === "string" ? query : "");
      if (terms.length === 0 || (kinds !== undefined && kinds.length === 0)) return E.right([]);
      const where = [`${fts} MATCH ?`];
      const params: (string | number)[] = [fts5Match(terms)];
      if (namespace !== undefined) {
        where.push("e.namespace = ?");
        params.push(encodeText(namespace));
      }
      if (kinds !== undefined) {
        where.push("e.kind IN (SELECT value FROM json_each(?))");
        params.push(JSON.stringify(kinds.map(encodeText)));
      }
      params.push(k);
      const rows = db
        .prepare<(string | number)[], Row>(
          `SELECT e.*, bm25(${fts}, ${weight}, 1.0) AS rank FROM ${fts} JOIN ${table} e ON e.rid = ${fts}.rowid
           WHERE ${where.join(" AND ")} ORDER BY rank, e.rid LIMIT ?`,
        )
        .all(...params);
      return E.right(
        rows.map((r) => {
          const summary = decodeText(r.summary);
          return {
            id: decodeText(r.id),
            namespace: decodeText(r.namespace),
            kind: decodeText(r.kind),
            summary,
            snippet: bestSnippet(searchable(summary), searchable(decodeText(r.content)), terms),
            score: -(r.rank ?? 0),
            tokenCost: r.token_cost,
            createdAt: r.created_at,
            evictedAt: r.evicted_at,
          };
        }),
      );
    });

  return {
    backend: "sqlite",
    write: (batch) =>
      run("write", () => {
        const valid = validateEntries(batch);
        if (E.isLeft(valid)) return valid;
        try {
          return E.right({ written: writeAll.immediate(valid.right) });
        } catch (e) {
          if (e instanceof IdConflictSignal) return E.left(idConflict("sqlite", e.namespace, e.id));
          throw e;
        }
      }),
    search,
    expand: (id: string, namespace: string = DEFAULT_NAMESPACE) =>
      run("expand", () => {
        const row = get.get(encodeText(namespace), encodeText(id));
        return E.right(row === undefined ? undefined : toEntry(row));
      }),
    deleteNamespace: (namespace: string) => run("deleteNamespace", () => E.right(dropNamespace.immediate(encodeText(namespace)))),
    count: (namespace?: string) =>
      run("count", () => E.right((namespace === undefined ? countAll.get() : countNs.get(encodeText(namespace)))?.n ?? 0)),
    close: () =>
      run("close", () => {
        closed = true;
        db.close();
        return E.right(undefined);
      }),
  };
}
