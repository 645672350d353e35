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
import { entryKey } from "./contract.js";
import { PostingsCache, type CacheItem, type ColumnTerms, type EntryTerms } from "./ranking/postings.js";
import type { SnapshotContent } from "./ranking/snapshot.js";
import { rank, type RankedHandle, type RankOptions } from "./ranking/topk.js";
import type { SqlClient } from "./sql.js";

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
  /** Rows read by the first load (0 before it). */
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
  /** The cache was restored from `content`. */
  readonly restored: (content: SnapshotContent) => void;
  /** The cache was loaded from the rows (time to write a snapshot). */
  readonly loadedFromRows: () => void;
  /** Entries changed by a catch-up or by this process's writes. */
  readonly changed: (n: number) => void;
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
  /** Every change up to this generation is in the cache. */
  let cachedGen = -1;
  let queue: Promise<void> = Promise.resolve();
  let firstRows = 0;
  const mine = (ns: string): boolean => namespace === undefined || ns === namespace;

  /** Puts the rows newer than what the cache holds of their key and namespace, in batches. */
  const putAll = (
    rows: Iterable<{
      readonly gen: number;
      readonly namespace: string;
      readonly id: string;
      readonly kind: string;
      readonly terms: EntryTerms | ColumnTerms;
    }>,
  ): number => {
    let batch: CacheItem<RowKey>[] = [];
    let n = 0;
    for (const r of rows) {
      const key = entryKey(r.namespace, r.id);
      if ((genOf.get(key) ?? -1) >= r.gen || (deletedAt.get(r.namespace) ?? -1) >= r.gen) continue;
      genOf.set(key, r.gen);
      batch.push({
        key,
        handle: { namespace: r.namespace, id: r.id },
        terms: r.terms,
        namespace: r.namespace,
        kind: r.kind,
      });
      n++;
      if (batch.length === 1000) {
        cache.putMany(batch);
        batch = [];
      }
    }
    cache.putMany(batch);
    return n;
  };
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
  const reset = (): void => {
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
        .query<{ gen: string | number | null; n: string | number | null }>(
          `SELECT (SELECT gen FROM ${table}_gen) AS gen, (SELECT count(*) FROM ${table} WHERE $1::text IS NULL OR namespace = $1) AS n`,
          [namespace ?? null],
        )
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
    try {
      // Caught up; when the early count saw the generation the cache is now at, it is this
      // state's count. Otherwise (written meanwhile, or no early count) the exact check: the
      // catch-up and the count in one transaction.
      await fetch(false);
      const seen = await early;
      if (seen !== undefined && seen.gen === cachedGen && seen.n === cache.live) {
        h.restored(content);
        return true;
      }
      const counted = await fetch(true);
      if (counted === cache.live) {
        h.restored(content);
        return true;
      }
      h.contradicted(`${cache.live} entries after catching up, the table has ${counted}`);
    } catch (e) {
      reset();
      throw e;
    }
    reset();
    return false;
  };

  /** Catches up (or loads, the first time); with `count`, also counts the scope's rows in the same snapshot. */
  const fetch = async (count = false): Promise<number> => {
    const { rows } = await client.query<{ gen: string | number }>(`SELECT gen FROM ${table}_gen`);
    const gen = Number(rows[0]?.gen ?? 0);
    if (!loaded && hooks !== undefined && !count) {
      if (await restore(hooks, gen)) return 0;
    }
    if (loaded && gen === cachedGen && !count) return 0;
    const since = loaded ? cachedGen : -1;
    let changed = 0;
    // One snapshot: the counter, the deletions and the rows agree. The rows come through a cursor,
    // a page at a time, each page into the cache before the next is fetched (a large table is never
    // held in memory as rows).
    if (!loaded) cache.clear();
    const got = await client
      .transaction(async (tx) => {
        await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
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
          const page = await tx.query<CacheRow>(
            `SELECT namespace, id, kind, gen, ${TSV_TERMS} AS terms FROM ${table} WHERE namespace = $1 AND gen > $2 ORDER BY gen, id COLLATE "C"`,
            [namespace, since],
          );
          changed += putAll(
            page.rows.map((r) => ({
              gen: Number(r.gen),
              namespace: r.namespace,
              id: r.id,
              kind: r.kind,
              terms: r.terms,
            })),
          );
          if (since < 0) firstRows = page.rows.length;
          return { gen: Number(g.rows[0]?.gen ?? 0), n: await counted() };
        }
        // `since` is this process's own integer counter, written into the statement (DECLARE takes no parameters).
        await tx.query(
          `DECLARE cc_cache_rows NO SCROLL CURSOR FOR SELECT namespace, id, kind, gen, ${TSV_TERMS} AS terms FROM ${table} WHERE gen > ${String(Math.trunc(since))} ORDER BY gen`,
        );
        for (;;) {
          const page = await tx.query<CacheRow>(`FETCH ${PAGE_ROWS} FROM cc_cache_rows`);
          changed += putAll(
            page.rows.map((r) => ({
              gen: Number(r.gen),
              namespace: r.namespace,
              id: r.id,
              kind: r.kind,
              terms: r.terms,
            })),
          );
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
        }
        throw e;
      });
    const first = since < 0;
    if (first) cache.pack();
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
    rank: (terms, options) => rank(cache, terms, options),
    wrote: (gen, entries) => {
      if (!loaded) return;
      // Not inside `hooks?.changed(…)`: without hooks its argument would never be evaluated.
      const n = putAll(
        entries
          .filter((e) => mine(e.namespace))
          .map((e) => ({ gen, namespace: e.namespace, id: e.id, kind: e.kind, terms: e.terms })),
      );
      hooks?.changed(n);
      if (cachedGen === gen - 1) cachedGen = gen;
    },
    deleted: (gen, ns) => {
      if (!loaded) return;
      if (mine(ns)) {
        const n = drop(gen, ns);
        hooks?.changed(n);
      }
      if (cachedGen === gen - 1) cachedGen = gen;
    },
    clear: () => {
      cache.clear();
      genOf.clear();
      deletedAt.clear();
      loaded = false;
    },
    bytes: () => cache.bytes(),
    entries: () => cache.live,
    loadedRows: () => firstRows,
    snapshot: (identity, scope) => {
      if (!loaded) return undefined;
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
