// The reference ranking the engine is checked against: BM25 written out plainly, scoring every
// entry of the corpus (no postings, no pruning). Same definition as src/search/ranking/bm25.ts:
// FTS5's bm25() over the distinct indexed terms of two weighted fields, with the statistics (N,
// df, average length) of the namespace searched, or of the whole corpus for a search across
// namespaces.
import { expect } from "vitest";
import type { IndexEntry, SearchHit } from "../../src/contract.js";
import { indexedTerms, queryTerms } from "../../src/query.js";

export interface ReferenceHit {
  readonly namespace: string;
  readonly id: string;
  readonly score: number;
}

export interface ReferenceOptions {
  readonly k: number;
  readonly namespace?: string;
  readonly kinds?: readonly string[];
  readonly summaryWeight?: number;
  /**
   * Whose statistics a namespace search uses: its namespace's (a backend's, the default) or the
   * whole corpus's (the engine on one cache with a namespace filter).
   */
  readonly statistics?: "namespace" | "corpus";
}

/** Every matching entry's score (not only the top k), best first; `scores` maps `namespace\u0000id`. */
export function referenceRanking(
  corpus: readonly IndexEntry[],
  query: string,
  options: ReferenceOptions,
): { readonly top: ReferenceHit[]; readonly scores: Map<string, number> } {
  const ws = options.summaryWeight ?? 2;
  const wc = 1;
  // Statistics are per namespace: a search in a namespace ranks by that namespace's entries only.
  const docs = corpus
    .filter(
      (e) => options.namespace === undefined || options.statistics === "corpus" || e.namespace === options.namespace,
    )
    .map((e) => {
      const s = indexedTerms(e.summary);
      const c = indexedTerms(e.content);
      return { e, summary: new Set(s), content: new Set(c), len: s.length + c.length };
    });
  const n = docs.length;
  const avgLen = docs.reduce((sum, d) => sum + d.len, 0) / n;
  const terms = queryTerms(query);
  const idfOf = new Map<string, number>();
  for (const t of terms) {
    const df = docs.filter((d) => d.summary.has(t) || d.content.has(t)).length;
    if (df === 0) continue;
    const raw = Math.log((n - df + 0.5) / (df + 0.5));
    idfOf.set(t, raw > 0 ? raw : 1e-6);
  }
  const scored: ReferenceHit[] = [];
  const scores = new Map<string, number>();
  for (const d of docs) {
    let score = 0;
    let matched = false;
    for (const [t, idf] of idfOf) {
      const f = (d.summary.has(t) ? ws : 0) + (d.content.has(t) ? wc : 0);
      if (!d.summary.has(t) && !d.content.has(t)) continue;
      matched = true;
      score += (idf * (f * (1.2 + 1))) / (f + 1.2 * (1 - 0.75 + (0.75 * d.len) / avgLen));
    }
    if (!matched) continue;
    if (options.namespace !== undefined && d.e.namespace !== options.namespace) continue;
    if (options.kinds !== undefined && !options.kinds.includes(d.e.kind)) continue;
    scored.push({ namespace: d.e.namespace, id: d.e.id, score });
    scores.set(`${d.e.namespace}\u0000${d.e.id}`, score);
  }
  scored.sort((a, b) => b.score - a.score);
  return { top: scored.slice(0, options.k), scores };
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Asserts that `hits` are the reference top k: as many, each a matching entry with its
 * reference score (and the backend's score equal to it), best first, and no entry outside them
 * scoring more than the k-th (ties at the k-th score may be broken either way).
 */
export function expectReferenceTopK(
  hits: readonly SearchHit[],
  corpus: readonly IndexEntry[],
  query: string,
  options: ReferenceOptions,
  label: string,
): void {
  const { top, scores } = referenceRanking(corpus, query, options);
  expect(hits.map((h) => h.id).length, `${label}: number of hits`).toBe(top.length);
  const seen = new Set<string>();
  hits.forEach((h, i) => {
    const key = `${h.namespace}\u0000${h.id}`;
    expect(seen.has(key), `${label}: ${h.id} twice`).toBe(false);
    seen.add(key);
    const ref = scores.get(key);
    expect(ref, `${label}: hit ${h.id} does not match the query`).toBeDefined();
    expect(close(h.score, ref!), `${label}: score of ${h.id} ${h.score} vs reference ${ref}`).toBe(true);
    expect(close(ref!, top[i]!.score), `${label}: rank ${i} has ${ref}, reference ${top[i]!.score}`).toBe(true);
  });
}
