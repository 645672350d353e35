/**
 * What sibling @cc packages (@cc/context, @cc/hierarchical and @cc/session) import from @cc/search: nothing else. Not part of the
 * public API: no stability promise, not for applications. Tests and benchmarks reach the package's
 * other building blocks through the private `@cc/test-support/search` (never published).
 *
 * @module @cc/search/internal
 */
export { DEFAULT_NAMESPACE, entryKey, idConflict, messageOf, validateEntries, type Json } from "../contract.js";
export { MAX_QUERY_TERMS, tokenize } from "../query.js";
export { idf, tfPart } from "../ranking/index.js";
export { installCommand, type PgPoolClientLike } from "../optional-driver.js";
export {
  classifyPgError,
  ownPgPool,
  pgErrorCode,
  pgPoolTimeoutSettings,
  pgTransaction,
  resolvePgTimeouts,
  type OwnedPgPool,
} from "../pg-resilience.js";
