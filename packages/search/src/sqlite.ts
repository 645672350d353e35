/**
 * SQLite `SegmentIndex` (better-sqlite3): the embedded default. A file survives restarts and can
 * be shared by several processes on one host (WAL, immediate transactions, busy timeout);
 * `:memory:` gives a private, throwaway index. better-sqlite3 is loaded when an index is opened,
 * not when this module is imported (see `search/driver`).
 *
 * The file is the durable store; ranking runs in the process on postings caches
 * (`search/ranking`), one per namespace searched (see `search/ranking/scopes`: an LRU under
 * `postingsCacheBytes`), each loaded from its namespace's stored terms on its first search
 * and kept in step. BM25 statistics are a namespace's own, so one tenant's entries never change
 * another tenant's ranking; a search across every namespace ranks on a whole-index cache (and
 * whole-index statistics).
 * The load is sliced (at most `LOAD_SLICE_ROWS` rows or `LOAD_SLICE_CHARS` characters of terms
 * between yields to the event loop), so a process serving requests stays responsive while a
 * large index loads. Then this connection's writes update it as they commit, and another connection's commits are seen
 * through `PRAGMA data_version` (a counter read, no I/O when nothing changed) and fetched by
 * generation (rows whose `gen` is newer, plus the namespace-deletion log).
 *
 * @module search/sqlite
 */
import type Database from "better-sqlite3";
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import type { IndexEntry, IndexError, Json, SearchHit, SearchOptions, SegmentIndex } from "./contract.js";
import { loadDriver, SQLITE_DRIVER } from "./driver.js";
import {
  DEFAULT_NAMESPACE,
  entryKey,
  idConflict,
  messageOf,
  resolveSearchOptions,
  validateEntries,
} from "./contract.js";
import { decodeText, encodeText, entryFromRow, type StoredEntryRow, searchable } from "./lossless.js";
import { bestSnippet, indexedTerms, queryTerms } from "./query.js";
import { PostingsCache } from "./ranking/postings.js";
import { rank } from "./ranking/topk.js";
import {
  DEFAULT_POSTINGS_CACHE_BYTES,
  preloadScopes,
  registerCacheStats,
  ScopeLru,
  scopeKey,
  type Sized,
} from "./ranking/scopes.js";
import { prepareSchema, termsColumn } from "./sqlite-schema.js";
import type { LaterPostings, SnapshotContent } from "./ranking/snapshot.js";
import {
  ownStore,
  preloadSnapshots,
  snapshots as openSnapshots,
  SnapshotOptionsCodec,
  type DecodedSnapshotOptions,
  type Preloaded,
  type SnapshotOptions,
  type Snapshots,
} from "./snapshots.js";
import { sqliteSnapshotStore } from "./database-snapshots.js";
import { decodeWith, intIn, invalid, leaf, numberIn, objectCodec } from "@cc/validate";
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
  /**
   * Byte cap of the in-process postings caches: an integer number of bytes in [0, 2⁵³ − 1]. A
   * search in a namespace loads that namespace's postings only (once, then kept in step by
   * generation); loaded namespaces are kept least-recently-used first under this cap, and an
   * evicted one is loaded again on its next search. The namespace in use is never evicted, so
   * one namespace larger than the cap is still searched (held alone). A search across every
   * namespace (no `namespace`) loads the whole index into one more cache under the same cap:
   * its first search reads every row, as a whole-index load always did.
   * @default 1 GiB (`2³⁰`: a 2-core / 24 GB worker running a few agent processes)
   */
  readonly postingsCacheBytes?: number;
  /**
   * Persisted snapshots of the loaded scopes' postings (see `SnapshotOptions`): a fresh process
   * restores a scope from its snapshot and catches up by generation instead of rebuilding it
   * from every stored row; a torn, stale or foreign snapshot is refused and rebuilt. Snapshots
   * are written in the background after a load, and again after `rewriteAfter` changes.
   * `store: "database"` keeps them in the index's own file (tables `<table>_snapshots` and
   * `<table>_snapshot_parts`), `dir` in a directory; a directory store's `preload` reads start
   * before the driver loads.
   * @default off (no snapshot is read or written)
   */
  readonly snapshots?: SnapshotOptions;
}

interface Row extends StoredEntryRow {
  readonly rid: number;
  readonly metadata: string;
}

/** What the postings cache loads of a row (strings in their stored form). */
interface TermsRow {
  readonly rid: number;
  readonly namespace: string;
  readonly id: string;
  readonly kind: string;
  readonly terms: string;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,40}$/;

/** Most rows the first search loads into the postings cache before it yields to the event loop. */
const LOAD_SLICE_ROWS = 1024;
/** Most characters of stored terms loaded before a yield (a row holds at most ~512 Ki). */
const LOAD_SLICE_CHARS = 1 << 20;

/**
 * SQLite page cache a connection keeps while a load reads (KiB; better-sqlite3's default is
 * 16 MiB). A load reads each page of its rows once, and one namespace's rows are scattered
 * across the file (one page each, written interleaved with other namespaces'), so a larger cache
 * would only fill with pages the load will not read again: about 7 MiB for 1,000 rows of a 1 GB
 * index. Interior B-tree pages, read for every row, stay in the small cache (least recently
 * used goes first). Outside loads the connection's own setting is back, for writes.
 */
const LOAD_PAGE_CACHE_KIB = 256;

/** One turn of the event loop (I/O callbacks run before the promise settles). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Closed codec of {@link SqliteIndexOptions}: unknown keys (with a did-you-mean), NaN, ±Infinity and out-of-range values are refused. */
export const SqliteIndexOptionsCodec = objectCodec(
  "SqliteIndexOptions",
  {},
  {
    path: t.string,
    table: leaf(
      "SqliteTable",
      "letters, digits and underscores (at most 41, not starting with a digit)",
      (u): u is string => typeof u === "string" && IDENT.test(u),
    ),
    busyTimeoutMs: intIn(0, 2_147_483_647),
    summaryWeight: numberIn(Number.MIN_VALUE, 1e6),
    postingsCacheBytes: intIn(0, Number.MAX_SAFE_INTEGER),
    snapshots: SnapshotOptionsCodec,
  },
  { expected: "an options object" },
);

const decodeSqliteOptions = decodeWith(SqliteIndexOptionsCodec, "InvalidOptions", "sqlite index options");

/** A caught error as a `StorageError`, with SQLite's code when it has one (e.g. `SQLITE_FULL`). */
function storageError(operation: string, e: unknown): IndexError {
  const code = typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined;
  return {
    _tag: "StorageError",
    backend: "sqlite",
    operation,
    message: messageOf(e),
    ...(code === undefined ? {} : { code }),
  };
}

/** Thrown inside a read transaction when a catch-up must change a restored scope whose lists are not all read yet (caught by the search, which reads them and comes back). */
class NeedsEveryList extends Error {
  constructor() {
    super("every list of the restored scope is needed first");
  }
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
    const snap = decoded.right.snapshots;
    if (snap !== undefined && (snap.dir === undefined) === (snap.store === undefined)) {
      return E.left(
        invalid("InvalidOptions", "sqlite index options", [
          {
            path: "snapshots",
            message: 'snapshots: give dir or store ("database", or a store of your own), one of them',
          },
        ]),
      );
    }
    const table = decoded.right.table ?? "cc_segments";
    const busy = decoded.right.busyTimeoutMs ?? 10_000;
    const weight = decoded.right.summaryWeight ?? 2;
    const cacheBytes = decoded.right.postingsCacheBytes ?? DEFAULT_POSTINGS_CACHE_BYTES;
    // A directory store (or the caller's own) is read while the driver loads (see `preload`).
    const local = snap === undefined ? undefined : ownStore(snap);
    const preloaded =
      snap !== undefined && local !== undefined
        ? preloadSnapshots(
            local,
            table,
            preloadScopes(snap.preload).map((p) => p.key),
            true,
          )
        : undefined;
    const driver = await loadDriver(
      "sqlite",
      SQLITE_DRIVER,
      () => import("better-sqlite3"),
      (mod) => (typeof mod.default === "function" ? mod.default : undefined),
    )();
    if (E.isLeft(driver)) return driver;
    try {
      return E.right(open(driver.right, options.path ?? ":memory:", table, busy, weight, cacheBytes, snap, preloaded));
    } catch (e) {
      return E.left(storageError("open", e));
    }
  };
}

function open(
  Driver: typeof Database,
  path: string,
  table: string,
  busyMs: number,
  weight: number,
  cacheBytes: number,
  snapOptions: DecodedSnapshotOptions | undefined,
  preloaded: Preloaded | undefined,
): SegmentIndex {
  const db = new Driver(path);
  try {
    db.pragma(`busy_timeout = ${busyMs}`);
    if (path !== ":memory:") db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    prepareSchema(db, table);
  } catch (e) {
    db.close();
    throw e;
  }

  // One prepared statement per shape.
  const upsert = db.prepare<unknown[], { rid: number }>(
    `INSERT INTO ${table} (namespace, id, kind, summary, content, token_cost, created_at, evicted_at, metadata, terms, gen)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (namespace, id) DO UPDATE SET kind = excluded.kind, summary = excluded.summary, token_cost = excluded.token_cost,
       created_at = excluded.created_at, evicted_at = excluded.evicted_at, metadata = excluded.metadata, terms = excluded.terms, gen = excluded.gen
     WHERE content = excluded.content
     RETURNING rid`,
  );
  const bump = db.prepare<[], number>(`UPDATE ${table}_gen SET gen = gen + 1 RETURNING gen`).pluck();
  const generation = db.prepare<[], number>(`SELECT gen FROM ${table}_gen`).pluck();
  const dataVersion = db.prepare<[], number>("PRAGMA data_version").pluck();
  const termsFrom = db.prepare<[number], TermsRow>(
    `SELECT rid, namespace, id, kind, terms FROM ${table} WHERE rid > ? ORDER BY rid`,
  );
  const termsSince = db.prepare<[number], TermsRow>(
    `SELECT rid, namespace, id, kind, terms FROM ${table} WHERE gen > ? ORDER BY gen, rid`,
  );
  const deletedSince = db
    .prepare<[number], string>(`SELECT namespace FROM ${table}_log WHERE gen > ? ORDER BY gen`)
    .pluck();
  const logDelete = db.prepare(`INSERT INTO ${table}_log (gen, namespace) VALUES (?, ?)`);
  const byRid = db.prepare<[number], Row>(`SELECT * FROM ${table} WHERE rid = ?`);
  const get = db.prepare<[string, string], Row>(`SELECT * FROM ${table} WHERE namespace = ? AND id = ?`);
  const countAll = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`);
  const countNs = db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM ${table} WHERE namespace = ?`);
  const deleteNs = db.prepare(`DELETE FROM ${table} WHERE namespace = ?`);

  const termsOfNs = db.prepare<[string, string], TermsRow>(
    `SELECT rid, namespace, id, kind, terms FROM ${table} WHERE namespace = ? AND id > ? ORDER BY id`,
  );
  const termsOfNsSince = db.prepare<[string, number], TermsRow>(
    `SELECT rid, namespace, id, kind, terms FROM ${table} WHERE namespace = ? AND gen > ? ORDER BY gen, rid`,
  );
  const identity =
    db
      .prepare<[], string>(`SELECT id FROM "${`${table}_identity`}"`)
      .pluck()
      .get() ?? "";
  let snap: Snapshots | undefined;
  if (snapOptions !== undefined) {
    let store = ownStore(snapOptions);
    if (store === undefined) {
      try {
        store = sqliteSnapshotStore(db, table);
      } catch (e) {
        db.close();
        throw e;
      }
    }
    snap = openSnapshots(
      snapOptions,
      table,
      identity,
      store,
      preloaded ??
        preloadSnapshots(
          store,
          table,
          preloadScopes(snapOptions.preload).map((p) => p.key),
          true,
        ),
      // Read in parts where the store can (a directory): a restore reads the lists a search needs.
      true,
    );
  }

  // The postings caches, one per scope (a namespace, or the whole index for a search across
  // namespaces), under an LRU with a byte cap: keys are entryKey(stored namespace, stored id),
  // handles are rids, and namespaces and kinds are kept in their stored form (encodeText is
  // injective).
  const lru = new ScopeLru<ScopeCache>(cacheBytes);
  interface ScopeCache extends Sized {
    /** The stored namespace, or undefined for the whole index. */
    readonly stored: string | undefined;
    cache: PostingsCache<number>;
    loaded: boolean;
    /** Every change up to this generation is in the cache. */
    cachedGen: number;
    /** What a restore left to read (see `SnapshotContent.later`): no change applies until every list is read. */
    later: LaterPostings | undefined;
    /** A load from the rows in place of a restore whose later part failed (searches wait for it). */
    reloading: Promise<E.Either<IndexError, void>> | undefined;
    seenVersion: number;
    /** Set when the LRU let it go: no longer kept in step by this connection's writes. */
    evicted: boolean;
  }
  const newScope = (stored: string | undefined): ScopeCache => {
    const cache = new PostingsCache<number>();
    // Released by dropping the reference (a search already holding it finishes on it).
    const scope: ScopeCache = {
      stored,
      cache,
      loaded: false,
      cachedGen: 0,
      later: undefined,
      reloading: undefined,
      seenVersion: -1,
      evicted: false,
      bytes: () => scope.cache.bytes(),
      entries: () => scope.cache.live,
      release: () => {
        scope.evicted = true;
        scope.later?.close();
        snap?.forget(scopeKey(stored));
      },
    };
    return scope;
  };
  const item = (r: TermsRow) => ({
    key: entryKey(r.namespace, r.id),
    handle: r.rid,
    terms: r.terms,
    namespace: r.namespace,
    kind: r.kind,
  });
  /** Rows into a cache, a thousand at a time; returns how many. */
  const putRows = (cache: PostingsCache<number>, rows: Iterable<TermsRow>): number => {
    let chunk: ReturnType<typeof item>[] = [];
    let n = 0;
    for (const r of rows) {
      chunk.push(item(r));
      n++;
      if (chunk.length === 1000) {
        cache.putMany(chunk);
        chunk = [];
      }
    }
    cache.putMany(chunk);
    return n;
  };
  /** Brings a loaded scope up to date; runs inside a read transaction (one snapshot). Returns how many entries changed. */
  const sync = (scope: ScopeCache): number => {
    const version = dataVersion.get()!;
    if (version === scope.seenVersion) return 0;
    let changed = 0;
    const gen = generation.get()!;
    if (gen !== scope.cachedGen) {
      // A change needs every list of a restore read first (the caller reads them and comes back).
      if (scope.later !== undefined) throw new NeedsEveryList();
      for (const ns of deletedSince.all(scope.cachedGen)) {
        if (scope.stored === undefined) changed += scope.cache.removeNamespace(ns);
        else if (ns === scope.stored && scope.cache.live > 0) {
          changed += scope.cache.live;
          scope.cache.clear();
        }
      }
      changed += putRows(
        scope.cache,
        scope.stored === undefined
          ? termsSince.iterate(scope.cachedGen)
          : termsOfNsSince.iterate(scope.stored, scope.cachedGen),
      );
      if (changed > 0) lru.touch(scopeKey(scope.stored));
    }
    scope.cachedGen = gen;
    scope.seenVersion = version;
    snap?.changed(scopeKey(scope.stored), changed);
    return changed;
  };
  /** The snapshot of a loaded scope as it is now (undefined once it is gone). */
  const snapshotOf = (scope: ScopeCache) => (): SnapshotContent | undefined => {
    // (A restore with lists still to read has taken no change: its snapshot is the one stored.)
    if (closed || scope.evicted || !scope.loaded || scope.later !== undefined) return undefined;
    const cache = scope.cache;
    const image = cache.image();
    const rids = new Float64Array(image.docCount);
    for (let d = 0; d < image.docCount; d++) if (image.docLive[d] === 1) rids[d] = cache.handleOf(d);
    return { identity, scope: scopeKey(scope.stored), generation: scope.cachedGen, image, docExtra: rids, marks: [] };
  };
  const countScope = (scope: ScopeCache): number =>
    (scope.stored === undefined ? countAll.get() : countNs.get(scope.stored))?.n ?? 0;
  /** Empties a scope whose restore is not to be used (its file let go). */
  const dropRestore = (scope: ScopeCache): void => {
    scope.later?.close();
    scope.later = undefined;
    scope.cache = new PostingsCache<number>();
    scope.loaded = false;
  };
  /** Reads every list a restore left to read; false (reported, the scope emptied) when that failed. */
  const readEveryList = async (scope: ScopeCache): Promise<boolean> => {
    const later = scope.later;
    if (later === undefined) return true;
    const failure = await later.loadAll();
    if (scope.later !== later) return scope.loaded && scope.later === undefined;
    if (failure === undefined) {
      scope.later = undefined;
      return true;
    }
    snap?.laterFailure(scope.stored === undefined ? undefined : decodeText(scope.stored), failure);
    dropRestore(scope);
    return false;
  };
  /**
   * Makes a held scope usable for a search of `terms`: the lists a restore left to read are read
   * (every list, with `every`); when that fails the scope is loaded from the rows in place (one
   * load, however many searches wait for it).
   */
  const readyFor = async (
    scope: ScopeCache,
    terms: readonly string[],
    every: boolean,
  ): Promise<E.Either<IndexError, void>> => {
    if (scope.reloading !== undefined) return scope.reloading;
    const later = scope.later;
    if (later === undefined) return E.right(undefined);
    const ok = every
      ? await readEveryList(scope)
      : await later.load(scope.cache.unreadRanges(terms)).then((failure) => {
          if (failure === undefined || scope.later !== later) return failure === undefined;
          snap?.laterFailure(scope.stored === undefined ? undefined : decodeText(scope.stored), failure);
          dropRestore(scope);
          return false;
        });
    if (ok) return E.right(undefined);
    if (scope.reloading !== undefined) return scope.reloading;
    if (scope.loaded) return E.right(undefined);
    const reload = loadSliced(scope, false).finally(() => {
      scope.reloading = undefined;
    });
    scope.reloading = reload;
    return reload;
  };
  /**
   * Restores a scope from its snapshot, caught up by generation (the rows written since and the
   * namespace deletions since, in one read transaction), and checks its entry count against the
   * table's. False (the scope left empty) when there is no usable snapshot.
   */
  const restore = async (scope: ScopeCache, s: Snapshots): Promise<boolean> => {
    const key = scopeKey(scope.stored);
    const namespace = scope.stored === undefined ? undefined : decodeText(scope.stored);
    // The scope's entry count and the counter, in one read transaction, counted as the snapshot's
    // first bytes arrive (while the file's next parts are read): the check below then costs no
    // count when nothing was written meanwhile. A failure means the exact check below.
    let early: { readonly gen: number; readonly n: number } | undefined;
    const startCount = (): void => {
      try {
        if (!closed) early = db.transaction(() => ({ gen: generation.get()!, n: countScope(scope) }))();
      } catch {
        early = undefined;
      }
    };
    const content = await s.read(key, namespace, generation.get()!, startCount);
    if (content === undefined || closed) {
      content?.later?.close();
      return false;
    }
    const rids = content.docExtra;
    if (rids === undefined || rids.length !== content.image.docCount) {
      s.contradicted(namespace, "no row ids in the snapshot");
      return false;
    }
    scope.cache = PostingsCache.restore<number>(content.image, (d) => rids[d]!);
    s.track(key, namespace, snapshotOf(scope), content.image.live);
    scope.loaded = true;
    scope.cachedGen = content.generation;
    scope.seenVersion = -1;
    scope.later = content.later;
    // Caught up; when the early count saw the generation the cache is now at, it is this state's
    // count. Otherwise (written meanwhile, or no early count) the catch-up and the count in one transaction.
    const catchUp = (): number =>
      db.transaction(() => {
        sync(scope);
        return early !== undefined && early.gen === scope.cachedGen ? early.n : countScope(scope);
      })();
    let counted: number;
    try {
      counted = catchUp();
    } catch (e) {
      if (!(e instanceof NeedsEveryList)) throw e;
      // Written meanwhile: every list is read before the catch-up applies (a failure: loaded from the rows).
      if (!(await readEveryList(scope))) return false;
      counted = catchUp();
    }
    if (counted !== scope.cache.live) {
      s.contradicted(namespace, `${scope.cache.live} entries after catching up, the table has ${counted}`);
      dropRestore(scope);
      return false;
    }
    s.restoredScope(namespace, content);
    lru.loads++;
    return true;
  };
  /**
   * Loads a scope's rows into its cache, slice by slice, yielding to the event loop between
   * slices: the whole index in rid order; one namespace through the (namespace, id) index,
   * then put in rid order (write order, as the whole-index load). Each slice is its own read:
   * rows written meanwhile (here or by another connection) carry a generation newer than
   * `from`, and namespaces deleted meanwhile are in the log after it, so the first {@link sync}
   * (which runs right after, in the search's read transaction) brings the cache to one
   * consistent snapshot. Stops with `IndexClosed` when the index is closed between slices.
   */
  const loadSliced = async (scope: ScopeCache, fromSnapshot = true): Promise<E.Either<IndexError, void>> => {
    if (closed) return E.left({ _tag: "IndexClosed", backend: "sqlite" });
    capPageCache();
    try {
      return await readScope(scope, fromSnapshot);
    } finally {
      uncapPageCache();
    }
  };
  /** Loads in flight, and the connection's page cache setting (`PRAGMA cache_size`) outside them. */
  let loadsReading = 0;
  let outsideLoads = 0;
  /** The first load in flight caps the page cache at {@link LOAD_PAGE_CACHE_KIB}. */
  const capPageCache = (): void => {
    if (loadsReading === 0) {
      outsideLoads = Number(db.pragma("cache_size", { simple: true }));
      db.pragma(`cache_size = -${LOAD_PAGE_CACHE_KIB}`);
    }
    loadsReading++;
  };
  /** The last load in flight gives the connection its own page cache setting back. */
  const uncapPageCache = (): void => {
    loadsReading--;
    if (loadsReading === 0 && db.open) db.pragma(`cache_size = ${outsideLoads}`);
  };
  /** Bytes SQLite's page cache may hold, from a `PRAGMA cache_size` value (pages, or KiB when negative). */
  const pageCacheBytes = (size: unknown): number => {
    const n = Number(size);
    return n < 0 ? -n * 1024 : n * Number(db.pragma("page_size", { simple: true }));
  };
  /** {@link loadSliced}'s reads, under the capped page cache. */
  const readScope = async (scope: ScopeCache, fromSnapshot: boolean): Promise<E.Either<IndexError, void>> => {
    if (fromSnapshot && snap !== undefined && (await restore(scope, snap))) return E.right(undefined);
    if (closed) return E.left({ _tag: "IndexClosed", backend: "sqlite" });
    scope.cache.clear();
    const from = generation.get()!;
    const held: TermsRow[] = [];
    let afterRid = 0;
    let afterId = "";
    let read = 0;
    for (;;) {
      const slice: TermsRow[] = [];
      let chars = 0;
      // Leaving the loop early returns the iterator, which resets the statement.
      for (const r of scope.stored === undefined
        ? termsFrom.iterate(afterRid)
        : termsOfNs.iterate(scope.stored, afterId)) {
        slice.push(r);
        chars += r.terms.length;
        if (slice.length >= LOAD_SLICE_ROWS || chars >= LOAD_SLICE_CHARS) break;
      }
      read += slice.length;
      if (scope.stored === undefined) putRows(scope.cache, slice);
      else for (const r of slice) held.push(r);
      if (slice.length === 0) break;
      afterRid = slice[slice.length - 1]!.rid;
      afterId = slice[slice.length - 1]!.id;
      await nextTurn();
      if (closed) return E.left({ _tag: "IndexClosed", backend: "sqlite" });
    }
    if (held.length > 0)
      putRows(
        scope.cache,
        held.sort((a, b) => a.rid - b.rid),
      );
    scope.cache.pack();
    scope.loaded = true;
    scope.cachedGen = from;
    scope.seenVersion = -1;
    lru.loads++;
    lru.loadedEntries += read;
    snap?.schedule(
      scopeKey(scope.stored),
      scope.stored === undefined ? undefined : decodeText(scope.stored),
      snapshotOf(scope),
    );
    return E.right(undefined);
  };
  /** The one load in flight per scope: concurrent first searches of a scope wait for the same one. */
  const loading = new Map<string, Promise<E.Either<IndexError, ScopeCache>>>();
  const ensureLoaded = async (
    stored: string | undefined,
    namespace: string | undefined,
  ): Promise<E.Either<IndexError, ScopeCache>> => {
    const key = scopeKey(stored);
    const held = lru.get(key);
    if (held !== undefined) return E.right(held);
    let pending = loading.get(key);
    if (pending === undefined) {
      const scope = newScope(stored);
      pending = loadSliced(scope)
        .catch((e: unknown) => E.left(storageError("search", e)))
        .then((r): E.Either<IndexError, ScopeCache> => {
          loading.delete(key);
          if (E.isLeft(r)) {
            scope.cache.clear();
            return r;
          }
          if (!closed) lru.set(key, namespace, scope);
          // Loaded after the index closed: what a restore left to read is let go.
          else scope.later?.close();
          return E.right(scope);
        });
      loading.set(key, pending);
    }
    return pending;
  };
  /** After this connection committed generation `gen`: a held scope is complete up to it when nothing came between. */
  const advance = (gen: number): void => {
    for (const scope of lru.values())
      if (scope.loaded && scope.later === undefined && scope.cachedGen === gen - 1) scope.cachedGen = gen;
  };

  interface Staged {
    readonly key: string;
    readonly rid: number;
    readonly namespace: string;
    readonly kind: string;
    readonly summary: readonly string[];
    readonly content: readonly string[];
  }
  const writeAll = db.transaction((batch: readonly IndexEntry[]): { gen: number; staged: Staged[] } => {
    const gen = bump.get()!;
    const staged: Staged[] = [];
    for (const e of batch) {
      const namespace = encodeText(e.namespace);
      const id = encodeText(e.id);
      const kind = encodeText(e.kind);
      const summary = indexedTerms(e.summary);
      const content = indexedTerms(e.content);
      const row = upsert.get(
        namespace,
        id,
        kind,
        encodeText(e.summary),
        encodeText(e.content),
        e.tokenCost,
        e.createdAt,
        e.evictedAt,
        JSON.stringify(e.metadata),
        termsColumn(summary, content),
        gen,
      );
      // No row: the (namespace, id) holds a different original; the transaction rolls back.
      if (row === undefined) throw new IdConflictSignal(e.namespace, e.id);
      staged.push({ key: entryKey(namespace, id), rid: row.rid, namespace, kind, summary, content });
    }
    return { gen, staged };
  });
  const dropNamespace = db.transaction((namespace: string): { gen: number; n: number } => {
    const gen = bump.get()!;
    logDelete.run(gen, namespace);
    return { gen, n: deleteNs.run(namespace).changes };
  });
  const searchRows = db.transaction(
    (scope: ScopeCache, terms: readonly string[], k: number, kinds: readonly string[] | undefined) => {
      sync(scope);
      const ranked = rank(scope.cache, terms, {
        k,
        summaryWeight: weight,
        namespace: scope.stored,
        kinds: kinds?.map(encodeText),
      });
      const rows: { row: Row; score: number }[] = [];
      for (const r of ranked) {
        const row = byRid.get(r.handle);
        if (row !== undefined) rows.push({ row, score: r.score });
      }
      return rows;
    },
  );

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

  const search =
    (query: string, opts?: SearchOptions): TE.TaskEither<IndexError, readonly SearchHit[]> =>
    async () => {
      const asked = await run("search", () => {
        const resolved = resolveSearchOptions(opts);
        if (E.isLeft(resolved)) return resolved;
        const { k, namespace, kinds } = resolved.right;
        const terms = queryTerms(typeof query === "string" ? query : "");
        return E.right(
          terms.length === 0 || (kinds !== undefined && kinds.length === 0)
            ? undefined
            : { terms, k, namespace, kinds },
        );
      })();
      if (E.isLeft(asked)) return asked;
      if (asked.right === undefined) return E.right([]);
      const { terms, k, namespace, kinds } = asked.right;
      const stored = namespace === undefined ? undefined : encodeText(namespace);
      let ready = await ensureLoaded(stored, namespace);
      // Evicted by another scope's load before this search ran on it: load it again (once more at most).
      for (let i = 0; i < 2 && E.isRight(ready) && ready.right.evicted; i++)
        ready = await ensureLoaded(stored, namespace);
      if (E.isLeft(ready)) return ready;
      const scope = ready.right;
      // The query's lists of a restore read in parts; every list when a catch-up needs them (at most twice).
      let rows: ReturnType<typeof searchRows> | undefined;
      for (let attempt = 0; rows === undefined; attempt++) {
        const usable = await readyFor(scope, terms, attempt > 0);
        if (E.isLeft(usable)) return usable;
        const got = await run("search", () => {
          try {
            return E.right(searchRows(scope, terms, k, kinds));
          } catch (e) {
            if (e instanceof NeedsEveryList && attempt < 2) return E.right(undefined);
            throw e;
          }
        })();
        if (E.isLeft(got)) return got;
        rows = got.right;
      }
      const found = rows;
      return run("search", () =>
        E.right(
          found.map(({ row: r, score }) => {
            const summary = decodeText(r.summary);
            return {
              id: decodeText(r.id),
              namespace: decodeText(r.namespace),
              kind: decodeText(r.kind),
              summary,
              snippet: bestSnippet(searchable(summary), searchable(decodeText(r.content)), terms),
              score,
              tokenCost: r.token_cost,
              createdAt: r.created_at,
              evictedAt: r.evicted_at,
            };
          }),
        ),
      )();
    };

  const index: SegmentIndex = {
    backend: "sqlite",
    write: (batch) =>
      run("write", () => {
        const valid = validateEntries(batch);
        if (E.isLeft(valid)) return valid;
        if (valid.right.length === 0) return E.right({ written: 0 });
        let done: { gen: number; staged: Staged[] };
        try {
          done = writeAll.immediate(valid.right);
        } catch (e) {
          if (e instanceof IdConflictSignal) return E.left(idConflict("sqlite", e.namespace, e.id));
          throw e;
        }
        for (const scope of lru.values()) {
          if (!scope.loaded) continue;
          // A restore with lists still to read takes no change here: its next search catches up (reading them first).
          if (scope.later !== undefined) {
            scope.seenVersion = -1;
            continue;
          }
          const mine =
            scope.stored === undefined ? done.staged : done.staged.filter((s) => s.namespace === scope.stored);
          if (mine.length === 0) continue;
          scope.cache.putMany(
            mine.map((s) => ({ key: s.key, handle: s.rid, terms: s, namespace: s.namespace, kind: s.kind })),
          );
          lru.touch(scopeKey(scope.stored));
          snap?.changed(scopeKey(scope.stored), mine.length);
        }
        advance(done.gen);
        return E.right({ written: valid.right.length });
      }),
    search,
    expand: (id: string, namespace: string = DEFAULT_NAMESPACE) =>
      run("expand", () => {
        const row = get.get(encodeText(namespace), encodeText(id));
        return E.right(row === undefined ? undefined : toEntry(row));
      }),
    deleteNamespace: (namespace: string) =>
      run("deleteNamespace", () => {
        const stored = encodeText(namespace);
        const { gen, n } = dropNamespace.immediate(stored);
        for (const scope of lru.values()) {
          if (scope.later !== undefined) {
            scope.seenVersion = -1;
            continue;
          }
          let gone = 0;
          if (scope.stored === undefined) gone = scope.cache.removeNamespace(stored);
          else if (scope.stored === stored) {
            gone = scope.cache.live;
            scope.cache.clear();
          }
          snap?.changed(scopeKey(scope.stored), gone);
        }
        advance(gen);
        return E.right(n);
      }),
    count: (namespace?: string) =>
      run("count", () =>
        E.right((namespace === undefined ? countAll.get() : countNs.get(encodeText(namespace)))?.n ?? 0),
      ),
    close: () => async () => {
      // Snapshot writes in flight (or due) finish first: they read the caches, not the file.
      if (!closed) await snap?.flush();
      return run("close", () => {
        closed = true;
        lru.clear();
        db.close();
        return E.right(undefined);
      })();
    },
  };
  registerCacheStats(index, () => ({
    ...lru.stats(),
    ...(db.open ? { pageCacheBytes: pageCacheBytes(db.pragma("cache_size", { simple: true })) } : {}),
    ...(snap === undefined ? {} : { snapshots: snap.stats() }),
  }));
  // Preloaded scopes load now, in the background (their snapshots are being read already): a
  // first search waits for the same load; a failure is the first search's to report (it loads again).
  for (const p of preloadScopes(snapOptions?.preload)) void ensureLoaded(p.stored, p.namespace);
  return index;
}
