/**
 * What the tests and benchmarks reach inside @cc/search: its building blocks, imported from its sources.
 * Private (this package is never published); `@cc/search/internal` holds only what sibling packages import.
 *
 * @module @cc/test-support/search
 */
export {
  DEFAULT_NAMESPACE,
  entryKey,
  idConflict,
  messageOf,
  validateEntries,
  type Json,
} from "../../../packages/search/src/contract.js";
export { MAX_QUERY_TERMS, queryTerms, snippet, tokenize } from "../../../packages/search/src/query.js";
export { decodeText, encodeText, isPlainText, searchable } from "../../../packages/search/src/lossless.js";

export { driverUnavailable, loadDriver } from "../../../packages/search/src/driver.js";
export { BM25_B, BM25_K1, idf, indexedTerms, rank, tfPart } from "../../../packages/search/src/ranking/index.js";
export { DEFAULT_POSTINGS_CACHE_BYTES, postingsCacheStats } from "../../../packages/search/src/ranking/scopes.js";
export { installCommand, type PgPoolClientLike } from "../../../packages/search/src/optional-driver.js";
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
} from "../../../packages/search/src/pg-resilience.js";
