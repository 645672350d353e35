/**
 * A `SegmentIndex` that holds the writes of one run and sends them to the real index in one
 * atomic batch when the run is done — so an interrupted run (a signal, an abort, a crash) leaves
 * the index with nothing of that run, and a finished one with all of it.
 *
 * @module staged-index
 */
import { entryKey, validateEntries } from "@cc/hierarchical/internal";
import { type IndexEntry, type IndexError, type SegmentIndex, type WriteReceipt } from "@cc/hierarchical";
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
 * at once) and kept in memory; searches, expands and counts read the real index (staged entries
 * are not visible before the commit); `close` leaves the real index open (its owner closes it).
 *
 * @example
 * const staged = stagedIndex(index);
 * await evictUnits(messages, settings, { index: staged, counter, now }, signal)();
 * if (!signal.aborted) await staged.commit()();
 */
export function stagedIndex(index: SegmentIndex): StagedIndex {
  const staged = new Map<string, IndexEntry>();
  return {
    backend: index.backend,
    write: (entries) => async () => {
      const valid = validateEntries(entries);
      if (E.isLeft(valid)) return valid;
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
