/**
 * The PostgreSQL index's postings cache: loaded from the table's `tsv` column (summary lexemes
 * carry weight A, content lexemes none) on the first search, and kept in step by generation.
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
import { PostingsCache, type CacheItem, type EntryTerms } from "./ranking/postings.js";
import { rank, type RankedHandle, type RankOptions } from "./ranking/topk.js";
import type { SqlClient } from "./sql.js";

/**
 * The lexemes of a tsvector's text form, split by field: a lexeme with a weight-A position is a
 * summary term, one with an unweighted (D) position or none a content term.
 *
 * @example parseTsvector("'app':2A 'main':1A,4 'py':3") // { summary: ["app", "main"], content: ["main", "py"] }
 */
export function parseTsvector(text: string): EntryTerms {
  const summary: string[] = [];
  const content: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && text[i] === " ") i++;
    if (i >= n || text[i] !== "'") break;
    i++;
    let lexeme = "";
    for (; i < n; i++) {
      const c = text[i]!;
      if (c === "\\" && i + 1 < n) {
        lexeme += text[++i]!;
        continue;
      }
      if (c === "'") {
        if (text[i + 1] === "'") {
          lexeme += "'";
          i++;
          continue;
        }
        i++;
        break;
      }
      lexeme += c;
    }
    let inSummary = false;
    let inContent = false;
    if (text[i] === ":") {
      i++;
      while (i < n && text[i] !== " ") {
        while (i < n && text[i]! >= "0" && text[i]! <= "9") i++;
        const w = text[i];
        if (w === "A" || w === "B" || w === "C") {
          inSummary ||= w === "A";
          inContent ||= w !== "A";
          i++;
        } else {
          if (w === "D") i++;
          inContent = true;
        }
        if (text[i] === ",") i++;
      }
    } else inContent = true;
    if (inSummary) summary.push(lexeme);
    if (inContent) content.push(lexeme);
  }
  return { summary, content };
}

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
  readonly tsv: string;
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
}

/**
 * The postings cache of the PostgreSQL index on `table` (names already validated): of one
 * namespace (stored form), or of every namespace when `namespace` is undefined. A namespace's
 * cache reads and keeps only that namespace's rows, so its statistics are the namespace's own.
 *
 * @example const cache = pgPostingsCache(client, "cc_segments", "run-1"); await cache.sync();
 */
export function pgPostingsCache(client: SqlClient, table: string, namespace?: string): PgPostingsCache {
  const cache = new PostingsCache<RowKey>();
  const genOf = new Map<string, number>();
  const deletedAt = new Map<string, number>();
  let loaded = false;
  /** Every change up to this generation is in the cache. */
  let cachedGen = -1;
  let queue: Promise<void> = Promise.resolve();
  let firstRows = 0;
  const mine = (ns: string): boolean => namespace === undefined || ns === namespace;

  /** Puts the rows newer than what the cache holds of their key and namespace, in batches. */
  const putAll = (rows: Iterable<{ readonly gen: number; readonly namespace: string; readonly id: string; readonly kind: string; readonly terms: EntryTerms }>): void => {
    let batch: CacheItem<RowKey>[] = [];
    for (const r of rows) {
      const key = entryKey(r.namespace, r.id);
      if ((genOf.get(key) ?? -1) >= r.gen || (deletedAt.get(r.namespace) ?? -1) >= r.gen) continue;
      genOf.set(key, r.gen);
      batch.push({ key, handle: { namespace: r.namespace, id: r.id }, terms: r.terms, namespace: r.namespace, kind: r.kind });
      if (batch.length === 1000) {
        cache.putMany(batch);
        batch = [];
      }
    }
    cache.putMany(batch);
  };
  const drop = (gen: number, namespace: string): void => {
    deletedAt.set(namespace, Math.max(gen, deletedAt.get(namespace) ?? -1));
    const ns = cache.namespaceId(namespace);
    if (ns < 0) return;
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
  };

  const fetch = async (): Promise<void> => {
    const { rows } = await client.query<{ gen: string | number }>(`SELECT gen FROM ${table}_gen`);
    const gen = Number(rows[0]?.gen ?? 0);
    if (loaded && gen === cachedGen) return;
    const since = loaded ? cachedGen : -1;
    // One snapshot: the counter, the deletions and the rows agree. The rows come through a cursor,
    // a page at a time, each page into the cache before the next is fetched (a large table is never
    // held in memory as rows).
    if (!loaded) cache.clear();
    const got = await client.transaction(async (tx) => {
      await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const g = await tx.query<{ gen: string | number }>(`SELECT gen FROM ${table}_gen`);
      const deletions = since < 0 ? [] : (await tx.query<{ gen: string | number; namespace: string }>(`SELECT gen, namespace FROM ${table}_log WHERE gen > $1 ORDER BY gen`, [since])).rows;
      for (const d of deletions) if (mine(d.namespace)) drop(Number(d.gen), d.namespace);
      if (namespace !== undefined) {
        // One namespace: its rows in one result (the primary key's namespace prefix finds them), in
        // write order (a write goes in id order), so equal scores rank as in a cache kept by writes.
        const page = await tx.query<CacheRow>(`SELECT namespace, id, kind, gen, tsv::text AS tsv FROM ${table} WHERE namespace = $1 AND gen > $2 ORDER BY gen, id COLLATE "C"`, [namespace, since]);
        putAll(page.rows.map((r) => ({ gen: Number(r.gen), namespace: r.namespace, id: r.id, kind: r.kind, terms: parseTsvector(r.tsv) })));
        if (since < 0) firstRows = page.rows.length;
        return { gen: Number(g.rows[0]?.gen ?? 0) };
      }
      // `since` is this process's own integer counter, written into the statement (DECLARE takes no parameters).
      await tx.query(`DECLARE cc_cache_rows NO SCROLL CURSOR FOR SELECT namespace, id, kind, gen, tsv::text AS tsv FROM ${table} WHERE gen > ${String(Math.trunc(since))} ORDER BY gen`);
      for (;;) {
        const page = await tx.query<CacheRow>(`FETCH ${PAGE_ROWS} FROM cc_cache_rows`);
        putAll(page.rows.map((r) => ({ gen: Number(r.gen), namespace: r.namespace, id: r.id, kind: r.kind, terms: parseTsvector(r.tsv) })));
        if (since < 0) firstRows += page.rows.length;
        if (page.rows.length < PAGE_ROWS) break;
      }
      return { gen: Number(g.rows[0]?.gen ?? 0) };
    }).catch((e: unknown) => {
      // A load cut short leaves a partial cache: start again from nothing next time.
      if (!loaded) {
        cache.clear();
        genOf.clear();
        deletedAt.clear();
      }
      throw e;
    });
    loaded = true;
    cachedGen = Math.max(cachedGen, got.gen);
  };

  return {
    // Serialised: each sync checks the counter itself, after any sync already running.
    sync: () => {
      const next = queue.then(fetch);
      queue = next.catch(() => undefined);
      return next;
    },
    current: (gen) => loaded && cachedGen === gen,
    isLoaded: () => loaded,
    rank: (terms, options) => rank(cache, terms, options),
    wrote: (gen, entries) => {
      if (!loaded) return;
      putAll(entries.filter((e) => mine(e.namespace)).map((e) => ({ gen, namespace: e.namespace, id: e.id, kind: e.kind, terms: e.terms })));
      if (cachedGen === gen - 1) cachedGen = gen;
    },
    deleted: (gen, ns) => {
      if (!loaded) return;
      if (mine(ns)) drop(gen, ns);
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
  };
}
