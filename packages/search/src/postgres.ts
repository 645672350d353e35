/**
 * PostgreSQL `SegmentIndex` (tsvector + GIN): one index shared by many agent processes on many
 * hosts. Every statement is parameterised; the schema is created on first use under an
 * advisory lock, so processes racing to create it all succeed.
 *
 * Terms come from the shared tokenizer (`search/query.ts`) and are stored as a quoted-lexeme
 * `tsvector` (summary lexemes weight A). Ranking runs in the process, on the postings cache of
 * `search/postgres-cache` (the same engine and BM25 as every backend), kept in step with other
 * clients' writes by generation; the table is the durable store, and user text never reaches
 * the server as anything but the namespace and kind parameters.
 *
 * pg is loaded when an index is opened from a URL, not when this module is imported (see
 * `search/driver`); an index opened on a ready {@link SqlClient} never loads it.
 *
 * @module search/postgres
 */
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import type { PgPoolLike } from "./optional-driver.js";
import { resolvePgTimeouts } from "./pg-resilience.js";
import { decodeWith, intIn, invalid, leaf, objectCodec } from "@cc/validate";
import { clientFactory, isPgPoolLike, isSqlClient, storageError, withRetries } from "./postgres-client.js";
export { pgClient } from "./postgres-client.js";
import type { IndexEntry, IndexError, Json, SearchHit, SearchOptions, SegmentIndex } from "./contract.js";
import { DEFAULT_NAMESPACE, idConflict, resolveSearchOptions, validateEntries } from "./contract.js";
import { ESCAPED, encodeText, entryFromRow, type StoredEntryRow, isPlainJson, searchable } from "./lossless.js";
import { prepareSchema } from "./postgres-schema.js";
import type { SqlClient } from "./sql.js";
export type { SqlClient, SqlRunner } from "./sql.js";
import { bestSnippet, indexedTerms, queryTerms, tsvectorLiteral } from "./query.js";
import { pgPostingsCache, type PgPostingsCache, type PgSnapshotHooks, type StagedEntry } from "./postgres-cache.js";
import {
  DEFAULT_POSTINGS_CACHE_BYTES,
  preloadScopes,
  registerCacheStats,
  ScopeLru,
  scopeKey,
  type Sized,
} from "./ranking/scopes.js";
import { decodeText } from "./lossless.js";
import {
  ownStore,
  preloadSnapshots,
  snapshots as openSnapshots,
  SnapshotOptionsCodec,
  type Preloaded,
  type SnapshotOptions,
  type SnapshotPreload,
  type Snapshots,
} from "./snapshots.js";
import { preparePostgresSnapshotTables, postgresSnapshotStore } from "./database-snapshots.js";

/**
 * Options of {@link openPostgresIndex} (the style of `openPostgresStore` of @cc/session), decoded
 * by a closed codec: an unknown key (with a "did you mean"), NaN, ±Infinity or an out-of-range
 * value is `Left(InvalidOptions)` with subject "postgres index options", each problem naming its
 * field.
 *
 * `connection` is a URL (the index creates a pool, owns it and ends it on close), a pool you own
 * (`PgPoolLike` — a `pg.Pool` fits; not ended on close, and its `'error'`
 * listener is yours to attach) or a ready {@link SqlClient} (not ended on close). They are told
 * apart by shape: a pool has `connect`, a `SqlClient` has `transaction`. The timeouts configure
 * the pool the index creates, so they are refused next to a pool or client you own.
 *
 * @example
 * openPostgresIndex({ connection: "postgres://agent@db/journal", table: "journal", connectTimeoutMs: 2000 })
 */
export interface PostgresIndexOptions {
  /** A connection URL (a pool is created and owned), a pool you own, or a ready {@link SqlClient} (neither ended on close). */
  readonly connection: string | PgPoolLike | SqlClient;
  /**
   * Table name: lower-case letters, digits, underscores.
   * @default "cc_segments"
   */
  readonly table?: string;
  /**
   * Rows per INSERT statement when writing a batch: an integer in [1, 10 000].
   * @default 500
   */
  readonly chunkSize?: number;
  /**
   * With a URL: longest wait for a connection in ms, 0 for none (else `connect_timeout` of the
   * URL, in seconds).
   * @default 10000
   */
  readonly connectTimeoutMs?: number;
  /**
   * With a URL: longest run of one statement in ms, 0 for none (else `statement_timeout` of the URL).
   * @default 30000
   */
  readonly statementTimeoutMs?: number;
  /**
   * Byte cap of the in-process postings caches: an integer number of bytes in [0, 2⁵³ − 1]. A
   * search in a namespace loads that namespace's rows only (once, then kept in step by
   * generation); loaded namespaces are kept least-recently-used first under this cap, and an
   * evicted one is loaded again on its next search. The namespace in use is never evicted, so
   * one namespace larger than the cap is still searched (held alone). A search across every
   * namespace (no `namespace`) loads the whole table into one more cache under the same cap:
   * its first search reads every row, as a whole-index load always did.
   * @default 1 GiB (`2³⁰`: a 2-core / 24 GB worker running a few agent processes)
   */
  readonly postingsCacheBytes?: number;
  /**
   * Persisted snapshots of the loaded scopes' postings (see `SnapshotOptions`): a fresh process
   * restores a scope from its snapshot and catches up by generation (rows written since,
   * namespace deletions since) instead of reading every row's `tsv`; a torn, stale or foreign
   * snapshot is refused and rebuilt. Written in the background after a load, and again after
   * `rewriteAfter` changes. `store: "database"` keeps them in this database (tables
   * `<table>_snapshots` and `<table>_snapshot_parts`), shared by every worker on every host;
   * `dir` keeps them on this process's host. A directory store's `preload` reads are started
   * before the driver loads and connects.
   * @default off (no snapshot is read or written)
   */
  readonly snapshots?: SnapshotOptions;
}

const IDENT = /^[a-z_][a-z0-9_]{0,40}$/;

/** The longest timeout accepted, in ms (as `resolvePgTimeouts`). */
const MAX_TIMEOUT = 2_147_483_647;

/** Closed codec of {@link PostgresIndexOptions}: unknown keys (with a did-you-mean), NaN, ±Infinity and out-of-range values are refused. */
export const PostgresIndexOptionsCodec = objectCodec(
  "PostgresIndexOptions",
  {
    connection: leaf(
      "Connection",
      "a non-empty URL, a pool (query, connect, end, on) or a SqlClient (query, transaction, end)",
      (u): u is string | PgPoolLike | SqlClient =>
        (typeof u === "string" && u !== "") || isSqlClient(u) || isPgPoolLike(u),
    ),
  },
  {
    table: leaf(
      "PostgresTable",
      "lower-case letters, digits and underscores (at most 41, not starting with a digit)",
      (u): u is string => typeof u === "string" && IDENT.test(u),
    ),
    chunkSize: intIn(1, 10_000),
    connectTimeoutMs: intIn(0, MAX_TIMEOUT),
    statementTimeoutMs: intIn(0, MAX_TIMEOUT),
    postingsCacheBytes: intIn(0, Number.MAX_SAFE_INTEGER),
    snapshots: SnapshotOptionsCodec,
  },
  { expected: "an options object" },
);

/** Settings that configure the pool the index creates: refused next to a pool or client you own, never ignored. */
const URL_ONLY = ["connectTimeoutMs", "statementTimeoutMs"] as const;

const decodePostgresOptions = decodeWith(PostgresIndexOptionsCodec, "InvalidOptions", "postgres index options");
const COLUMNS = "namespace, id, kind, summary, content, token_cost, created_at, evicted_at, metadata";
/** bm25 weight of a summary term relative to a content term (as the other backends' default). */
const SUMMARY_WEIGHT = 2;

interface Row extends StoredEntryRow {
  readonly metadata: unknown;
}

type Metadata = { readonly [key: string]: Json };

/** jsonb text of metadata: the object itself, or a string `U+FFFF + JSON` when jsonb cannot hold it. */
function metadataParam(metadata: Metadata): string {
  const json = JSON.stringify(metadata);
  return isPlainJson(metadata) ? json : JSON.stringify(ESCAPED + json);
}

function metadataOf(stored: unknown): Metadata {
  return typeof stored === "string" && stored.startsWith(ESCAPED)
    ? (JSON.parse(stored.slice(1)) as Metadata)
    : (stored as Metadata);
}

/** An entry from a stored row (strings decoded, see `search/lossless`). */
function toEntry(r: Row): IndexEntry {
  return entryFromRow(r, metadataOf(r.metadata));
}

/**
 * Connects, creates the table and indexes when missing (safe when processes race), and returns
 * the index. Given a URL, loads pg first; when it cannot be loaded the result is an
 * `IndexUnavailable` whose `missingPackage` is `"pg"`.
 *
 * @example
 * const r = await openPostgresIndex({ connection: "postgres://agent@db/journal" })();
 * const onMine = await openPostgresIndex({ connection: pool, table: "journal" })(); // pool.on("error", …) is yours
 */
export function openPostgresIndex(options: PostgresIndexOptions): TE.TaskEither<IndexError, SegmentIndex> {
  return async () => {
    const decoded = decodePostgresOptions(options);
    if (E.isLeft(decoded)) return decoded;
    const table = decoded.right.table ?? "cc_segments";
    const chunk = decoded.right.chunkSize ?? 500;
    if (typeof decoded.right.connection !== "string") {
      const misplaced = URL_ONLY.filter((k) => decoded.right[k] !== undefined);
      if (misplaced.length > 0) {
        return E.left(
          invalid(
            "InvalidOptions",
            "postgres index options",
            misplaced.map((k) => ({
              path: k,
              message: `${k}: applies only to the pool the index creates from a URL; set it on your own pool or client`,
            })),
          ),
        );
      }
    }
    const snap = decoded.right.snapshots;
    if (snap !== undefined && (snap.dir === undefined) === (snap.store === undefined)) {
      return E.left(
        invalid("InvalidOptions", "postgres index options", [
          {
            path: "snapshots",
            message: 'snapshots: give dir or store ("database", or a store of your own), one of them',
          },
        ]),
      );
    }
    const timeouts = resolvePgTimeouts(decoded.right, typeof options.connection === "string" ? options.connection : "");
    if (E.isLeft(timeouts))
      return E.left(
        invalid(
          "InvalidOptions",
          "postgres index options",
          timeouts.left.map((message) => ({ path: message.split(":")[0]!, message })),
        ),
      );
    const owned = typeof options.connection === "string";
    // A store of this host (a directory, or the caller's own) is read while the driver loads and
    // connects: the preloaded snapshots are checked against the identity and generation on use.
    const local = snap === undefined ? undefined : ownStore(snap);
    let preloaded: Preloaded | undefined =
      snap !== undefined && local !== undefined
        ? preloadSnapshots(
            local,
            table,
            preloadScopes(snap.preload).map((p) => p.key),
            true,
          )
        : undefined;
    const connect = await clientFactory(options.connection, timeouts.right)();
    if (E.isLeft(connect)) return connect;
    let client: SqlClient | undefined;
    try {
      client = connect.right();
      const c = client;
      const inDatabase = snap !== undefined && local === undefined;
      await withRetries(
        () =>
          c.transaction(async (tx) => {
            await prepareSchema(tx, table);
            if (inDatabase) await preparePostgresSnapshotTables(tx, table);
          }),
        true,
      );
      const identity =
        snap === undefined
          ? ""
          : String(
              (await withRetries(() => c.query<{ id: string }>(`SELECT id FROM ${table}_identity`), true)).rows[0]
                ?.id ?? "",
            );
      let s: Snapshots | undefined;
      if (snap !== undefined) {
        const store = local ?? postgresSnapshotStore(c, table);
        preloaded ??= preloadSnapshots(
          store,
          table,
          preloadScopes(snap.preload).map((p) => p.key),
          true,
        );
        // Read in parts where the store can (a directory): a restore reads the lists a search needs.
        s = openSnapshots(snap, table, identity, store, preloaded, true);
      }
      return E.right(
        make(
          c,
          table,
          chunk,
          owned,
          decoded.right.postingsCacheBytes ?? DEFAULT_POSTINGS_CACHE_BYTES,
          s,
          identity,
          snap?.preload,
        ),
      );
    } catch (e) {
      if (owned && client !== undefined) await client.end().catch(() => undefined);
      return E.left(storageError("open", e));
    }
  };
}

/** Thrown inside a write transaction to roll it back when an id already holds a different original. */
class IdConflictSignal extends Error {
  constructor(
    readonly namespace: string,
    readonly id: string,
  ) {
    super(`id conflict: ${id}`);
  }
}

/** Orders a batch by (namespace, id), so concurrent writers lock shared rows in the same order. */
function lockOrder(entries: readonly IndexEntry[]): readonly IndexEntry[] {
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...entries].sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.id, b.id));
}

function make(
  client: SqlClient,
  table: string,
  chunk: number,
  owned: boolean,
  cacheBytes: number,
  snap: Snapshots | undefined,
  identity: string,
  preload: SnapshotPreload | undefined,
): SegmentIndex {
  let closed = false;
  const run =
    <A>(
      operation: string,
      fn: () => Promise<E.Either<IndexError, A>>,
      idempotent = true,
    ): TE.TaskEither<IndexError, A> =>
    async () => {
      if (closed) return E.left({ _tag: "IndexClosed", backend: "postgres" });
      try {
        return await withRetries(fn, idempotent);
      } catch (e) {
        return E.left(storageError(operation, e));
      }
    };

  const upsert = `INSERT INTO ${table} (${COLUMNS}, tsv, gen)
    SELECT u.namespace, u.id, u.kind, u.summary, u.content, u.token_cost, u.created_at, u.evicted_at, u.metadata::jsonb,
      u.s_terms::tsvector || u.c_terms::tsvector, $12::bigint
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::float8[], $9::text[], $10::text[], $11::text[])
      AS u(namespace, id, kind, summary, content, token_cost, created_at, evicted_at, metadata, s_terms, c_terms)
    ON CONFLICT (namespace, id) DO UPDATE SET kind = EXCLUDED.kind, summary = EXCLUDED.summary, content = EXCLUDED.content,
      token_cost = EXCLUDED.token_cost, created_at = EXCLUDED.created_at, evicted_at = EXCLUDED.evicted_at,
      metadata = EXCLUDED.metadata, tsv = EXCLUDED.tsv, gen = EXCLUDED.gen
    WHERE ${table}.content = EXCLUDED.content
    RETURNING namespace, id`;

  // One postings cache per scope searched (a namespace, or every namespace), under an LRU with a
  // byte cap. An evicted cache is dropped, not cleared: a search already ranking on it finishes
  // (it is no longer kept in step by this process's writes, so the generation check catches it up).
  interface Scoped extends Sized {
    readonly cache: PgPostingsCache;
    /** Its first loads counted in the stats (each once, however many searches waited for it). */
    counted: number;
  }
  const lru = new ScopeLru<Scoped>(cacheBytes);
  const scopeOf = (stored: string | undefined, namespace: string | undefined): Scoped => {
    const key = scopeKey(stored);
    const held = lru.get(key);
    if (held !== undefined) return held;
    const hooks =
      snap === undefined
        ? undefined
        : snapshotHooks(snap, key, stored === undefined ? undefined : decodeText(stored), () => cache);
    const cache = pgPostingsCache(client, table, stored, hooks);
    const scoped: Scoped = {
      cache,
      counted: 0,
      bytes: cache.bytes,
      entries: cache.entries,
      release: () => {
        cache.release();
        snap?.forget(key);
      },
    };
    lru.set(key, namespace, scoped);
    return scoped;
  };
  /** The snapshot hooks of one scope's cache. */
  const snapshotHooks = (
    s: Snapshots,
    key: string,
    namespace: string | undefined,
    cache: () => PgPostingsCache,
  ): PgSnapshotHooks => {
    const produce = () => (closed ? undefined : cache().snapshot(identity, key));
    return {
      read: async (gen, found) => {
        const content = await s.read(key, namespace, gen, found);
        // Read after the index closed: let go, not restored.
        if (closed) {
          content?.later?.close();
          return undefined;
        }
        if (content !== undefined) s.track(key, namespace, produce, content.image.live);
        return content;
      },
      contradicted: (detail) => s.contradicted(namespace, detail),
      laterFailure: (failure) => s.laterFailure(namespace, failure),
      restored: (content) => s.restoredScope(namespace, content),
      loadedFromRows: () => s.schedule(key, namespace, produce),
      changed: (n) => {
        s.changed(key, n);
      },
    };
  };
  /** Catches a scope up (loading it the first time), then re-reads its size for the cap. */
  const syncScope = async (stored: string | undefined, scoped: Scoped): Promise<void> => {
    await scoped.cache.sync();
    const loads = scoped.cache.loads();
    if (scoped.counted < loads && scoped.cache.isLoaded()) {
      lru.loads += loads - scoped.counted;
      lru.loadedEntries += scoped.cache.loadedRows();
      scoped.counted = loads;
    }
    lru.touch(scopeKey(stored));
  };
  const bump = `UPDATE ${table}_gen SET gen = gen + 1 RETURNING gen`;
  // The counter and the hits' rows in one snapshot (the counter row always comes, hits or not).
  const fetchRows = `SELECT g.gen AS cur_gen, t.* FROM ${table}_gen g LEFT JOIN LATERAL (
      SELECT ${COLUMNS} FROM ${table} WHERE (namespace, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))) t ON true`;

  const params = (batch: readonly IndexEntry[], staged: readonly StagedEntry[], gen: number): unknown[] => [
    batch.map((e) => encodeText(e.namespace)),
    batch.map((e) => encodeText(e.id)),
    batch.map((e) => encodeText(e.kind)),
    batch.map((e) => encodeText(e.summary)),
    batch.map((e) => encodeText(e.content)),
    batch.map((e) => e.tokenCost),
    batch.map((e) => e.createdAt),
    batch.map((e) => e.evictedAt),
    batch.map((e) => metadataParam(e.metadata)),
    staged.map((e) => tsvectorLiteral(e.terms.summary, "A")),
    staged.map((e) => tsvectorLiteral(e.terms.content)),
    gen,
  ];

  const search = (query: string, opts?: SearchOptions): TE.TaskEither<IndexError, readonly SearchHit[]> =>
    run("search", async () => {
      const resolved = resolveSearchOptions(opts);
      if (E.isLeft(resolved)) return resolved;
      const { k, namespace, kinds } = resolved.right;
      const terms = queryTerms(typeof query === "string" ? query : "");
      if (terms.length === 0 || (kinds !== undefined && kinds.length === 0)) return E.right([]);
      // Optimistic: rank on the cache, then fetch the hits together with the counter in one
      // statement (one snapshot); when the counter moved since the cache was filled, catch up
      // and rank again. Nothing changed elsewhere (the usual case): one round trip.
      const storedNs = namespace === undefined ? undefined : encodeText(namespace);
      const storedKinds = kinds?.map(encodeText);
      let rows: (Row & { readonly score: number })[] = [];
      const scoped = scopeOf(storedNs, namespace);
      const { cache } = scoped;
      for (let attempt = 0; attempt < 3; attempt++) {
        if (attempt > 0 || !cache.isLoaded()) await syncScope(storedNs, scoped);
        // The query terms' lists of a restore read in parts: a failure drops the restore, loaded from the rows.
        while (!(await cache.prepare(terms))) await syncScope(storedNs, scoped);
        const ranked = cache.rank(terms, { k, summaryWeight: SUMMARY_WEIGHT, namespace: storedNs, kinds: storedKinds });
        const { rows: fetched } = await client.query<
          Row & { readonly cur_gen: string | number; readonly namespace: string | null }
        >(fetchRows, [ranked.map((r) => r.handle.namespace), ranked.map((r) => r.handle.id)]);
        // A scope just restored is checked against the table meanwhile: when the check changed the
        // cache (a catch-up, or a contradicted restore dropped), rank again on what it is now.
        const unchanged = await cache.settled();
        const byKey = new Map(
          fetched.filter((r) => r.namespace !== null).map((r) => [`${r.namespace.length}:${r.namespace}${r.id}`, r]),
        );
        rows = ranked.flatMap((r) => {
          const row = byKey.get(`${r.handle.namespace.length}:${r.handle.namespace}${r.handle.id}`);
          return row === undefined ? [] : [{ ...row, score: r.score }];
        });
        if (unchanged && cache.current(Number(fetched[0]?.cur_gen ?? -1))) break;
      }
      return E.right(
        rows.map((r) => {
          const e = toEntry(r);
          return {
            id: e.id,
            namespace: e.namespace,
            kind: e.kind,
            summary: e.summary,
            snippet: bestSnippet(searchable(e.summary), searchable(e.content), terms),
            score: r.score,
            tokenCost: e.tokenCost,
            createdAt: e.createdAt,
            evictedAt: e.evictedAt,
          };
        }),
      );
    });

  const index: SegmentIndex = {
    backend: "postgres",
    write: (batch) =>
      run("write", async () => {
        const valid = validateEntries(batch);
        if (E.isLeft(valid)) return valid;
        const all = lockOrder(valid.right);
        if (all.length === 0) return E.right({ written: 0 });
        // A row whose stored original differs is neither inserted nor updated (the ON CONFLICT
        // condition, evaluated under the row lock): it is missing from RETURNING, and the whole
        // transaction is rolled back.
        const staged: StagedEntry[] = all.map((e) => ({
          namespace: encodeText(e.namespace),
          id: encodeText(e.id),
          kind: encodeText(e.kind),
          terms: { summary: indexedTerms(e.summary), content: indexedTerms(e.content) },
        }));
        let gen: number;
        try {
          gen = await client.transaction(async (tx) => {
            // The counter's row lock orders writers: generations commit in order.
            const g = Number((await tx.query<{ gen: string | number }>(bump)).rows[0]?.gen);
            for (let i = 0; i < all.length; i += chunk) {
              const part = all.slice(i, i + chunk);
              const { rows } = await tx.query<{ namespace: string; id: string }>(
                upsert,
                params(part, staged.slice(i, i + chunk), g),
              );
              if (rows.length === part.length) continue;
              const done = new Set(rows.map((r) => `${r.namespace}\u0000${r.id}`));
              const clash =
                part.find((e) => !done.has(`${encodeText(e.namespace)}\u0000${encodeText(e.id)}`)) ?? part[0]!;
              throw new IdConflictSignal(clash.namespace, clash.id);
            }
            return g;
          });
        } catch (e) {
          if (e instanceof IdConflictSignal) return E.left(idConflict("postgres", e.namespace, e.id));
          throw e;
        }
        for (const s of lru.values()) s.cache.wrote(gen, staged);
        return E.right({ written: all.length });
      }),
    search,
    expand: (id: string, namespace: string = DEFAULT_NAMESPACE) =>
      run("expand", async () => {
        const { rows } = await client.query<Row>(`SELECT ${COLUMNS} FROM ${table} WHERE namespace = $1 AND id = $2`, [
          encodeText(namespace),
          encodeText(id),
        ]);
        const r = rows[0];
        return E.right(r === undefined ? undefined : toEntry(r));
      }),
    deleteNamespace: (namespace: string) =>
      run(
        "deleteNamespace",
        async () => {
          const stored = encodeText(namespace);
          // One statement: the generation, its log row and the deletion commit together.
          const { rows } = await client.query<{ n: string; gen: string }>(
            `WITH g AS (UPDATE ${table}_gen SET gen = gen + 1 RETURNING gen),
             l AS (INSERT INTO ${table}_log (gen, namespace) SELECT gen, $1 FROM g),
             d AS (DELETE FROM ${table} WHERE namespace = $1 RETURNING 1)
           SELECT (SELECT count(*) FROM d) AS n, (SELECT gen FROM g) AS gen`,
            [stored],
          );
          for (const s of lru.values()) s.cache.deleted(Number(rows[0]?.gen), stored);
          return E.right(Number(rows[0]?.n ?? 0));
        },
        false,
      ),
    count: (namespace?: string) =>
      run("count", async () => {
        const { rows } = await client.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table} WHERE $1::text IS NULL OR namespace = $1`,
          [namespace === undefined ? null : encodeText(namespace)],
        );
        return E.right(Number(rows[0]?.n ?? 0));
      }),
    close: () =>
      run(
        "close",
        async () => {
          // Snapshot writes in flight (or due) finish first.
          if (!closed) await snap?.flush();
          closed = true;
          for (const s of lru.values()) s.cache.clear();
          lru.clear();
          if (owned) await client.end();
          return E.right(undefined);
        },
        false,
      ),
  };
  registerCacheStats(index, () => ({ ...lru.stats(), ...(snap === undefined ? {} : { snapshots: snap.stats() }) }));
  // Preloaded scopes load now, in the background (their snapshots are being read already), and a
  // restore is checked against the table: a first search waits for the load in progress; a
  // failure here is the first search's to report (it loads again).
  for (const p of preloadScopes(preload)) {
    const scoped = scopeOf(p.stored, p.namespace);
    void syncScope(p.stored, scoped)
      .then(() => scoped.cache.settled())
      .catch(() => undefined);
  }
  return index;
}
