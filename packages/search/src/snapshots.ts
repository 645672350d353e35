/**
 * Persisted snapshots of scope caches, as the SQLite and PostgreSQL indexes use them (option
 * `snapshots`): on a scope's first load the backend reads its snapshot through {@link Snapshots.read}
 * (checked: magic, version, checksum, the index's identity, the scope, a generation not ahead of
 * the counter), restores the cache from it and catches up by generation; a missing or refused
 * snapshot means a load from the rows, after which a new snapshot is written. Writes run in the
 * background ({@link Snapshots.schedule}: encoded on a later turn of the event loop, written
 * atomically by the store), one per scope at a time; a failure is counted in the stats and passed
 * to `onEvent`, never thrown into a search.
 *
 * @module search/snapshots
 */
import { createHash } from "node:crypto";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { callback, intIn, leaf, nonEmptyString, objectCodec } from "@cc/validate";
import {
  decodeSnapshot,
  encodeSnapshot,
  pageChecksums,
  pageCount,
  SNAPSHOT_PAGE,
  snapshotHeader,
  type LaterFailure,
  type SnapshotContent,
  type SnapshotRejection,
  type SnapshotRejectReason,
} from "./ranking/snapshot.js";
import { decodePaged, readPaged, type PagedRead } from "./snapshot-pages.js";
import { directorySnapshotStore, type SnapshotStore, type SnapshotStoreError } from "./snapshot-store.js";

/**
 * Changes after which a snapshot is rewritten however few entries it holds, when `rewriteAfter`
 * allows (see {@link SnapshotOptions.rewriteAfter}): catching up this many is cheap, and a small
 * scope is not rewritten at every few changes.
 */
const REWRITE_FLOOR = 256;

/** What happened to a scope's snapshot (see {@link SnapshotOptions.onEvent}); `namespace` is undefined for the whole-index scope. */
export type SnapshotEvent =
  | {
      readonly type: "restored";
      readonly namespace: string | undefined;
      readonly generation: number;
      readonly entries: number;
    }
  | { readonly type: "missing"; readonly namespace: string | undefined }
  | {
      readonly type: "rejected";
      readonly namespace: string | undefined;
      readonly reason: SnapshotRejectReason | "count";
      readonly detail: string;
    }
  | {
      readonly type: "written";
      readonly namespace: string | undefined;
      readonly generation: number;
      readonly entries: number;
      readonly bytes: number;
    }
  | { readonly type: "failed"; readonly namespace: string | undefined; readonly error: SnapshotStoreError };

/**
 * The `snapshots` option of `openSqliteIndex` and `openPostgresIndex`: keep each loaded scope's
 * postings in a snapshot, so a fresh process restores them instead of rebuilding them from every
 * stored row. Give `dir` (a directory on this host, created when missing), `store: "database"`
 * (the index's own database: every worker on every host that opens the index shares them), or a
 * `store` of your own.
 */
export interface SnapshotOptions {
  /** Directory of the snapshot files, one per table and scope (`<table>.<hash of the scope>.ccsnap`): what this host's processes share. */
  readonly dir?: string;
  /**
   * `"database"`: the snapshots are kept in the index's own database (PostgreSQL: tables
   * `<table>_snapshots` and `<table>_snapshot_parts`, created when missing; SQLite: the same two
   * tables in the index's file), so a fresh worker on any host restores its scope from the
   * snapshot any other worker wrote. Or a store of your own instead of `dir`.
   */
  readonly store?: SnapshotStore | "database";
  /**
   * Scopes to load as the index opens (a worker that knows what it will search: its namespaces,
   * or `allNamespaces` for searches without a namespace). Their snapshots are read at once — from
   * a directory (or a store of your own) while the driver loads and connects — and each scope is
   * loaded in the background as soon as the index is open; its first search waits for that load.
   * A preloaded snapshot is checked exactly as one read on a first search (checksum, identity,
   * scope, a generation not ahead of the counter, the entry count) and refused and rebuilt the
   * same way.
   * @default none (a scope is loaded on its first search)
   */
  readonly preload?: {
    /** Namespaces a search will name. */
    readonly namespaces?: readonly string[];
    /** The scope of searches across every namespace (no `namespace`). */
    readonly allNamespaces?: boolean;
  };
  /**
   * Changes (entries written or removed) applied to a loaded scope after its snapshot before the
   * snapshot is written again, at most: an integer in [1, 2³¹ − 1]. A snapshot that lags is still
   * correct (the load catches up by generation); this bounds how much catching up a fresh process
   * does. A snapshot is rewritten sooner once the changes since it reach a quarter of the entries
   * it holds (and at least 256): catching up costs about as much as loading those rows, so a
   * fresh worker's catch-up stays under about a quarter of a load from the rows, whatever the
   * scope's size, while a rewrite (which costs the scope's size) follows at least a quarter of
   * that size in changes.
   * @default 10000
   */
  readonly rewriteAfter?: number;
  /** Told of every snapshot restored, missing, refused, written or failed to write (never throws into the index; an exception it throws is ignored). */
  readonly onEvent?: (event: SnapshotEvent) => void;
}

/** The scopes of {@link SnapshotOptions.preload}. */
export type SnapshotPreload = NonNullable<SnapshotOptions["preload"]>;

const SnapshotPreloadCodec = objectCodec(
  "SnapshotPreload",
  {},
  { namespaces: t.readonlyArray(t.string), allNamespaces: t.boolean },
  { expected: "an object with namespaces or allNamespaces" },
);

const hasMethods = (u: unknown): u is SnapshotStore =>
  typeof u === "object" &&
  u !== null &&
  ["read", "write", "remove"].every((m) => typeof (u as Record<string, unknown>)[m] === "function");

/** Closed codec of {@link SnapshotOptions}. */
export const SnapshotOptionsCodec = objectCodec(
  "SnapshotOptions",
  {},
  {
    dir: nonEmptyString,
    store: leaf(
      "SnapshotStore",
      '"database" or an object with read, write, remove',
      (u): u is SnapshotStore | "database" => u === "database" || hasMethods(u),
    ),
    preload: SnapshotPreloadCodec,
    rewriteAfter: intIn(1, 2_147_483_647),
    onEvent: callback<(event: SnapshotEvent) => void>(),
  },
  { expected: "an object with dir (or store)" },
);

/** Decoded {@link SnapshotOptions}. */
export type DecodedSnapshotOptions = t.TypeOf<typeof SnapshotOptionsCodec>;

/** Snapshot counters of one index instance (in `postingsCacheStats(index).snapshots`). */
export interface SnapshotStats {
  /** Scopes restored from a snapshot. */
  readonly restored: number;
  /** First loads that found no snapshot. */
  readonly missing: number;
  /** Snapshots refused, by reason ("count": the catch-up left the scope with another entry count than the table). */
  readonly rejected: Readonly<Partial<Record<SnapshotRejectReason | "count", number>>>;
  /** Snapshots written. */
  readonly written: number;
  /** Reads and writes that failed in the store. */
  readonly failures: number;
  /** The last store failure, if any. */
  readonly lastFailure: SnapshotStoreError | undefined;
}

/** The snapshots of one index instance. */
export interface Snapshots {
  /** The snapshot of a scope, checked against the index's identity and current generation; undefined (and reported) when missing or refused. */
  /** The scope's snapshot, checked; `found` is called once its first bytes are read (a snapshot exists, so work that only a restore needs may start). */
  readonly read: (
    scope: string,
    namespace: string | undefined,
    currentGen: number,
    found?: () => void,
  ) => Promise<SnapshotContent | undefined>;
  /**
   * Reports a restored snapshot whose postings, read later, failed (refused: a damaged page; or
   * a store failure): the scope is loaded from the rows and the snapshot replaced by the next write.
   */
  readonly laterFailure: (namespace: string | undefined, failure: LaterFailure) => void;
  /** Reports a restored snapshot that the table contradicts (it is replaced by the next write). */
  readonly contradicted: (namespace: string | undefined, detail: string) => void;
  /** Reports a restore (for stats). */
  readonly restoredScope: (namespace: string | undefined, content: SnapshotContent) => void;
  /**
   * Notes changes applied to a loaded scope; schedules its write when they reach `rewriteAfter`
   * or a quarter of the entries of its snapshot (at least {@link REWRITE_FLOOR}).
   */
  readonly changed: (scope: string, n: number) => void;
  /**
   * Writes the scope's snapshot on a later turn of the event loop (`produce` is called then, and
   * gives undefined when the scope is gone). One write per scope at a time; a request during a
   * write writes again after it.
   */
  readonly schedule: (scope: string, namespace: string | undefined, produce: () => SnapshotContent | undefined) => void;
  /**
   * Registers how to take a restored scope's snapshot, so that `changed` can schedule its rewrite,
   * and how many entries the restored snapshot holds.
   */
  readonly track: (
    scope: string,
    namespace: string | undefined,
    produce: () => SnapshotContent | undefined,
    entries: number,
  ) => void;
  /** Forgets a scope (evicted): its pending write is dropped. */
  readonly forget: (scope: string) => void;
  /** Runs the pending writes now and waits for every write in flight. */
  readonly flush: () => Promise<void>;
  readonly stats: () => SnapshotStats;
}

/** The blob name of a scope's snapshot. */
export function snapshotName(table: string, scope: string): string {
  return `${table}.${createHash("sha256").update(scope).digest("hex").slice(0, 32)}.ccsnap`;
}

/** The store of `dir` or the caller's own; undefined for `store: "database"` (the backend makes that one). */
export function ownStore(options: DecodedSnapshotOptions): SnapshotStore | undefined {
  if (options.store === "database") return undefined;
  return options.store ?? directorySnapshotStore(options.dir ?? ".");
}

/** A blob read, with the checksums of its pages computed as they arrived (undefined when the store did not report them all). */
interface BlobRead {
  readonly got: E.Either<SnapshotStoreError, Uint8Array | undefined>;
  readonly sums: Uint32Array | undefined;
}

/** Reads a blob whole, computing its page checksums part by part as the store reports them; `found` is called on its first bytes. */
async function readBlob(store: SnapshotStore, name: string, found: () => void): Promise<BlobRead> {
  let sums: Uint32Array | undefined;
  let content = 0;
  let hashed = 0;
  let got: E.Either<SnapshotStoreError, Uint8Array | undefined>;
  try {
    got = await store.read(name, (chunk, offset) => {
      if (offset === 0) {
        found();
        const header = snapshotHeader(chunk);
        if (E.isRight(header)) {
          content = header.right.content;
          sums = new Uint32Array(pageCount(content));
        }
      }
      // Parts in order, each whole pages but the content's last (a part that is not: the decoder hashes).
      if (sums === undefined || offset !== hashed || offset % SNAPSHOT_PAGE !== 0) return;
      const end = Math.min(offset + chunk.length, content);
      if (end <= offset) return;
      const whole = end === content ? end : offset + Math.floor((end - offset) / SNAPSHOT_PAGE) * SNAPSHOT_PAGE;
      pageChecksums(chunk.subarray(0, whole - offset), 0, whole - offset, sums.subarray(offset / SNAPSHOT_PAGE));
      hashed = whole;
    });
  } catch (e) {
    got = E.left({ operation: "read", name, message: e instanceof Error ? e.message : String(e) });
  }
  if (E.isLeft(got) || got.right === undefined) return { got, sums: undefined };
  // A blob the store did not report in full is hashed by the decoder.
  return { got, sums: content > 0 && hashed === content ? sums : undefined };
}

/** The first part of a blob read in parts (see `search/snapshot-pages`), or why not; undefined when there is no blob. */
type PagedResult = E.Either<LaterFailure, PagedRead | undefined>;

/** Opens a blob and reads its first part; `found` is called once its header is read. */
async function readBlobPaged(
  open: NonNullable<SnapshotStore["open"]>,
  name: string,
  found: () => void,
): Promise<PagedResult> {
  let opened: Awaited<ReturnType<typeof open>>;
  try {
    opened = await open(name);
  } catch (e) {
    return E.left({
      _tag: "failed",
      error: { operation: "read", name, message: e instanceof Error ? e.message : String(e) },
    });
  }
  if (E.isLeft(opened)) return E.left({ _tag: "failed", error: opened.left });
  if (opened.right === undefined) return E.right(undefined);
  return readPaged(opened.right, name, found);
}

/** A read started before it is asked for (see {@link SnapshotOptions.preload}). */
type Early = (
  | { readonly inParts: false; readonly result: Promise<BlobRead> }
  | { readonly inParts: true; readonly result: Promise<PagedResult> }
) & {
  /** Calls `f` once the blob's first bytes have arrived (now, if they have). */
  readonly onFound: (f: () => void) => void;
};

/** Lets go of an early read that is not used (a read in parts holds its blob open). */
function discard(early: Early): void {
  if (early.inParts)
    void early.result.then((r) => {
      if (E.isRight(r) && r.right !== undefined) r.right.pages.close();
    });
}

/** Snapshot reads started early, by scope key; each is taken once. */
export type Preloaded = Map<string, Early>;

/**
 * Starts reading the snapshots of the scopes with these keys (before the index's identity is
 * known: they are checked when taken); `inParts` as {@link snapshots} reads them.
 */
export function preloadSnapshots(
  store: SnapshotStore,
  table: string,
  keys: readonly string[],
  inParts = false,
): Preloaded {
  const out: Preloaded = new Map();
  for (const key of keys) {
    if (out.has(key)) continue;
    let seen = false;
    const waiting: (() => void)[] = [];
    const found = (): void => {
      seen = true;
      for (const f of waiting.splice(0)) f();
    };
    const name = snapshotName(table, key);
    const onFound = (f: () => void): void => (seen ? f() : void waiting.push(f));
    out.set(
      key,
      inParts && store.open !== undefined
        ? { inParts: true, result: readBlobPaged(store.open, name, found), onFound }
        : { inParts: false, result: readBlob(store, name, found), onFound },
    );
  }
  return out;
}

/**
 * The snapshots of an index on `table` whose identity is `identity`, kept in `store` (`preloaded`:
 * reads started at open). `inParts`: a store that opens blobs for reads of their parts (a
 * directory) is read that way (see `search/snapshot-pages`): a restored scope's content has
 * `later`, and its owner reads the postings lists as they are needed.
 */
export function snapshots(
  options: DecodedSnapshotOptions,
  table: string,
  identity: string,
  store: SnapshotStore,
  preloaded: Preloaded = new Map(),
  inParts = false,
): Snapshots {
  const open = inParts ? store.open : undefined;
  const rewriteAfter = options.rewriteAfter ?? 10_000;
  const emit = (event: SnapshotEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // the observer's failure is its own
    }
  };
  let restored = 0;
  let missing = 0;
  let written = 0;
  let failures = 0;
  let lastFailure: SnapshotStoreError | undefined;
  const rejected: Partial<Record<SnapshotRejectReason | "count", number>> = {};
  const reject = (namespace: string | undefined, reason: SnapshotRejectReason | "count", detail: string): void => {
    rejected[reason] = (rejected[reason] ?? 0) + 1;
    emit({ type: "rejected", namespace, reason, detail });
  };
  const fail = (namespace: string | undefined, error: SnapshotStoreError): void => {
    failures++;
    lastFailure = error;
    emit({ type: "failed", namespace, error });
  };
  /** Reports a snapshot not used: refused, or a store failure (a scope let go meanwhile is no failure). */
  const laterFailure = (namespace: string | undefined, failure: LaterFailure): void => {
    if (failure._tag === "rejected") reject(namespace, failure.rejection.reason, failure.rejection.detail);
    else if (failure._tag === "failed") fail(namespace, failure.error);
  };
  interface Slot {
    namespace: string | undefined;
    produce: (() => SnapshotContent | undefined) | undefined;
    dirty: number;
    /** Entries in the scope's snapshot, as restored or last written (0 before either). */
    entries: number;
    timer: NodeJS.Immediate | undefined;
    running: Promise<void> | undefined;
    again: boolean;
  }
  const slots = new Map<string, Slot>();
  const slotOf = (scope: string): Slot => {
    let s = slots.get(scope);
    if (s === undefined) {
      s = {
        namespace: undefined,
        produce: undefined,
        dirty: 0,
        entries: 0,
        timer: undefined,
        running: undefined,
        again: false,
      };
      slots.set(scope, s);
    }
    return s;
  };
  const writeNow = (scope: string, s: Slot): void => {
    s.timer = undefined;
    if (s.running !== undefined) {
      s.again = true;
      return;
    }
    const produce = s.produce;
    if (produce === undefined) return;
    let content: SnapshotContent | undefined;
    try {
      content = produce();
    } catch (e) {
      fail(s.namespace, {
        operation: "write",
        name: snapshotName(table, scope),
        message: e instanceof Error ? e.message : String(e),
      });
      return;
    }
    if (content === undefined) return;
    s.dirty = 0;
    const bytes = encodeSnapshot(content);
    const entries = content.image.live;
    const generation = content.generation;
    s.running = store
      .write(snapshotName(table, scope), bytes)
      .then((r) => {
        if (E.isLeft(r)) fail(s.namespace, r.left);
        else {
          written++;
          s.entries = entries;
          emit({ type: "written", namespace: s.namespace, generation, entries, bytes: bytes.length });
        }
      })
      .catch((e: unknown) =>
        fail(s.namespace, { operation: "write", name: snapshotName(table, scope), message: String(e) }),
      )
      .finally(() => {
        s.running = undefined;
        if (s.again) {
          s.again = false;
          writeNow(scope, s);
        }
      });
  };
  const schedule = (scope: string, namespace: string | undefined, produce: () => SnapshotContent | undefined): void => {
    const s = slotOf(scope);
    s.namespace = namespace;
    s.produce = produce;
    if (s.timer !== undefined) return;
    s.timer = setImmediate(() => writeNow(scope, s));
  };
  return {
    read: async (scope, namespace, currentGen, found) => {
      const name = snapshotName(table, scope);
      const early = preloaded.get(scope);
      preloaded.delete(scope);
      if (early !== undefined && found !== undefined) early.onFound(found);
      const expect = { identity, scope, maxGeneration: currentGen };
      // Read in parts, or whole: either way a snapshot, none ("missing"), or why it is not used.
      let outcome: E.Either<LaterFailure, SnapshotContent> | "missing";
      if (open !== undefined) {
        // (An early read of the other kind is not used: read again.)
        const paged = await (early?.inParts === true ? early.result : readBlobPaged(open, name, () => found?.()));
        outcome = E.isLeft(paged) ? paged : paged.right === undefined ? "missing" : decodePaged(paged.right, expect);
      } else {
        const { got, sums } = await (early?.inParts === false ? early.result : readBlob(store, name, () => found?.()));
        outcome = E.isLeft(got)
          ? E.left({ _tag: "failed", error: got.left })
          : got.right === undefined
            ? "missing"
            : E.mapLeft((rejection: SnapshotRejection): LaterFailure => ({ _tag: "rejected", rejection }))(
                decodeSnapshot(got.right, expect, sums),
              );
      }
      if (outcome === "missing") {
        missing++;
        emit({ type: "missing", namespace });
        return undefined;
      }
      if (E.isLeft(outcome)) {
        laterFailure(namespace, outcome.left);
        return undefined;
      }
      return outcome.right;
    },
    laterFailure: (namespace, failure) => laterFailure(namespace, failure),
    contradicted: (namespace, detail) => reject(namespace, "count", detail),
    restoredScope: (namespace, content) => {
      restored++;
      emit({ type: "restored", namespace, generation: content.generation, entries: content.image.live });
    },
    changed: (scope, n) => {
      const s = slots.get(scope);
      if (s === undefined || n <= 0) return;
      s.dirty += n;
      const due = Math.min(rewriteAfter, Math.max(REWRITE_FLOOR, Math.ceil(s.entries / 4)));
      if (s.dirty >= due && s.produce !== undefined) schedule(scope, s.namespace, s.produce);
    },
    schedule,
    track: (scope, namespace, produce, entries) => {
      const s = slotOf(scope);
      s.namespace = namespace;
      s.produce = produce;
      s.dirty = 0;
      s.entries = entries;
    },
    forget: (scope) => {
      const s = slots.get(scope);
      if (s === undefined) return;
      if (s.timer !== undefined) clearImmediate(s.timer);
      s.timer = undefined;
      s.produce = undefined;
      if (s.running === undefined) slots.delete(scope);
    },
    flush: async () => {
      // Early reads never taken let their blobs go.
      for (const early of preloaded.values()) discard(early);
      preloaded.clear();
      for (const [scope, s] of slots)
        if (s.timer !== undefined) {
          clearImmediate(s.timer);
          writeNow(scope, s);
        }
      for (;;) {
        const running = [...slots.values()].map((s) => s.running).filter((p): p is Promise<void> => p !== undefined);
        if (running.length === 0) return;
        await Promise.all(running);
      }
    },
    stats: () => ({ restored, missing, rejected: { ...rejected }, written, failures, lastFailure }),
  };
}
