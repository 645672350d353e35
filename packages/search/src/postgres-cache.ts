/**
 * The PostgreSQL index's postings cache: loaded from the table's `tsv` column (summary lexemes
 * carry weight A, content lexemes the default weight, read through {@link TSV_TERMS}) on the
 * first search, and kept in step by generation.
 * Every search reads the counter (`<table>_gen`, one indexed row); when it moved, the rows
 * written since and the namespace deletions since are fetched in one snapshot and applied.
 *
 * Writes of this process are applied as they commit. Because a fetch and a write of the same
 * process can interleave, every entry remembers the generation it was applied at and every
 * deleted namespace the generation of its deletion: an older version never replaces a newer
 * one, and a row written before a deletion never comes back.
 *
 * @module search/postgres-cache
 */
import type { Buffer } from "node:buffer";
import { entryKey } from "./contract.js";
import { PostingsCache, type CacheItem, type ColumnTerms, type EntryTerms } from "./ranking/postings.js";
import type { LaterFailure, LaterPostings, SnapshotContent } from "./ranking/snapshot.js";
import { rank, type RankedHandle, type RankOptions } from "./ranking/topk.js";
import {
  arrayElements,
  binaryCopyDecoder,
  copyOutOf,
  elementLength,
  int8At,
  INT8_OID,
  sqlLiteral,
  TEXT_OID,
  type CopyOut,
} from "./pg-copy.js";
import type { SqlClient, SqlRunner } from "./sql.js";

/**
 * The SQL that reads a row's `tsv` as a terms column (see `ColumnTerms` of the postings cache):
 * the summary lexemes (weight A), a tab, the content lexemes (weights B, C and D, the default),
 * each field in the tsvector's order, space-separated and unescaped. The server evaluates it
 * with tsvector functions written in C, so the cache scans one plain string per row, in one pass,
 * as it scans SQLite's stored column, instead of parsing the quoted text form with its positions
 * (half the characters, and a string per lexeme). Every lexeme the index writes has a position
 * (a lexeme without one would be left out) and no space or tab (a term of `indexedTerms`).
 *
 * @example
 * const sql = `SELECT ${TSV_TERMS} AS terms FROM cc_segments WHERE namespace = $1`;
 * // A row whose tsv is 'app':2A 'main':1A,4 'py':3 gives terms "app main\tmain py".
 */
export const TSV_TERMS = `array_to_string(tsvector_to_array(ts_filter(tsv, '{a}')), ' ') || E'\\t' || array_to_string(tsvector_to_array(ts_filter(tsv, '{b,c,d}')), ' ')`;

/** Where a hit's row is: namespace and id in their stored form. */
export interface RowKey {
  readonly namespace: string;
  readonly id: string;
}

/** An entry this process wrote (strings stored-form), with its terms. */
export interface StagedEntry extends RowKey {
  readonly kind: string;
  readonly terms: EntryTerms;
}

interface CacheRow {
  readonly namespace: string;
  readonly id: string;
  readonly kind: string;
  readonly gen: string | number;
  /** The row's terms as a terms column ({@link TSV_TERMS}). */
  readonly terms: string;
}

/** Whether `b[from..from + length)` holds the bytes of `a`. */
function sameBytes(a: Uint8Array, b: Uint8Array, from: number, length: number): boolean {
  if (a.length !== length) return false;
  for (let i = 0; i < length; i++) if (a[i] !== b[from + i]) return false;
  return true;
}

/** Rows per tuple of a namespace read by COPY (see `namespaceRowsByCopy`). */
const COPY_ROWS = 100;

/** What reading a namespace's rows did: the rows read, and how many of them were put (newer than what the cache held). */
interface RowsRead {
  readonly rows: number;
  readonly put: number;
}

/** Rows per page of the cursor that loads the cache. */
const PAGE_ROWS = 5000;

/** The cache of one index instance. */
export interface PgPostingsCache {
  /** Brings the cache up to date with the table (one round trip when nothing changed). */
  readonly sync: () => Promise<void>;
  /** True when the cache holds every change up to generation `gen` (and was loaded). */
  readonly current: (gen: number) => boolean;
  /** True once the first load happened. */
  readonly isLoaded: () => boolean;
  /**
   * Settles the check of a scope just restored from a snapshot (its entry count against the
   * table's, counted by the server while the search ranks): a contradicted restore is dropped
   * (`isLoaded()` is false again, the next sync loads from the rows, not from that snapshot).
   * True when the cache is as it was before (none pending, or the count agreed at once); false
   * when the check changed it (a catch-up, or the restore dropped): what was ranked on it is stale.
   */
  readonly settled: () => Promise<boolean>;
  /**
   * Reads the postings lists of these query terms that a restore left to read later (see
   * `SnapshotContent.later`), before a search ranks on them. False when the snapshot failed
   * meanwhile (a damaged page, a store failure, the scope let go): the restore is dropped and
   * `isLoaded()` is false again (the next sync loads from the rows).
   */
  readonly prepare: (terms: readonly string[]) => Promise<boolean>;
  /** Lets go of what a restore left to read (the scope is evicted or the index closed). */
  readonly release: () => void;
  /** Ranks the query terms; filters in stored form. */
  readonly rank: (terms: readonly string[], options: RankOptions) => RankedHandle<RowKey>[];
  /** Applies this process's committed write of generation `gen`. */
  readonly wrote: (gen: number, entries: readonly StagedEntry[]) => void;
  /** Applies this process's committed deletion of a namespace (stored form) at generation `gen`. */
  readonly deleted: (gen: number, namespace: string) => void;
  readonly clear: () => void;
  /** Estimated bytes held (see `PostingsCache.bytes`). */
  readonly bytes: () => number;
  /** Live entries held. */
  readonly entries: () => number;
  /** First loads done (see `loadedRows`). */
  readonly loads: () => number;
  /** Rows read by the last first load (0 before it, and after a restore). */
  readonly loadedRows: () => number;
  /** The cache as a snapshot (its state now, complete up to the generation it names); undefined before the first load. */
  readonly snapshot: (identity: string, scope: string) => SnapshotContent | undefined;
}

/** How a cache uses snapshots (see `search/snapshots`): all optional hooks of the first load. */
export interface PgSnapshotHooks {
  /** The scope's snapshot, checked against the index and its current generation; undefined when there is none to use. */
  readonly read: (currentGen: number, found?: () => void) => Promise<SnapshotContent | undefined>;
  /** A restored snapshot that the table contradicts (its entry count after the catch-up). */
  readonly contradicted: (detail: string) => void;
  /** A restored snapshot whose postings, read later, failed (see `SnapshotContent.later`). */
  readonly laterFailure: (failure: LaterFailure) => void;
  /** The cache was restored from `content`. */
  readonly restored: (content: SnapshotContent) => void;
  /** The cache was loaded from the rows (time to write a snapshot). */
  readonly loadedFromRows: () => void;
  /** Entries changed by a catch-up or by this process's writes. */
  readonly changed: (n: number) => void;
}

/**
 * Set in a transaction that counts a scope's rows: one server process scans the index, not a
 * leader and its parallel workers. The count checks a restore in the background (it overlaps the
 * snapshot's read); in parallel it takes about three times the CPU for a little less wall time,
 * and takes parallel workers from every other query of a fleet whose workers start at once.
 */
const SERIAL_COUNT = "SET LOCAL max_parallel_workers_per_gather = 0";

/** A restored snapshot and the entry count the server is taking meanwhile (undefined when it failed). */
interface PendingCheck {
  readonly content: SnapshotContent;
  readonly early: Promise<{ readonly gen: number; readonly n: number } | undefined>;
}

/** The handle of an entry from its key (`entryKey(namespace, id)`). */
function rowKeyOf(key: string): RowKey {
  const colon = key.indexOf(":");
  const n = Number(key.slice(0, colon));
  return { namespace: key.slice(colon + 1, colon + 1 + n), id: key.slice(colon + 1 + n) };
}

/**
 * The postings cache of the PostgreSQL index on `table` (names already validated): of one
 * namespace (stored form), or of every namespace when `namespace` is undefined. A namespace's
 * cache reads and keeps only that namespace's rows, so its statistics are the namespace's own.
 *
 * @example const cache = pgPostingsCache(client, "cc_segments", "run-1"); await cache.sync();
 */
export function pgPostingsCache(
  client: SqlClient,
  table: string,
  namespace?: string,
  hooks?: PgSnapshotHooks,
): PgPostingsCache {
  let cache = new PostingsCache<RowKey>();
  /** Per key, the generation its entry was applied at (after a restore, built from `restoredGens` on first use). */
  let genMap: Map<string, number> | undefined = new Map<string, number>();
  let restoredGens: Float64Array | undefined;
  const genOfMap = (): Map<string, number> => {
    if (genMap !== undefined) return genMap;
    const m = new Map<string, number>();
    const gens = restoredGens!;
    for (let d = 0; d < gens.length; d++)
      if (cache.docLive[d] === 1 && d < cache.docCount) m.set(cache.keyOf(d), gens[d]!);
    genMap = m;
    restoredGens = undefined;
    return m;
  };
  const genOf = {
    get: (key: string): number | undefined => genOfMap().get(key),
    set: (key: string, gen: number): void => void genOfMap().set(key, gen),
    delete: (key: string): void => void genOfMap().delete(key),
    clear: (): void => {
      genMap = new Map<string, number>();
      restoredGens = undefined;
    },
  };
  const deletedAt = new Map<string, number>();
  let loaded = false;
  /** A restore whose entry count is not checked yet (see `settled`). */
  let unchecked: PendingCheck | undefined;
  /** The check of a restore while it runs (see `settled`). */
  let checking: Promise<boolean> | undefined;
  /** A restore of this scope was contradicted by the table: load from the rows from now on. */
  let refused = false;
  /** What the restore left to read (see `SnapshotContent.later`); undefined once every list is read. */
  let later: LaterPostings | undefined;
  /** Drops a restore whose later part failed: reported, the cache emptied, never restored again by this cache. */
  const dropLater = (failure: LaterFailure): void => {
    hooks?.laterFailure(failure);
    refused = true;
    reset();
  };
  /** Reads every list a restore left to read, before a change; false when that failed (the restore dropped). */
  const readAll = async (): Promise<boolean> => {
    const l = later;
    if (l === undefined || !loaded) return true;
    const failure = await l.loadAll();
    if (later !== l) return false;
    if (failure !== undefined) {
      dropLater(failure);
      return false;
    }
    later = undefined;
    return true;
  };
  /** Every change up to this generation is in the cache. */
  let cachedGen = -1;
  let queue: Promise<void> = Promise.resolve();
  let firstRows = 0;
  /** First loads done (a restore, or the rows): a restore dropped and loaded again counts twice. */
  let loads = 0;
  const mine = (ns: string): boolean => namespace === undefined || ns === namespace;

  /** During the first load, the generation of each entry put so far (by entry number), and how many. */
  let firstGens: Float64Array | undefined;
  let firstCount = 0;
  /** Rows taken by {@link putRow} and not yet in the cache (put a thousand at a time, and by {@link flush}). */
  let pending: CacheItem<RowKey>[] = [];
  /** Puts what {@link putRow} took and has not put yet. */
  const flush = (): void => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    cache.putMany(batch);
  };
  /**
   * Takes one row when it is newer than what the cache holds of its key and namespace (true), to be
   * put with the next thousand or by {@link flush}; every caller flushes before it returns or throws.
   */
  const putRow = (gen: number, ns: string, id: string, kind: string, terms: EntryTerms | ColumnTerms): boolean => {
    const key = entryKey(ns, id);
    if (firstGens !== undefined) {
      // The first load: rows of one snapshot into an empty cache, each its own entry in row order
      // (a key met twice replaces its entry with a new one), so a generation is kept per entry
      // number, as a restore keeps them, and no map is made until one is needed.
      const doc = firstCount++;
      if (doc >= firstGens.length) {
        const grown = new Float64Array(firstGens.length * 2);
        grown.set(firstGens);
        firstGens = grown;
      }
      firstGens[doc] = gen;
    } else {
      if ((genOf.get(key) ?? -1) >= gen || (deletedAt.get(ns) ?? -1) >= gen) return false;
      genOf.set(key, gen);
    }
    pending.push({ key, handle: { namespace: ns, id }, terms, namespace: ns, kind });
    if (pending.length === 1000) flush();
    return true;
  };
  /** Takes each item with `take` (true when it put one, see {@link putRow}), then puts what was taken; how many were. */
  const putAll = <T>(items: Iterable<T>, take: (item: T) => boolean): number => {
    let n = 0;
    try {
      for (const item of items) if (take(item)) n++;
    } finally {
      flush();
    }
    return n;
  };
  /** {@link putRow} of a row as the table gives it. */
  const takeRow = (r: CacheRow): boolean => putRow(Number(r.gen), r.namespace, r.id, r.kind, r.terms);
  const drop = (gen: number, namespace: string): number => {
    deletedAt.set(namespace, Math.max(gen, deletedAt.get(namespace) ?? -1));
    const ns = cache.namespaceId(namespace);
    if (ns < 0) return 0;
    const gone: string[] = [];
    for (let d = 0; d < cache.docCount; d++) {
      if (cache.docLive[d] !== 1 || cache.docNs[d] !== ns) continue;
      const key = cache.keyOf(d);
      if ((genOf.get(key) ?? -1) < gen) gone.push(key);
    }
    for (const key of gone) {
      cache.remove(key);
      genOf.delete(key);
    }
    return gone.length;
  };
  /** A namespace's rows newer than `since`, in write order, into the cache with a plain query: the rows read, and how many were put. */
  const namespaceRowsByQuery = async (tx: SqlRunner, ns: string, since: number): Promise<RowsRead> => {
    const page = await tx.query<CacheRow>(
      `SELECT namespace, id, kind, gen, ${TSV_TERMS} AS terms FROM ${table} WHERE namespace = $1 AND gen > $2 ORDER BY gen, id COLLATE "C"`,
      [ns, since],
    );
    const put = putAll(page.rows, takeRow);
    return { rows: page.rows.length, put };
  };
  /**
   * The same rows read by binary COPY: each tuple is decoded into its id, kind and terms strings
   * and a number, and goes into the cache a batch at a time while the rest is still arriving.
   * The namespace and `since` are written into the statement (COPY takes no parameters): the
   * namespace as a quoted literal, `since` as this process's own integer counter.
   */
  const namespaceRowsByCopy = async (copy: CopyOut, ns: string, since: number): Promise<RowsRead> => {
    let rows = 0;
    let put = 0;
    // A row's kind is one of a few: each is decoded once, and found again by its bytes.
    const kinds: { readonly bytes: Uint8Array; readonly text: string }[] = [];
    const kindAt = (b: Buffer, from: number, length: number): string => {
      // (An indexed loop: a first load runs this before it is optimized, when `for…of` makes an iterator and a result per step.)
      for (let i = 0; i < kinds.length; i++) if (sameBytes(kinds[i]!.bytes, b, from, length)) return kinds[i]!.text;
      const bytes = Uint8Array.prototype.slice.call(b, from, from + length);
      const text = b.toString("utf8", from, from + length);
      kinds.push({ bytes, text });
      return text;
    };
    // Each tuple holds up to COPY_ROWS rows, as four arrays (ids, kinds, generations, terms) in
    // write order: a message per hundred rows instead of one per row (a message costs the
    // driver a few objects), each message under the 64 KiB a socket read brings.
    const decoder = binaryCopyDecoder(4, (b, start, length) => {
      const ids = arrayElements(b, start[0]!, length[0]!, TEXT_OID);
      const ks = arrayElements(b, start[1]!, length[1]!, TEXT_OID);
      const gens = arrayElements(b, start[2]!, length[2]!, INT8_OID);
      const ts = arrayElements(b, start[3]!, length[3]!, TEXT_OID);
      const n = ids.count;
      if (ks.count !== n || gens.count !== n || ts.count !== n)
        throw new Error("malformed binary COPY data: arrays of rows of different lengths");
      let a = ids.at;
      let k = ks.at;
      let g = gens.at;
      let t = ts.at;
      for (let i = 0; i < n; i++) {
        const la = elementLength(b, a);
        const lk = elementLength(b, k);
        const lg = elementLength(b, g);
        const lt = elementLength(b, t);
        if (la < 0 || lk < 0 || lg < 0 || lt < 0)
          throw new Error("malformed binary COPY data: a row without its id, kind, generation or terms");
        const id = b.toString("utf8", a + 4, a + 4 + la);
        const kind = kindAt(b, k + 4, lk);
        const gen = int8At(b, g + 4, lg);
        const terms = b.toString("utf8", t + 4, t + 4 + lt);
        a += 4 + la;
        k += 4 + lk;
        g += 4 + lg;
        t += 4 + lt;
        rows++;
        if (putRow(gen, ns, id, kind, terms)) put++;
      }
    });
    const order = `gen, id COLLATE "C"`;
    try {
      await copy(
        `COPY (SELECT array_agg(id ORDER BY o), array_agg(kind ORDER BY o), array_agg(gen ORDER BY o), array_agg(terms ORDER BY o) FROM (SELECT id::text AS id, kind::text AS kind, gen::int8 AS gen, ${TSV_TERMS} AS terms, row_number() OVER (ORDER BY ${order}) AS o FROM ${table} WHERE namespace = ${sqlLiteral(ns)} AND gen > ${String(Math.trunc(since))}) r GROUP BY (o - 1) / ${COPY_ROWS} ORDER BY (o - 1) / ${COPY_ROWS}) TO STDOUT (FORMAT binary)`,
        decoder.feed,
      );
      decoder.done();
    } finally {
      // Rows already taken are committed rows of this snapshot: they go in even when the copy failed after them.
      flush();
    }
    return { rows, put };
  };
  const reset = (): void => {
    firstRows = 0;
    later?.close();
    later = undefined;
    unchecked = undefined;
    cache = new PostingsCache<RowKey>();
    genOf.clear();
    deletedAt.clear();
    loaded = false;
    cachedGen = -1;
  };

  /** The first load from a snapshot, caught up and checked against the table's entry count; false when there is none to use. */
  const restore = async (h: PgSnapshotHooks, gen: number): Promise<boolean> => {
    // The scope's entry count and the counter, in one statement (one snapshot of the table),
    // counted by the server while the snapshot file is read: the check below then costs no
    // wait when nothing was written meanwhile. It never rejects (a failure means the exact check).
    // Started once the snapshot's first bytes are read (none is counted when there is no file).
    let early: Promise<{ readonly gen: number; readonly n: number } | undefined> = Promise.resolve(undefined);
    const startCount = (): void => {
      early = client
        .transaction(async (tx) => {
          await tx.query(SERIAL_COUNT);
          return tx.query<{ gen: string | number | null; n: string | number | null }>(
            `SELECT (SELECT gen FROM ${table}_gen) AS gen, (SELECT count(*) FROM ${table} WHERE $1::text IS NULL OR namespace = $1) AS n`,
            [namespace ?? null],
          );
        })
        .then(
          (r) => ({ gen: Number(r.rows[0]?.gen ?? Number.NaN), n: Number(r.rows[0]?.n ?? Number.NaN) }),
          () => undefined,
        );
    };
    const content = await h.read(gen, startCount);
    if (content === undefined) return false;
    const gens = content.docExtra;
    if (gens === undefined || gens.length !== content.image.docCount) {
      h.contradicted("no entry generations in the snapshot");
      return false;
    }
    cache = PostingsCache.restore<RowKey>(content.image, (_d, key) => rowKeyOf(key));
    genMap = undefined;
    restoredGens = gens;
    deletedAt.clear();
    for (const [ns, g] of content.marks) deletedAt.set(ns, g);
    loaded = true;
    cachedGen = content.generation;
    later = content.later;
    loads++;
    // Checked later (see `settled`): a search ranks on the restored cache while the server counts.
    unchecked = { content, early };
    return true;
  };

  /** The check of a restore: the early count, else a catch-up and the exact count; a contradicted restore is reset. */
  const check = async ({ content, early }: PendingCheck): Promise<boolean> => {
    const h = hooks!;
    try {
      // When the early count saw the generation the cache is at (the snapshot's own, when nothing
      // was written since), it is this state's count. Otherwise catch up and compare again; else
      // (written meanwhile, or no early count) the exact check: the catch-up and the count in one
      // transaction.
      const seen = await early;
      const agrees = (): boolean => seen !== undefined && seen.gen === cachedGen && seen.n === cache.live;
      if (agrees()) {
        h.restored(content);
        return true;
      }
      await fetch(false);
      if (agrees()) {
        h.restored(content);
        return false;
      }
      const counted = await fetch(true);
      if (counted === cache.live) {
        h.restored(content);
        return false;
      }
      h.contradicted(`${cache.live} entries after catching up, the table has ${counted}`);
    } catch (e) {
      reset();
      throw e;
    }
    refused = true;
    reset();
    return false;
  };
  /** Settles the pending check, if any (in the sync queue: after the syncs before it). */
  const settle = async (): Promise<boolean> => {
    const p = unchecked;
    if (p === undefined) return checking ?? true;
    unchecked = undefined;
    const running = check(p).finally(() => {
      if (checking === running) checking = undefined;
    });
    checking = running;
    return running;
  };

  /** Catches up (or loads, the first time); with `count`, also counts the scope's rows in the same snapshot. */
  const fetch = async (count = false): Promise<number> => {
    const { rows } = await client.query<{ gen: string | number }>(`SELECT gen FROM ${table}_gen`);
    const gen = Number(rows[0]?.gen ?? 0);
    if (!loaded && hooks !== undefined && !count && !refused) {
      if (await restore(hooks, gen)) return 0;
    }
    if (loaded && gen === cachedGen && !count) return 0;
    // A change needs every list of a restore read first (a failure drops it: loaded from the rows below).
    await readAll();
    const since = loaded ? cachedGen : -1;
    let changed = 0;
    // One snapshot: the counter, the deletions and the rows agree. The rows come through a cursor,
    // a page at a time, each page into the cache before the next is fetched (a large table is never
    // held in memory as rows).
    if (!loaded) {
      cache.clear();
      genOf.clear();
      firstGens = new Float64Array(1024);
      firstCount = 0;
    }
    const got = await client
      .transaction(async (tx) => {
        await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
        if (count) await tx.query(SERIAL_COUNT);
        const g = await tx.query<{ gen: string | number }>(`SELECT gen FROM ${table}_gen`);
        const deletions =
          since < 0
            ? []
            : (
                await tx.query<{ gen: string | number; namespace: string }>(
                  `SELECT gen, namespace FROM ${table}_log WHERE gen > $1 ORDER BY gen`,
                  [since],
                )
              ).rows;
        for (const d of deletions) if (mine(d.namespace)) changed += drop(Number(d.gen), d.namespace);
        const counted = async (): Promise<number> =>
          count
            ? Number(
                (
                  await tx.query<{ n: string }>(
                    `SELECT count(*) AS n FROM ${table} WHERE $1::text IS NULL OR namespace = $1`,
                    [namespace ?? null],
                  )
                ).rows[0]?.n ?? 0,
              )
            : 0;
        if (namespace !== undefined) {
          // One namespace: its rows in one result (the primary key's namespace prefix finds them), in
          // write order (a write goes in id order), so equal scores rank as in a cache kept by writes.
          const copy = copyOutOf(tx);
          const read =
            copy === undefined
              ? await namespaceRowsByQuery(tx, namespace, since)
              : await namespaceRowsByCopy(copy, namespace, since);
          changed += read.put;
          if (since < 0) firstRows = read.rows;
          return { gen: Number(g.rows[0]?.gen ?? 0), n: await counted() };
        }
        // `since` is this process's own integer counter, written into the statement (DECLARE takes no parameters).
        await tx.query(
          `DECLARE cc_cache_rows NO SCROLL CURSOR FOR SELECT namespace, id, kind, gen, ${TSV_TERMS} AS terms FROM ${table} WHERE gen > ${String(Math.trunc(since))} ORDER BY gen`,
        );
        for (;;) {
          const page = await tx.query<CacheRow>(`FETCH ${PAGE_ROWS} FROM cc_cache_rows`);
          changed += putAll(page.rows, takeRow);
          if (since < 0) firstRows += page.rows.length;
          if (page.rows.length < PAGE_ROWS) break;
        }
        await tx.query("CLOSE cc_cache_rows");
        return { gen: Number(g.rows[0]?.gen ?? 0), n: await counted() };
      })
      .catch((e: unknown) => {
        // A load cut short leaves a partial cache: start again from nothing next time.
        if (!loaded) {
          cache.clear();
          genOf.clear();
          deletedAt.clear();
          firstGens = undefined;
        }
        throw e;
      });
    if (firstGens !== undefined) {
      // Every entry's generation, by entry number, as after a restore: the map is built on first use.
      genMap = undefined;
      restoredGens = firstGens;
      firstGens = undefined;
    }
    const first = since < 0;
    if (first) {
      cache.pack();
      loads++;
    }
    loaded = true;
    cachedGen = Math.max(cachedGen, got.gen);
    if (first) hooks?.loadedFromRows();
    else hooks?.changed(changed);
    return got.n;
  };

  return {
    // Serialised: each sync checks the counter itself, after any sync already running.
    sync: () => {
      const next = queue.then(() => fetch()).then(() => undefined);
      queue = next.catch(() => undefined);
      return next;
    },
    current: (gen) => loaded && cachedGen === gen,
    isLoaded: () => loaded,
    prepare: async (terms) => {
      const l = later;
      if (l === undefined || !loaded) return true;
      const ranges = cache.unreadRanges(terms);
      if (ranges.length === 0) return true;
      const failure = await l.load(ranges);
      if (later !== l) return loaded;
      if (failure === undefined) return true;
      dropLater(failure);
      return false;
    },
    // Closed, not forgotten: a search still holding the scope drops the restore at its next read.
    release: () => later?.close(),
    settled: () => {
      // A check already running (started by another search, or by a preload's load) is waited for too.
      if (unchecked === undefined) return checking ?? Promise.resolve(true);
      const next = queue.then(settle);
      queue = next.then(
        () => undefined,
        () => undefined,
      );
      return next;
    },
    rank: (terms, options) => rank(cache, terms, options),
    wrote: (gen, entries) => {
      // A restore with lists still to read takes no change here: the next sync catches up (reading them first).
      if (!loaded || later !== undefined) return;
      // Not inside `hooks?.changed(…)`: without hooks its argument would never be evaluated.
      const n = putAll(entries, (e) => mine(e.namespace) && putRow(gen, e.namespace, e.id, e.kind, e.terms));
      hooks?.changed(n);
      if (cachedGen === gen - 1) cachedGen = gen;
    },
    deleted: (gen, ns) => {
      if (!loaded || later !== undefined) return;
      if (mine(ns)) {
        const n = drop(gen, ns);
        hooks?.changed(n);
      }
      if (cachedGen === gen - 1) cachedGen = gen;
    },
    clear: () => {
      later?.close();
      later = undefined;
      unchecked = undefined;
      cache.clear();
      genOf.clear();
      deletedAt.clear();
      loaded = false;
    },
    bytes: () => cache.bytes(),
    entries: () => cache.live,
    loadedRows: () => firstRows,
    loads: () => loads,
    snapshot: (identity, scope) => {
      // Never a snapshot of a restore not yet checked.
      // (A restore with lists still to read has taken no change: its snapshot is the one stored.)
      if (!loaded || unchecked !== undefined || later !== undefined) return undefined;
      const image = cache.image();
      const gens = new Float64Array(image.docCount);
      for (let d = 0; d < image.docCount; d++)
        if (image.docLive[d] === 1)
          gens[d] =
            restoredGens !== undefined && genMap === undefined ? restoredGens[d]! : (genOf.get(cache.keyOf(d)) ?? 0);
      return { identity, scope, generation: cachedGen, image, docExtra: gens, marks: [...deletedAt] };
    },
  };
}
