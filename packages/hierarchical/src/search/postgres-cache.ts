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
import { entryKey } from "./index.js";
import { PostingsCache, type EntryTerms } from "./ranking/postings.js";
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
}

/**
 * The postings cache of the PostgreSQL index on `table` (names already validated).
 *
 * @example const cache = pgPostingsCache(client, "cc_segments"); await cache.sync();
 */
export function pgPostingsCache(client: SqlClient, table: string): PgPostingsCache {
  const cache = new PostingsCache<RowKey>();
  const genOf = new Map<string, number>();
  const deletedAt = new Map<string, number>();
  let loaded = false;
  /** Every change up to this generation is in the cache. */
  let cachedGen = -1;
  let queue: Promise<void> = Promise.resolve();

  const put = (gen: number, namespace: string, id: string, kind: string, terms: EntryTerms): void => {
    const key = entryKey(namespace, id);
    if ((genOf.get(key) ?? -1) >= gen || (deletedAt.get(namespace) ?? -1) >= gen) return;
    genOf.set(key, gen);
    cache.put(key, { namespace, id }, terms, namespace, kind);
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
    // One snapshot: the counter, the deletions and the rows agree.
    const got = await client.transaction(async (tx) => {
      await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const g = await tx.query<{ gen: string | number }>(`SELECT gen FROM ${table}_gen`);
      const deletions = since < 0 ? [] : (await tx.query<{ gen: string | number; namespace: string }>(`SELECT gen, namespace FROM ${table}_log WHERE gen > $1 ORDER BY gen`, [since])).rows;
      const changed = await tx.query<CacheRow>(`SELECT namespace, id, kind, gen, tsv::text AS tsv FROM ${table} WHERE gen > $1 ORDER BY gen`, [since]);
      return { gen: Number(g.rows[0]?.gen ?? 0), deletions, rows: changed.rows };
    });
    for (const d of got.deletions) drop(Number(d.gen), d.namespace);
    for (const r of got.rows) put(Number(r.gen), r.namespace, r.id, r.kind, parseTsvector(r.tsv));
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
      for (const e of entries) put(gen, e.namespace, e.id, e.kind, e.terms);
      if (cachedGen === gen - 1) cachedGen = gen;
    },
    deleted: (gen, namespace) => {
      if (!loaded) return;
      drop(gen, namespace);
      if (cachedGen === gen - 1) cachedGen = gen;
    },
    clear: () => {
      cache.clear();
      genOf.clear();
      deletedAt.clear();
      loaded = false;
    },
  };
}
