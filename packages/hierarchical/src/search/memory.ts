/**
 * In-memory `SegmentIndex` on MiniSearch: nothing to start, nothing persisted. For tests and
 * short-lived agents.
 *
 * @module search/memory
 */
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import MiniSearch from "minisearch";
import type { IndexEntry, IndexError, SearchHit, SearchOptions, SegmentIndex, WriteReceipt } from "./index.js";
import { DEFAULT_NAMESPACE, entryKey, idConflict, resolveSearchOptions, validateEntries } from "./index.js";
import { searchable } from "./lossless.js";
import { decodeWith, numberIn, objectCodec } from "@cc/validate";
import { bestSnippet, indexedTerms, queryTerms } from "./query.js";

interface Doc {
  readonly key: string;
  readonly summary: string;
  readonly content: string;
  readonly namespace: string;
  readonly kind: string;
}


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

const decodeMemoryOptions = decodeWith(objectCodec("MemoryIndexOptions", {}, { summaryBoost: numberIn(0, 1e6) }, { expected: "an options object" }), "InvalidOptions", "memory index options");

/**
 * Creates an empty in-memory index. Terms match exactly (no prefix or fuzzy search), ORed,
 * ranked by MiniSearch's BM25 with summary matches boosted.
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
  const mini = new MiniSearch<Doc>({
    idField: "key",
    fields: ["summary", "content"],
    // Distinct terms per field, capped, like the SQLite and PostgreSQL backends index them: same
    // matching and term weighting everywhere, and MiniSearch does one insertion per distinct term
    // instead of one per occurrence.
    tokenize: (text) => indexedTerms(text),
    processTerm: (term) => term,
    // Vacuuming runs only when this module asks for it and awaits it: MiniSearch's background
    // auto-vacuum can race with removeAll() on close and crash the process.
    autoVacuum: false,
  });
  const vacuumIfDirty = async (): Promise<void> => {
    if (mini.dirtCount > 1000 && mini.dirtFactor > 0.2) await mini.vacuum({ batchSize: 10_000, batchWait: 0 });
  };

  const run =
    <A>(fn: () => E.Either<IndexError, A>, vacuum = false): TE.TaskEither<IndexError, A> =>
    async () => {
      if (E.isLeft(checked)) return checked;
      if (closed) return E.left({ _tag: "IndexClosed", backend: "memory" });
      try {
        const out = fn();
        if (vacuum) await vacuumIfDirty();
        return out;
      } catch (e) {
        return E.left({ _tag: "StorageError", backend: "memory", operation: "memory", message: e instanceof Error ? e.message : String(e) });
      }
    };

  const put = (e: IndexEntry): void => {
    const key = entryKey(e.namespace, e.id);
    if (entries.has(key)) mini.discard(key);
    entries.set(key, e);
    mini.add({ key, summary: e.summary, content: e.content, namespace: e.namespace, kind: e.kind });
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
          valid.forEach(put);
          return E.right({ written: valid.length });
        })(validateEntries(batch)),
        true,
      ),
    search: (query: string, opts?: SearchOptions) =>
      run(() =>
        E.map(({ k, namespace, kinds }: { k: number; namespace: string | undefined; kinds: readonly string[] | undefined }) => {
          const terms = queryTerms(typeof query === "string" ? query : "");
          if (terms.length === 0 || (kinds !== undefined && kinds.length === 0)) return [];
          const kindSet = kinds === undefined ? undefined : new Set(kinds);
          const found = mini.search(
            { combineWith: "OR", queries: terms },
            {
              boost: { summary: boost },
              prefix: false,
              fuzzy: false,
              tokenize: (s) => [s],
              ...(namespace === undefined && kindSet === undefined
                ? {}
                : {
                    filter: (r: { readonly id: unknown }) => {
                      const e = entries.get(String(r.id));
                      return e !== undefined && (namespace === undefined || e.namespace === namespace) && (kindSet === undefined || kindSet.has(e.kind));
                    },
                  }),
            },
          );
          return found.slice(0, k).flatMap((r): SearchHit[] => {
            const e = entries.get(String(r.id));
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
        })(resolveSearchOptions(opts)),
      ),
    expand: (id: string, namespace: string = DEFAULT_NAMESPACE) => run(() => E.right(entries.get(entryKey(namespace, id)))),
    deleteNamespace: (namespace: string) =>
      run(() => {
        let n = 0;
        for (const [key, e] of entries) {
          if (e.namespace !== namespace) continue;
          mini.discard(key);
          entries.delete(key);
          n++;
        }
        return E.right(n);
      }, true),
    count: (namespace?: string) =>
      run(() => E.right(namespace === undefined ? entries.size : [...entries.values()].filter((e) => e.namespace === namespace).length)),
    close: () =>
      run(() => {
        closed = true;
        entries.clear();
        mini.removeAll();
        return E.right(undefined);
      }),
  };
}
