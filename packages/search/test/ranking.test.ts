// The ranking engine alone (postings cache + block-max MaxScore top-k) against the exhaustive
// reference BM25, on corpora large enough for many blocks, with removals that trigger compaction.
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { entry, entryKey, type IndexEntry, type SearchHit } from "../src/contract.js";
import { indexedTerms } from "../src/query.js";
import { PostingsCache } from "../src/ranking/postings.js";
import { rank } from "../src/ranking/topk.js";
import { runs } from "./support/contract.js";
import { runsFor } from "../../../.ci/support/runs.js";
import { expectReferenceTopK, referenceRanking } from "./support/reference-bm25.js";

const VOCAB = [
  "alpha",
  "beta",
  "gamma",
  "delta",
  "error",
  "file",
  "read",
  "test",
  "main",
  "io",
  "x1",
  "x2",
  "x3",
  "x4",
  "x5",
  "x6",
];
const word = fc.nat({ max: 999 }).map((x) => VOCAB[Math.floor((x / 1000) ** 3 * VOCAB.length)]!);

function hitsOf(cache: PostingsCache<IndexEntry>, query: string, k: number, namespace?: string): SearchHit[] {
  return rank(
    cache,
    query.split(" ").map((t) => t.toLowerCase()),
    { k, summaryWeight: 2, namespace },
  ).map(({ handle: e, score }) => ({
    id: e.id,
    namespace: e.namespace,
    kind: e.kind,
    summary: e.summary,
    snippet: "",
    score,
    tokenCost: 0,
    createdAt: 0,
    evictedAt: 0,
  }));
}

describe("ranking engine", () => {
  it("property: top k equals the exhaustive reference on corpora of up to 1,500 entries, after removals and compactions", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(word, { maxLength: 4 }), fc.array(word, { maxLength: 10 }), fc.boolean()), {
          minLength: 1,
          maxLength: 1500,
          size: "max",
        }),
        fc.array(
          fc.tuple(
            fc.array(fc.oneof(word, fc.constant("py")), { minLength: 1, maxLength: 4 }),
            fc.integer({ min: 1, max: 30 }),
            fc.boolean(),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        fc.nat({ max: 4 }),
        (docs, queries, removeEvery) => {
          const cache = new PostingsCache<IndexEntry>(64);
          const byKey = new Map<string, IndexEntry>();
          const put = (e: IndexEntry): void => {
            const key = entryKey(e.namespace, e.id);
            byKey.set(key, e);
            cache.put(
              key,
              e,
              { summary: indexedTerms(e.summary), content: indexedTerms(e.content) },
              e.namespace,
              e.kind,
            );
          };
          docs.forEach(([s, c, ns], i) =>
            put(
              entry({
                id: `d${i}`,
                namespace: ns ? "a" : "b",
                summary: s.join(" "),
                content: `${c.join(" ")} f${i}.py`,
              }),
            ),
          );
          if (removeEvery > 0) {
            [...byKey.keys()].forEach((key, i) => {
              if (i % (removeEvery + 1) !== 0) return;
              cache.remove(key);
              byKey.delete(key);
            });
            // Rewrites after the removals: new docIds at the end.
            [...byKey.values()]
              .filter((_, i) => i % 5 === 0)
              .forEach((e) => put({ ...e, summary: `${e.summary} beta` }));
          }
          const corpus = [...byKey.values()];
          expect(cache.live).toBe(corpus.length);
          for (const [terms, k, inA] of queries) {
            const query = terms.join(" ");
            const options = inA ? { k, namespace: "a" } : { k };
            const hits = hitsOf(cache, query, k, options.namespace);
            if (corpus.length === 0) expect(hits).toEqual([]);
            // One cache with a namespace filter: the cache's (whole-corpus) statistics.
            else expectReferenceTopK(hits, corpus, query, { ...options, statistics: "corpus" }, `${query} k=${k}`);
          }
        },
      ),
      { numRuns: runs(40) },
    );
  });

  it("property: entries given as a stored terms column rank exactly as the same entries given as term arrays (any terms, any Unicode)", () => {
    const term = fc.oneof(
      word,
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }).filter((t) => !/[\s]/.test(t)),
      fc.string({ unit: "binary", minLength: 1, maxLength: 4 }).filter((t) => !/[\s]/.test(t)),
    );
    const uniq = (ts: readonly string[]): string[] => [...new Set(ts)];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(term, { maxLength: 5 }).map(uniq), fc.array(term, { maxLength: 8 }).map(uniq)), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.array(fc.array(term, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }),
        (docs, queries) => {
          const arrays = new PostingsCache<number>(64);
          const columns = new PostingsCache<number>(64);
          arrays.putMany(
            docs.map(([summary, content], i) => ({
              key: `k${i}`,
              handle: i,
              terms: { summary, content },
              namespace: "n",
              kind: "k",
            })),
          );
          columns.putMany(
            docs.map(([summary, content], i) => ({
              key: `k${i}`,
              handle: i,
              terms: `${summary.join(" ")}\t${content.join(" ")}`,
              namespace: "n",
              kind: "k",
            })),
          );
          for (const [summary, content] of docs)
            for (const t of [...summary, ...content]) expect(columns.termId(t)).toBe(arrays.termId(t));
          expect([...columns.docLen.subarray(0, docs.length)]).toEqual([...arrays.docLen.subarray(0, docs.length)]);
          for (const q of queries) {
            const opts = { k: 10, summaryWeight: 2 };
            expect(rank(columns, q, opts)).toEqual(rank(arrays, q, opts));
          }
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it("property: a batch into an empty cache makes the lists, with their bounds, that entries put one at a time make, before and after removals", () => {
    // The first batch is packed straight from its forward lists; later ones append posting by posting.
    const listOf = (cache: PostingsCache<number>, id: number) => {
      const l = cache.list(id)!;
      const blocks = l.length > 128 ? Math.ceil(l.length / 128) : 0;
      return {
        postings: [...l.postings.subarray(0, l.length)],
        df: l.df,
        orMask: l.orMask,
        minLen: l.minLen,
        blockMask: [...l.blockMask.subarray(0, blocks)],
        blockMinLen: [...l.blockMinLen.subarray(0, blocks)],
      };
    };
    const uniq = (ts: readonly string[]): string[] => [...new Set(ts)];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(word, { maxLength: 4 }).map(uniq), fc.array(word, { maxLength: 9 }).map(uniq)), {
          minLength: 1,
          maxLength: 700,
          // Lists longer than a block (128 postings), whose block bounds are compared too.
          size: "max",
        }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (docs, removals) => {
          const items = docs.map(([summary, content], i) => ({
            key: `k${i}`,
            handle: i,
            terms: `${summary.join(" ")}\t${content.join(" ")}`,
            namespace: "n",
            kind: "k",
          }));
          const batch = new PostingsCache<number>(64);
          batch.putMany(items);
          const single = new PostingsCache<number>(64);
          for (const item of items) single.putMany([item]);
          const compare = (): void => {
            for (const t of VOCAB) expect(batch.termId(t)).toBe(single.termId(t));
            for (const t of VOCAB)
              if (batch.termId(t) >= 0)
                expect(listOf(batch, batch.termId(t))).toEqual(listOf(single, single.termId(t)));
          };
          compare();
          for (const r of removals) {
            const key = `k${r % docs.length}`;
            expect(batch.remove(key)).toBe(single.remove(key));
          }
          compare();
          for (const t of VOCAB.slice(0, 6))
            expect(rank(batch, [t], { k: 10, summaryWeight: 2 })).toEqual(
              rank(single, [t], { k: 10, summaryWeight: 2 }),
            );
        },
      ),
      { numRuns: runsFor(60, 300) },
    );
  });

  it("a term in every entry ranks its entries (shortest first) and a rare term above them", () => {
    const cache = new PostingsCache<string>();
    for (let i = 0; i < 1000; i++)
      cache.put(
        `k${i}`,
        `k${i}`,
        { summary: [], content: [...Array.from({ length: 1 + (i % 7) }, (_, j) => `w${j}`), "py", `file${i}`] },
        "n",
        "k",
      );
    const top = rank(cache, ["file500", "py"], { k: 3, summaryWeight: 2 });
    expect(top.map((r) => r.handle)).toEqual(["k500", "k0", "k7"]);
    const corpus = Array.from({ length: 1000 }, (_, i) =>
      entry({
        id: `k${i}`,
        namespace: "n",
        content: [...Array.from({ length: 1 + (i % 7) }, (_, j) => `w${j}`), "py", `file${i}`].join(" "),
      }),
    );
    expect(referenceRanking(corpus, "file500 py", { k: 3 }).top.map((h) => h.id)).toEqual(["k500", "k0", "k7"]);
  });
});
