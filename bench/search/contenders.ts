/**
 * Everything the search benchmark ranks with, behind one shape: our three backends, raw FTS5
 * (rank LIMIT, and count(*) of the matches as the enumeration floor), a plain exhaustive
 * typed-array BM25 (the baseline and the reference of the agreement column), MiniSearch,
 * FlexSearch and Orama. Every contender answers "the 10 best entries of namespace main".
 */
import { join } from "node:path";
import type { IndexEntry, SegmentIndex } from "@cc/search";
import { BM25_B, BM25_K1, idf, indexedTerms, queryTerms } from "@cc/test-support/search";
import { create, insertMultiple, search as oramaSearch } from "@orama/orama";
import FlexSearch, { type Document as FlexDocument } from "flexsearch";
import MiniSearch from "minisearch";

/** What a build measured. */
export interface Built {
  /** Entries written per second (batches of 1,000 for our backends). */
  readonly entriesPerSec: number;
  /** Entries written per second of this process's CPU time (robust on a busy machine; excludes a database server's work). */
  readonly entriesPerCpuSec: number;
  /** The first search after the writes (our backends: loading the postings cache), ms. */
  readonly firstSearchMs?: number;
}

/** One way to answer the benchmark's searches. */
export interface SearchContender {
  readonly name: string;
  readonly role: "ours" | "floor" | "baseline" | "peer";
  build(entries: readonly IndexEntry[]): Promise<Built>;
  /** Ids of the best 10 entries of namespace "main" (the floor returns none: it only counts). */
  search(query: string): Promise<readonly string[]>;
  close(): Promise<void>;
}

const K = 10;

/** CPU time (user + system) of this process, in ms. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Runs `fn` and returns entries per second of wall time and of CPU time. */
async function rate(
  n: number,
  fn: () => Promise<void> | void,
): Promise<{ entriesPerSec: number; entriesPerCpuSec: number }> {
  const c0 = cpuMs();
  const t0 = performance.now();
  await fn();
  return { entriesPerSec: n / ((performance.now() - t0) / 1000), entriesPerCpuSec: n / ((cpuMs() - c0) / 1000) };
}

/** The part of better-sqlite3 the FTS5 contenders use (bench has no @types/better-sqlite3). */
interface Statement {
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface Db {
  pragma(source: string): unknown;
  exec(sql: string): unknown;
  prepare(sql: string): Statement;
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
  close(): void;
}
const DRIVER = "better-sqlite3";
/** better-sqlite3's constructor (a computed specifier: the module is untyped here). */
const openDb = async (path: string): Promise<Db> => {
  const mod = (await import(DRIVER)) as { default: new (path: string) => Db };
  return new mod.default(path);
};

async function ok<A>(p: Promise<{ _tag: "Left"; left: unknown } | { _tag: "Right"; right: A }>): Promise<A> {
  const x = await p;
  if (x._tag === "Left") throw new Error(JSON.stringify(x.left));
  return x.right;
}

/** One of our backends, opened by `open`. */
export function ours(name: string, open: () => Promise<SegmentIndex>): SearchContender {
  let index: SegmentIndex | undefined;
  return {
    name,
    role: "ours",
    build: async (entries) => {
      const index_ = await open();
      index = index_;
      const rates = await rate(entries.length, async () => {
        for (let i = 0; i < entries.length; i += 1000) await ok(index_.write(entries.slice(i, i + 1000))());
      });
      const t1 = performance.now();
      await ok(index_.search("warm", { k: K, namespace: "main" })());
      return { ...rates, firstSearchMs: performance.now() - t1 };
    },
    search: async (q) => (await ok(index!.search(q, { k: K, namespace: "main" })())).map((h) => h.id),
    close: async () => void (await ok(index!.close()())),
  };
}

let fts5Files = 0;

/** A raw FTS5 table (our indexed text, bm25 weights 2 and 1) in a file of `dir`: `ORDER BY rank LIMIT 10`, or `count(*)` of the matches. */
export function fts5(dir: string, mode: "rank" | "count"): SearchContender {
  let db: Db | undefined;
  let stmt: Statement | undefined;
  return {
    name: mode === "rank" ? "raw FTS5 rank LIMIT 10" : "FTS5 count(*) (floor)",
    role: mode === "rank" ? "peer" : "floor",
    build: async (entries) => {
      db = await openDb(join(dir, `fts5-${mode}-${fts5Files++}.db`));
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.exec(
        "CREATE VIRTUAL TABLE f USING fts5(summary, content, id UNINDEXED, namespace UNINDEXED, tokenize='unicode61 remove_diacritics 0')",
      );
      db.exec("INSERT INTO f(f, rank) VALUES('rank', 'bm25(2.0, 1.0)')");
      const insert = db.prepare("INSERT INTO f (summary, content, id, namespace) VALUES (?, ?, ?, ?)");
      const all = db.transaction((batch: readonly IndexEntry[]) => {
        for (const e of batch)
          insert.run(indexedTerms(e.summary).join(" "), indexedTerms(e.content).join(" "), e.id, e.namespace);
      });
      const rates = await rate(entries.length, () => all(entries));
      stmt =
        mode === "rank"
          ? db.prepare("SELECT id FROM f WHERE f MATCH ? AND namespace = 'main' ORDER BY rank LIMIT 10")
          : db.prepare("SELECT count(*) AS n FROM f WHERE f MATCH ?");
      return rates;
    },
    search: async (q) => {
      const terms = queryTerms(q);
      if (terms.length === 0) return [];
      const rows = stmt!.all(terms.map((t) => `"${t}"`).join(" OR "));
      return mode === "rank" ? rows.map((r) => (r as { id: string }).id) : [];
    },
    close: async () => db?.close(),
  };
}

/** Plain BM25 over typed-array postings, scoring every match (no pruning): the baseline and the reference. */
export class ExhaustiveBm25 implements SearchContender {
  readonly name = "exhaustive typed-array BM25 (baseline)";
  readonly role = "baseline" as const;
  private termIds = new Map<string, number>();
  private docs: Int32Array[] = [];
  private masks: Uint8Array[] = [];
  private len = new Int32Array(0);
  private main = new Uint8Array(0);
  private ids: string[] = [];
  private avgLen = 1;
  /** Scores of the last query (every entry; 0 = no match). */
  scores = new Float64Array(0);
  private matched = new Uint8Array(0);

  async build(entries: readonly IndexEntry[]): Promise<Built> {
    const c0 = cpuMs();
    const t0 = performance.now();
    const n = entries.length;
    const docs: number[][] = [];
    const masks: number[][] = [];
    this.len = new Int32Array(n);
    this.main = new Uint8Array(n);
    let total = 0;
    entries.forEach((e, d) => {
      const s = indexedTerms(e.summary);
      const c = indexedTerms(e.content);
      const m = new Map<number, number>();
      for (const [terms, bit] of [
        [s, 1],
        [c, 2],
      ] as const) {
        for (const t of terms) {
          let id = this.termIds.get(t);
          if (id === undefined) {
            id = docs.length;
            this.termIds.set(t, id);
            docs.push([]);
            masks.push([]);
          }
          m.set(id, (m.get(id) ?? 0) | bit);
        }
      }
      for (const [id, bit] of m) {
        docs[id]!.push(d);
        masks[id]!.push(bit);
      }
      this.len[d] = s.length + c.length;
      total += s.length + c.length;
      this.main[d] = e.namespace === "main" ? 1 : 0;
      this.ids.push(e.id);
    });
    this.docs = docs.map((x) => Int32Array.from(x));
    this.masks = masks.map((x) => Uint8Array.from(x));
    this.avgLen = total / n;
    this.scores = new Float64Array(n);
    this.matched = new Uint8Array(n);
    return { entriesPerSec: n / ((performance.now() - t0) / 1000), entriesPerCpuSec: n / ((cpuMs() - c0) / 1000) };
  }

  /** Scores every entry for the query (this.scores), and returns the top 10 of namespace main. */
  async search(q: string): Promise<readonly string[]> {
    const n = this.len.length;
    this.scores.fill(0);
    this.matched.fill(0);
    const touched: number[] = [];
    for (const t of queryTerms(q)) {
      const id = this.termIds.get(t);
      if (id === undefined) continue;
      const docs = this.docs[id]!;
      const masks = this.masks[id]!;
      const w = idf(n, docs.length);
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!;
        const f = ((masks[i]! & 1) === 0 ? 0 : 2) + ((masks[i]! & 2) === 0 ? 0 : 1);
        this.scores[d]! +=
          (w * (f * (BM25_K1 + 1))) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * this.len[d]!) / this.avgLen));
        if (this.matched[d] === 0) {
          this.matched[d] = 1;
          touched.push(d);
        }
      }
    }
    // Top 10 by (score desc, docId asc) among the matches of namespace main.
    const best: number[] = [];
    for (const d of touched) {
      if (this.main[d] === 0) continue;
      if (best.length === K && !this.better(d, best[K - 1]!)) continue;
      let i = best.length < K ? best.length : K - 1;
      best[i] = d;
      while (i > 0 && this.better(best[i]!, best[i - 1]!)) {
        [best[i], best[i - 1]] = [best[i - 1]!, best[i]!];
        i--;
      }
    }
    return best.map((d) => this.ids[d]!);
  }

  private better(a: number, b: number): boolean {
    return this.scores[a]! > this.scores[b]! || (this.scores[a] === this.scores[b] && a < b);
  }

  /** Matches of namespace main for the last query. */
  matchesInMain(): number {
    let m = 0;
    for (let d = 0; d < this.matched.length; d++) if (this.matched[d] === 1 && this.main[d] === 1) m++;
    return m;
  }

  /**
   * Agreement of `ids` with the last query's exhaustive top 10: the share of them whose score
   * reaches the 10th best (ties either way count), 0 for a missing or extra hit.
   */
  agreement(ids: readonly string[], reference: readonly string[]): number {
    if (reference.length === 0) return ids.length === 0 ? 1 : 0;
    const kth = this.scores[Number(reference[reference.length - 1]!.slice(1))]!;
    let good = 0;
    for (const id of ids) {
      const d = Number(id.slice(1));
      if (this.matched[d] === 1 && this.main[d] === 1 && this.scores[d]! >= kth * (1 - 1e-9)) good++;
    }
    return Math.min(good, reference.length) / Math.max(reference.length, ids.length);
  }

  async close(): Promise<void> {
    this.termIds.clear();
    this.docs = [];
    this.masks = [];
  }
}

/** MiniSearch 7 with our tokenizer, OR, summary boost 2, filtered to namespace main. */
export function minisearch(): SearchContender {
  let mini: MiniSearch<{ id: string; summary: string; content: string; namespace: string }> | undefined;
  return {
    name: "MiniSearch",
    role: "peer",
    build: async (entries) => {
      mini = new MiniSearch({
        fields: ["summary", "content"],
        storeFields: ["namespace"],
        tokenize: (text) => indexedTerms(text),
        processTerm: (t) => t,
      });
      const m = mini;
      return rate(entries.length, () =>
        m.addAll(entries.map((e) => ({ id: e.id, summary: e.summary, content: e.content, namespace: e.namespace }))),
      );
    },
    search: async (q) =>
      mini!
        .search(
          { combineWith: "OR", queries: queryTerms(q) },
          {
            boost: { summary: 2 },
            prefix: false,
            fuzzy: false,
            tokenize: (s) => [s],
            filter: (r) => r["namespace"] === "main",
          },
        )
        .slice(0, K)
        .map((r) => String(r.id)),
    close: async () => void mini?.removeAll(),
  };
}

/** FlexSearch 0.8 Document index of our indexed text, namespace as a tag, partial matches allowed (OR). */
export function flexsearch(): SearchContender {
  type Doc = { id: string; summary: string; content: string; namespace: string };
  let index: FlexDocument<Doc> | undefined;
  return {
    name: "FlexSearch",
    role: "peer",
    build: async (entries) => {
      index = new FlexSearch.Document<Doc>({
        tokenize: "strict",
        document: { id: "id", index: ["summary", "content"], tag: "namespace" },
      });
      const ix = index;
      return rate(entries.length, () => {
        for (const e of entries)
          ix.add({
            id: e.id,
            summary: indexedTerms(e.summary).join(" "),
            content: indexedTerms(e.content).join(" "),
            namespace: e.namespace,
          });
      });
    },
    search: async (q) => {
      const found = index!.search({
        query: queryTerms(q).join(" "),
        tag: { namespace: "main" },
        limit: K,
        suggest: true,
        merge: true,
      }) as unknown as { id: string }[];
      return found.slice(0, K).map((r) => String(r.id));
    },
    close: async () => undefined,
  };
}

/** Orama 3 with our tokenizer, summary boost 2, threshold 1 (any term matches), namespace as an enum filter. */
export function orama(): SearchContender {
  const schema = { id: "string", summary: "string", content: "string", namespace: "enum" } as const;
  let db: ReturnType<typeof create<typeof schema>> | undefined;
  return {
    name: "Orama",
    role: "peer",
    build: async (entries) => {
      db = create({
        schema,
        components: {
          tokenizer: {
            language: "english",
            normalizationCache: new Map(),
            tokenize: (raw: string) => indexedTerms(raw),
          },
        },
      });
      const o = db;
      return rate(
        entries.length,
        async () =>
          void (await insertMultiple(
            o,
            entries.map((e) => ({ id: e.id, summary: e.summary, content: e.content, namespace: e.namespace })),
            1000,
          )),
      );
    },
    search: async (q) => {
      const r = await oramaSearch(db!, {
        term: queryTerms(q).join(" "),
        properties: ["summary", "content"],
        boost: { summary: 2 },
        where: { namespace: { eq: "main" } },
        threshold: 1,
        limit: K,
      });
      return r.hits.map((h) => String(h.document.id));
    },
    close: async () => undefined,
  };
}
