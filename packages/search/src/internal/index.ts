/**
 * Index, ranking and PostgreSQL internals shared with tests, benchmarks and sibling @cc packages.
 * Not part of the public API.
 *
 * @module @cc/search/internal
 */
export { DEFAULT_NAMESPACE, entryKey, idConflict, messageOf, validateEntries, type Json } from "../contract.js";
export { MAX_QUERY_TERMS, queryTerms, snippet, tokenize } from "../query.js";
export { decodeText, encodeText, isPlainText, searchable } from "../lossless.js";

export { driverUnavailable, loadDriver } from "../driver.js";
export { BM25_B, BM25_K1, idf, indexedTerms, rank, tfPart } from "../ranking/index.js";
export { DEFAULT_POSTINGS_CACHE_BYTES, postingsCacheStats } from "../ranking/scopes.js";
export { installCommand, type PgPoolClientLike } from "../optional-driver.js";
export {
  classifyPgError,
  DEFAULT_PG_CONNECT_TIMEOUT_MS,
  DEFAULT_PG_STATEMENT_TIMEOUT_MS,
  ownPgPool,
  pgErrorCode,
  pgPoolTimeoutSettings,
  pgTransaction,
  resolvePgTimeouts,
  type OwnedPgPool,
} from "../pg-resilience.js";
