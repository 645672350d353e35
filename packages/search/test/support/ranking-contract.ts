// Part of the SegmentIndex contract: search returns the top k of an exhaustive reference BM25
// (test/support/reference-bm25.ts) on random corpora and queries, through writes, rewrites and
// namespace deletes.
import * as fc from "fast-check";
import { expect, it } from "vitest";
import type { IndexEntry, SegmentIndex } from "../../src/contract.js";
import { entry } from "../../src/contract.js";
import { expectReferenceTopK } from "./reference-bm25.js";
import { runsFor } from "../../../../.ci/support/runs.js";

/** Property-test runs: ≥ 1000 in CI. */
const runs = (local: number): number => runsFor(local, Math.max(1000, local));

function right<A>(r: { _tag: "Left"; left: unknown } | { _tag: "Right"; right: A }): A {
  if (r._tag === "Left") throw new Error(`expected Right, got ${JSON.stringify(r.left)}`);
  return r.right;
}

// A small vocabulary so terms repeat (high df, idf at its floor), plus `py`, present in every entry.
const VOCAB = ["alpha", "beta", "gamma", "delta", "error", "file", "read", "test", "main", "io", "数据", "über"];
const word = fc.nat({ max: 99 }).map((x) => VOCAB[Math.floor((x / 100) ** 2 * VOCAB.length)]!);
const text = (max: number) => fc.array(word, { maxLength: max }).map((ws) => ws.join(" "));

const doc = fc.record({
  summary: text(5),
  content: text(12),
  ns: fc.constantFrom("a", "b"),
  kind: fc.constantFrom("file", "tool"),
});

const corpusArb = fc.oneof(
  { weight: 3, arbitrary: fc.array(doc, { minLength: 1, maxLength: 40 }) },
  // Large enough to fill several blocks of 128 postings, so block-max skipping runs.
  { weight: 1, arbitrary: fc.array(doc, { minLength: 200, maxLength: 450 }) },
);

const queryArb = fc.oneof(
  fc
    .array(fc.oneof(word, fc.constantFrom("py", "nothing", "PY", "Alpha,")), { minLength: 1, maxLength: 4 })
    .map((ws) => ws.join(" ")),
  fc.constant("py"),
);

/** Registers the ranking property for one backend (`makeIndex` returns a fresh, empty index). */
export function rankingContract(makeIndex: () => Promise<SegmentIndex>): void {
  it("property: top k equals an exhaustive reference BM25 on random corpora and queries, through rewrites and namespace deletes", async () => {
    const index = await makeIndex();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        corpusArb,
        fc.array(
          fc.tuple(
            queryArb,
            fc.integer({ min: 1, max: 12 }),
            fc.constantFrom<"all" | "a" | "kind">("all", "a", "kind"),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        fc.boolean(),
        async (docs, queries, dropB) => {
          const tag = run++;
          let corpus: IndexEntry[] = docs.map((d, i) =>
            entry({
              id: `r${tag}-${i}`,
              namespace: `${d.ns}${tag}`,
              kind: d.kind,
              summary: d.summary,
              content: `${d.content} file${i}.py`,
            }),
          );
          const half = Math.floor(corpus.length / 2);
          right(await index.write(corpus.slice(0, half))());
          right(await index.write(corpus.slice(half))());
          // Rewrite every third entry with a new summary (same original: an upsert).
          const rewritten = corpus
            .filter((_, i) => i % 3 === 0)
            .map((e) => ({ ...e, summary: `${e.summary} rewritten beta` }));
          if (rewritten.length > 0) right(await index.write(rewritten)());
          const byKey = new Map(corpus.map((e) => [`${e.namespace}\u0000${e.id}`, e]));
          for (const e of rewritten) byKey.set(`${e.namespace}\u0000${e.id}`, e);
          corpus = [...byKey.values()];
          if (dropB) {
            right(await index.deleteNamespace(`b${tag}`)());
            corpus = corpus.filter((e) => e.namespace !== `b${tag}`);
          }
          for (const [query, k, filter] of queries) {
            const options =
              filter === "a" ? { k, namespace: `a${tag}` } : filter === "kind" ? { k, kinds: ["tool"] } : { k };
            const hits = right(await index.search(query, options)());
            if (corpus.length === 0) expect(hits).toEqual([]);
            else
              expectReferenceTopK(
                hits,
                corpus,
                query,
                options,
                `query ${JSON.stringify(query)} ${JSON.stringify(options)}`,
              );
          }
          for (const ns of [`a${tag}`, `b${tag}`]) right(await index.deleteNamespace(ns)());
          expect(right(await index.count()())).toBe(0);
        },
      ),
      { numRuns: runs(25) },
    );
    right(await index.close()());
  }, 600_000);
}
