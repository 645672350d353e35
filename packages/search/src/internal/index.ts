/**
 * Index, ranking and PostgreSQL internals shared with tests, benchmarks and sibling @cc packages.
 * Not part of the public API.
 *
 * @module @cc/search/internal
 */
export {
  DEFAULT_K,
  DEFAULT_NAMESPACE,
  entryKey,
  idConflict,
  IndexEntryCodec,
  MAX_K,
  messageOf,
  resolveSearchOptions,
  validateEntries,
  type IndexBackend,
  type Json,
  type ResolvedSearch,
} from "../contract.js";
export {
  bestSnippet,
  distinctTerms,
  fts5Match,
  indexedText,
  MAX_FIELD_TERMS,
  MAX_QUERY_TERMS,
  MAX_TERM_LENGTH,
  queryTerms,
  snippet,
  tokenize,
  tsqueryLiteral,
  tsvectorLiteral,
  type SnippetOptions,
} from "../query.js";
export { decodeText, encodeText, entryFromRow, ESCAPED, isPlainJson, isPlainText, searchable, type StoredEntryRow } from "../lossless.js";
export { SQLITE_SCHEMA_VERSION } from "../sqlite-schema.js";
export { POSTGRES_SCHEMA_VERSION } from "../postgres-schema.js";
export type { SqlRunner } from "../postgres.js";
export { driverUnavailable, loadDriver } from "../driver.js";
export { BM25_B, BM25_K1, idf, indexedTerms, PostingsCache, rank, tfPart } from "../ranking/index.js";
export { DEFAULT_POSTINGS_CACHE_BYTES, postingsCacheStats, type PostingsCacheStats } from "../ranking/scopes.js";
export { installCommand, type PgPoolClientLike, type PgQueryable, type PgResultLike } from "../optional-driver.js";
export {
  checkoutGuarded,
  classifyPgError,
  DEFAULT_PG_CONNECT_TIMEOUT_MS,
  DEFAULT_PG_STATEMENT_TIMEOUT_MS,
  ownPgPool,
  PG_TRANSACTION_ATTEMPTS,
  pgErrorCode,
  pgPoolTimeoutSettings,
  pgTransaction,
  resolvePgTimeouts,
  type OwnedPgPool,
  type PgFailureKind,
  type PgPoolEvents,
  type PgTimeoutOptions,
  type PgTimeouts,
} from "../pg-resilience.js";
