/**
 * Postings caches by scope: one cache per namespace a process searches (plus one for the whole
 * index when a search spans every namespace), held by a least-recently-used list under a byte
 * cap. A scope's cache holds only that scope's entries, so its BM25 statistics (entry count,
 * document frequencies, average length) are the scope's own: one namespace's entries never
 * change another's ranking.
 *
 * @module search/ranking/scopes
 */
import type { SnapshotStats } from "../snapshots.js";
import { encodeText } from "../lossless.js";

/**
 * Default byte cap of the postings caches of one index instance: 1 GiB. Sized for a worker of
 * 2 cores and 24 GB that runs a few agent processes next to their model clients: a namespace
 * of 1,000 agent-step entries takes about 2.3 MB by the cache's estimate (which is within a few
 * percent of what V8 retains for it), so the cap holds about 450 such namespaces (45 of 10⁴
 * entries) while keeping a process's postings to about 4% of the host's memory.
 */
export const DEFAULT_POSTINGS_CACHE_BYTES = 1 << 30;

/** The scope of a search: one namespace (stored form), or every namespace. */
export type Scope = { readonly namespace: string } | { readonly namespace: undefined };

/** The LRU key of a scope (injective: a namespace key starts with "n", the whole index is "*"). */
export function scopeKey(namespace: string | undefined): string {
  return namespace === undefined ? "*" : `n${namespace}`;
}

/** A scope named by `snapshots.preload`: its namespace as given and stored (undefined for every namespace), and its key. */
export interface PreloadScope {
  readonly namespace: string | undefined;
  readonly stored: string | undefined;
  readonly key: string;
}

/** The scopes `snapshots.preload` names, each once (the whole index first). */
export function preloadScopes(
  preload: { readonly namespaces?: readonly string[]; readonly allNamespaces?: boolean } | undefined,
): readonly PreloadScope[] {
  const out = new Map<string, PreloadScope>();
  for (const namespace of [...(preload?.allNamespaces === true ? [undefined] : []), ...(preload?.namespaces ?? [])]) {
    const stored = namespace === undefined ? undefined : encodeText(namespace);
    const key = scopeKey(stored);
    if (!out.has(key)) out.set(key, { namespace, stored, key });
  }
  return [...out.values()];
}

/** What the caches of one index instance hold, for diagnostics (see {@link postingsCacheStats}). */
export interface PostingsCacheStats {
  /** The byte cap (`postingsCacheBytes`). */
  readonly capBytes: number;
  /** Estimated bytes held by every loaded scope together. */
  readonly bytes: number;
  /** The loaded scopes, least recently used first: a namespace (as given to search), or `undefined` for the whole index. */
  readonly scopes: readonly {
    readonly namespace: string | undefined;
    readonly entries: number;
    readonly bytes: number;
  }[];
  /** Loads from the store since the index was opened (a reload after eviction counts again). */
  readonly loads: number;
  /** Entries read from the store by those loads (catch-ups by generation not included). */
  readonly loadedEntries: number;
  /** Scopes evicted to keep under the cap. */
  readonly evictions: number;
  /**
   * SQLite: the bytes the connection's page cache may hold right now (`PRAGMA cache_size`):
   * better-sqlite3's default (16 MiB) outside loads, 256 KiB while a load reads rows (a load
   * reads each page once, so a larger cache would only hold pages it does not read again).
   * Absent for PostgreSQL (its cache is the server's).
   */
  readonly pageCacheBytes?: number;
  /** With the `snapshots` option: what the scope snapshots did (restored, refused by reason, written, failed). */
  readonly snapshots?: SnapshotStats;
}

/** One cached scope as the LRU sees it. */
export interface Sized {
  /** Estimated bytes held (re-read on {@link ScopeLru.touch}). */
  readonly bytes: () => number;
  /** Live entries. */
  readonly entries: () => number;
  /** Frees the scope's memory (called when it is evicted or the LRU is cleared). */
  readonly release: () => void;
}

/**
 * A least-recently-used map of scopes under a byte cap. The scope just used is never evicted,
 * so one scope larger than the cap is still held (alone).
 *
 * @example
 * const lru = new ScopeLru<Sized>(1 << 20);
 * const cached: Sized = { bytes: () => 2_400_000, entries: () => 1000, release: () => {} };
 * lru.set("nrun-1", "run-1", cached); lru.get("nrun-1");
 */
export class ScopeLru<V extends Sized> {
  private readonly map = new Map<
    string,
    { readonly value: V; readonly namespace: string | undefined; bytes: number }
  >();
  private total = 0;
  /** Loads counted by the owner (see {@link PostingsCacheStats}). */
  loads = 0;
  loadedEntries = 0;
  evictions = 0;

  constructor(readonly capBytes: number) {}

  /** The scope's value, marked most recently used; undefined when not held. */
  get(key: string): V | undefined {
    const slot = this.map.get(key);
    if (slot === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, slot);
    return slot.value;
  }

  /** Every held value (least recently used first), not reordered. */
  values(): V[] {
    return [...this.map.values()].map((s) => s.value);
  }

  /** Holds `value` as the most recently used scope, then evicts others until under the cap. */
  set(key: string, namespace: string | undefined, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.total -= old.bytes;
      this.map.delete(key);
      if (old.value !== value) old.value.release();
    }
    const bytes = value.bytes();
    this.map.set(key, { value, namespace, bytes });
    this.total += bytes;
    this.evict(key);
  }

  /** Re-reads the size of a held scope (after a catch-up grew it) and evicts others if over the cap. */
  touch(key: string): void {
    const slot = this.map.get(key);
    if (slot === undefined) return;
    const bytes = slot.value.bytes();
    this.total += bytes - slot.bytes;
    slot.bytes = bytes;
    this.evict(key);
  }

  /** Drops every scope. */
  clear(): void {
    for (const s of this.map.values()) s.value.release();
    this.map.clear();
    this.total = 0;
  }

  /** The diagnostics of {@link PostingsCacheStats}. */
  stats(): PostingsCacheStats {
    return {
      capBytes: this.capBytes,
      bytes: this.total,
      scopes: [...this.map.values()].map((s) => ({
        namespace: s.namespace,
        entries: s.value.entries(),
        bytes: s.bytes,
      })),
      loads: this.loads,
      loadedEntries: this.loadedEntries,
      evictions: this.evictions,
    };
  }

  private evict(keep: string): void {
    for (const [key, slot] of this.map) {
      if (this.total <= this.capBytes) return;
      if (key === keep) continue;
      this.map.delete(key);
      this.total -= slot.bytes;
      slot.value.release();
      this.evictions++;
    }
  }
}

const registry = new WeakMap<object, () => PostingsCacheStats>();

/** Registers the stats reader of an index instance (called by the backends). */
export function registerCacheStats(index: object, read: () => PostingsCacheStats): void {
  registry.set(index, read);
}

/**
 * What the postings caches of an index opened by `openSqliteIndex` or `openPostgresIndex` hold:
 * which scopes (namespaces, or the whole index) are loaded, their estimated bytes, and how many
 * loads and evictions happened. Undefined for an index with no such cache (e.g. `memoryIndex`
 * or a wrapper).
 *
 * @example
 * await index.search("KeyError", { namespace: "run-1" })();
 * postingsCacheStats(index)?.scopes // [{ namespace: "run-1", entries: 1000, bytes: 2_400_000 }]
 */
export function postingsCacheStats(index: object): PostingsCacheStats | undefined {
  return registry.get(index)?.();
}
