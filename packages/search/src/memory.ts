/**
 * In-memory `SegmentIndex` on the shared ranking engine (`search/ranking`: typed-array postings,
 * BM25, block-max MaxScore top-k): nothing to start, nothing persisted. For tests and
 * short-lived agents.
 *
 * @module search/memory
 */
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import type { IndexEntry, IndexError, SearchHit, SearchOptions, SegmentIndex, WriteReceipt } from "./contract.js";
import { DEFAULT_NAMESPACE, entryKey, idConflict, resolveSearchOptions, validateEntries } from "./contract.js";
import { searchable } from "./lossless.js";
import { decodeWith, numberIn, objectCodec } from "@cc/validate";
import { bestSnippet, indexedTerms, queryTerms } from "./query.js";
import { PostingsCache } from "./ranking/postings.js";
import { rank } from "./ranking/topk.js";

/**
 * Options of {@link memoryIndex}.
 *
 * @example
 * const index = memoryIndex({ summaryBoost: 3 } satisfies MemoryIndexOptions);
 */
export interface MemoryIndexOptions {
  /**
   * Weight of a summary match relative to a content match.
   * @default 2
   */
  readonly summaryBoost?: number;
}

/** io-ts codec of {@link MemoryIndexOptions} (closed). */
export const MemoryIndexOptionsCodec = objectCodec(
  "MemoryIndexOptions",
  {},
  { summaryBoost: numberIn(0, 1e6) },
  { expected: "an options object" },
);

const decodeMemoryOptions = decodeWith(MemoryIndexOptionsCodec, "InvalidOptions", "memory index options");

/**
 * Creates an empty in-memory index. Terms match exactly (no prefix or fuzzy search), ORed,
 * ranked by the BM25 of every backend (`search/ranking/bm25`) with summary matches weighted
 * `summaryBoost`. A search in a namespace ranks with that namespace's statistics (entry count,
 * document frequencies, average length), so other namespaces never change its ranking; a search
 * across namespaces ranks with the whole index's.
 *
 * @example
 * const index = memoryIndex();
 * await index.write([entry({ id: "a", summary: "pytest failed in tests/test_io.py" })])();
 */
export function memoryIndex(options: MemoryIndexOptions = {}): SegmentIndex {
  // Closed options: a typo or a bad value makes every operation Left(InvalidOptions), never a silent default.
  const checked = decodeMemoryOptions(options);
  const boost = (E.isRight(checked) ? checked.right.summaryBoost : undefined) ?? 2;
  const entries = new Map<string, IndexEntry>();
  let closed = false;
  /** Every entry: what a search across namespaces ranks on (whole-index statistics). */
  const cache = new PostingsCache<string>();
  /** One cache per namespace: what a search in a namespace ranks on (that namespace's statistics). */
  const byNs = new Map<string, PostingsCache<string>>();
  const run =
    <A>(fn: () => E.Either<IndexError, A>): TE.TaskEither<IndexError, A> =>
    async () => {
      if (E.isLeft(checked)) return checked;
      if (closed) return E.left({ _tag: "IndexClosed", backend: "memory" });
      try {
        return fn();
      } catch (e) {
        return E.left({
          _tag: "StorageError",
          backend: "memory",
          operation: "memory",
          message: e instanceof Error ? e.message : String(e),
        });
      }
    };

  const putAll = (batch: readonly IndexEntry[]): void => {
    const items = batch.map((e) => {
      const key = entryKey(e.namespace, e.id);
      entries.set(key, e);
      return {
        key,
        handle: key,
        terms: { summary: indexedTerms(e.summary), content: indexedTerms(e.content) },
        namespace: e.namespace,
        kind: e.kind,
      };
    });
    cache.putMany(items);
    for (const it of items) {
      let c = byNs.get(it.namespace);
      if (c === undefined) byNs.set(it.namespace, (c = new PostingsCache<string>()));
      c.put(it.key, it.handle, it.terms, it.namespace, it.kind);
    }
  };

  return {
    backend: "memory",
    write: (batch) =>
      run(() =>
        E.chain((valid: readonly IndexEntry[]): E.Either<IndexError, WriteReceipt> => {
          // Checked before anything is put: a refused batch writes nothing.
          const clash = valid.find((e) => {
            const old = entries.get(entryKey(e.namespace, e.id));
            return old !== undefined && old.content !== e.content;
          });
          if (clash !== undefined) return E.left(idConflict("memory", clash.namespace, clash.id));
          putAll(valid);
          return E.right({ written: valid.length });
        })(validateEntries(batch)),
      ),
    search: (query: string, opts?: SearchOptions) =>
      run(() =>
        E.map(
          ({
            k,
            namespace,
            kinds,
          }: {
            k: number;
            namespace: string | undefined;
            kinds: readonly string[] | undefined;
          }) => {
            const terms = queryTerms(typeof query === "string" ? query : "");
            if (terms.length === 0 || (kinds !== undefined && kinds.length === 0)) return [];
            const scoped = namespace === undefined ? cache : byNs.get(namespace);
            if (scoped === undefined) return [];
            const found = rank(scoped, terms, { k, summaryWeight: boost, namespace, kinds });
            return found.flatMap((r): SearchHit[] => {
              const e = entries.get(r.handle);
              if (e === undefined) return [];
              return [
                {
                  id: e.id,
                  namespace: e.namespace,
                  kind: e.kind,
                  summary: e.summary,
                  snippet: bestSnippet(searchable(e.summary), searchable(e.content), terms),
                  score: r.score,
                  tokenCost: e.tokenCost,
                  createdAt: e.createdAt,
                  evictedAt: e.evictedAt,
                },
              ];
            });
          },
        )(resolveSearchOptions(opts)),
      ),
    expand: (id: string, namespace: string = DEFAULT_NAMESPACE) =>
      run(() => E.right(entries.get(entryKey(namespace, id)))),
    deleteNamespace: (namespace: string) =>
      run(() => {
        let n = 0;
        for (const [key, e] of entries) {
          if (e.namespace !== namespace) continue;
          cache.remove(key);
          entries.delete(key);
          n++;
        }
        byNs.delete(namespace);
        return E.right(n);
      }),
    count: (namespace?: string) =>
      run(() =>
        E.right(
          namespace === undefined
            ? entries.size
            : [...entries.values()].filter((e) => e.namespace === namespace).length,
        ),
      ),
    close: () =>
      run(() => {
        closed = true;
        entries.clear();
        cache.clear();
        byNs.clear();
        return E.right(undefined);
      }),
  };
}
