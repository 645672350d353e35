/**
 * The session layer: where compaction lives inside a running agent — a persistent summary store,
 * the trigger, iterative summaries, context building and the event bus.
 *
 * @module session
 */
export * from "./store/store.js";
export { memoryStore } from "./store/memory.js";
export { openSqliteStore, SQLITE_MIGRATIONS, type SqliteStoreOptions } from "./store/sqlite.js";
export { openPostgresStore, POSTGRES_MIGRATIONS, type PostgresStoreConfig } from "./store/postgres.js";
export * from "./config.js";
export * from "./template.js";
export * from "./fallback.js";
export * from "./events.js";
export * from "./plan.js";
export * from "./compactor.js";
export * from "./context.js";
export * from "./chat-session.js";
