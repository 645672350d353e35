/**
 * A `SegmentIndex` that holds the writes of one run and sends them to the real index in one
 * atomic batch when the run is done — so an interrupted run (a signal, an abort, a crash) leaves
 * the index with nothing of that run, and a finished one with all of it.
 *
 * @module staged-index
 */
import { entryKey, idConflict, validateEntries } from "@cc/search/internal";
import { type IndexEntry, type IndexError, type SegmentIndex, type WriteReceipt } from "@cc/search";
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";

/** A {@link SegmentIndex} whose writes wait for {@link StagedIndex.commit}. */
export interface StagedIndex extends SegmentIndex {
  /** Entries written so far and not yet committed (the last write of an `(namespace, id)` wins). */
  readonly pending: () => number;
  /** Writes every pending entry to the real index in one batch (all or none), then forgets them. */
  readonly commit: () => TaskEither<IndexError, WriteReceipt>;
}

/**
 * Stages writes to `index`. A write is validated as the real index would (a bad batch is refused
 * at once), and refused with `IdConflict` — as the real index would refuse it at the commit — when
 * an entry's `(namespace, id)` already holds a different original, staged or in the real index
 * (read with `expand`; a failing read refuses the write with that error). An accepted write is
 * kept in memory. So a conflict is met by the write of that one entry, where the writer can
 * choose another id, never by the commit of the whole batch (unless another process writes a
 * different original under the same id between the two). Searches, expands and counts read the
 * real index (staged entries are not visible before the commit); `close` leaves the real index
 * open (its owner closes it).
 *
 * @example
 * const signal = AbortSignal.timeout(30_000);
 * const staged = stagedIndex(index);
 * await evictUnits(history, { targetTokens: 8000, preserveLast: 6, namespace: "run-1", noteTokens: 300, concurrency: 4 }, { index: staged, counter, now: Date.now() }, signal)();
 * if (!signal.aborted) await staged.commit()();
 */
export function stagedIndex(index: SegmentIndex): StagedIndex {
  const staged = new Map<string, IndexEntry>();
  /** What `(namespace, id)` of `entry` holds now: the staged entry, else the real index's. */
  const holder = async (entry: IndexEntry): Promise<E.Either<IndexError, IndexEntry | undefined>> => {
    const mine = staged.get(entryKey(entry.namespace, entry.id));
    return mine === undefined ? index.expand(entry.id, entry.namespace)() : E.right(mine);
  };
  return {
    backend: index.backend,
    write: (entries) => async () => {
      const valid = validateEntries(entries);
      if (E.isLeft(valid)) return valid;
      for (const entry of valid.right) {
        const held = await holder(entry);
        if (E.isLeft(held)) return held;
        if (held.right !== undefined && held.right.content !== entry.content)
          return E.left(idConflict(index.backend, entry.namespace, entry.id));
      }
      for (const entry of valid.right) staged.set(entryKey(entry.namespace, entry.id), entry);
      return E.right({ written: valid.right.length });
    },
    search: (query, options) => index.search(query, options),
    expand: (id, namespace) => index.expand(id, namespace),
    deleteNamespace: (namespace) => index.deleteNamespace(namespace),
    count: (namespace) => index.count(namespace),
    close: () => async () => E.right(undefined),
    pending: () => staged.size,
    commit: () => async () => {
      if (staged.size === 0) return E.right({ written: 0 });
      const batch = [...staged.values()];
      const r = await index.write(batch)();
      if (E.isRight(r)) staged.clear();
      return r;
    },
  };
}
