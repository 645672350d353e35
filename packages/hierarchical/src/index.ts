/**
 * @cc/hierarchical — summary-on-evict: evicted context segments are summarised into a searchable,
 * durable index (`@cc/search`: in memory, SQLite FTS5, PostgreSQL) that the agent can search and
 * expand back.
 *
 * @example
 * import { evictUnits } from "@cc/hierarchical";
 * import { memoryIndex } from "@cc/search";
 * const index = memoryIndex();
 * const r = await evictUnits(history, { targetTokens: 8000, preserveLast: 6, namespace: "run-1", noteTokens: 300, concurrency: 4 }, { index, counter, now: Date.now() })();
 *
 * @module @cc/hierarchical
 */
/** @deprecated import from `@cc/search`: the search engine has its own package (re-exported here for one release). */
export {
  entry,
  type IndexEntry,
  type IndexError,
  type SearchHit,
  type SearchOptions,
  type SegmentIndex,
  type WriteReceipt,
} from "@cc/search";
/** @deprecated import from `@cc/search` (re-exported here for one release). */
export { memoryIndex, type MemoryIndexOptions } from "@cc/search";
/** @deprecated import from `@cc/search` (re-exported here for one release). */
export { openSqliteIndex, type SqliteIndexOptions } from "@cc/search";
/** @deprecated import from `@cc/search` (re-exported here for one release). */
export { openPostgresIndex, pgClient, type PostgresIndexOptions, type SqlClient } from "@cc/search";
export {
  hierarchicalCompact,
  type HierarchicalCompactOptions,
  type HierarchicalResult,
  type SegmentFailure,
  type Summarizer,
} from "./compact.js";
export { indexWriter, summaryWriterFunc, type SummaryWriter } from "./writer.js";
export { extractiveSummarizer, providerSummarizer } from "./summarize.js";
export { buildSegments, type MessageSegment } from "./strategy/segments.js";
export { reaccesses, references } from "./strategy/references.js";
export {
  evictUnits,
  withNote,
  type EvictedEntry,
  type Eviction,
  type EvictionOptions,
  type EvictionRunOptions,
  type MaskedEntry,
  type MaskOptions,
  type StrategyCounter,
} from "./strategy/evict.js";
export type { SummaryResult } from "./compact.js";
export type { InvalidEviction } from "./strategy/evict.js";
export type { EvictionScoring } from "./strategy/options.js";
export type { BuildOptions } from "./strategy/segments.js";
export type { ExtractiveOptions, ProviderSummarizerOptions } from "./summarize.js";
export type { IndexWriterOptions, StoredAs, WriteContext, WriteError } from "./writer.js";
