/**
 * @cc/search — the searchable, durable index of evicted context: BM25 ranking over postings, three
 * backends (in memory, SQLite FTS5, PostgreSQL) behind one `SegmentIndex` contract, the PostgreSQL
 * client with its retry handling, and the loader of the optional database drivers.
 *
 * @example
 * import { entry, memoryIndex } from "@cc/search";
 * const index = memoryIndex();
 * await index.write([entry({ id: "s1", summary: "read src/app.py", content: "…" })])();
 * const hits = await index.search("app.py", { k: 5 })(); // Right([{ id: "s1", … }])
 *
 * @module @cc/search
 */
export {
  entry,
  type IndexEntry,
  type IndexError,
  type SearchHit,
  type SearchOptions,
  type SegmentIndex,
  type WriteReceipt,
} from "./contract.js";
export { memoryIndex, type MemoryIndexOptions } from "./memory.js";
export { openSqliteIndex, type SqliteIndexOptions } from "./sqlite.js";
export { openPostgresIndex, pgClient, type PostgresIndexOptions, type SqlClient } from "./postgres.js";
export {
  loadOptionalDriver,
  POSTGRES_DRIVER,
  SQLITE_DRIVER,
  type DriverLoadFailure,
  type DriverPackage,
  type PgPoolLike,
} from "./optional-driver.js";
export type { IndexBackend } from "./contract.js";
export type { PgPoolClientLike, PgResultLike } from "./optional-driver.js";
export type { SqlRunner } from "./sql.js";
export type { SnapshotEvent, SnapshotOptions, SnapshotStats } from "./snapshots.js";
export { DEFAULT_POSTINGS_CACHE_BYTES, postingsCacheStats, type PostingsCacheStats } from "./ranking/scopes.js";
export type { ChunkObserver, SnapshotBlob, SnapshotStore, SnapshotStoreError } from "./snapshot-store.js";
