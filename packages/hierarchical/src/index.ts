/**
 * @cc/hierarchical — summary-on-evict: evicted context segments are summarised into a
 * searchable, durable index (in-memory, SQLite FTS5, PostgreSQL) the agent can search and expand.
 *
 * @module @cc/hierarchical
 */
export * from "./search/index.js";
export * from "./search/query.js";
export * from "./search/lossless.js";
export { SQLITE_SCHEMA_VERSION } from "./search/sqlite-schema.js";
export { POSTGRES_SCHEMA_VERSION } from "./search/postgres-schema.js";
export * from "./search/memory.js";
export * from "./search/sqlite.js";
export * from "./search/postgres.js";
export * from "./writer.js";
export * from "./compact.js";
export * from "./summarize.js";
export * from "./tools.js";
export * from "./prefetch.js";
export * from "./strategy/index.js";
