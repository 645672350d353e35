/**
 * Message-model internals shared with sibling @cc packages and tests. Not part of the public API.
 *
 * @module @cc/messages/internal
 */
export { MessagesCodec, ToolCallCodec, type MessageMeta } from "../message.js";
export { UNANSWERED_RESULT } from "../openai.js";
export { lastStepStart, safeBoundaries } from "../split.js";
export { planTaskPin, TASK_PIN_MAX_SHARE, taskIndex } from "../task.js";
export type { Strength, Usage } from "../provider.js";
export { installCommand, type PgPoolClientLike, type PgQueryable, type PgResultLike } from "../driver.js";
export { checkoutGuarded, classifyPgError, DEFAULT_PG_CONNECT_TIMEOUT_MS, DEFAULT_PG_STATEMENT_TIMEOUT_MS, ownPgPool, PG_TRANSACTION_ATTEMPTS, pgErrorCode, pgPoolTimeoutSettings, pgTransaction, resolvePgTimeouts, type OwnedPgPool, type PgFailureKind, type PgPoolEvents, type PgTimeoutOptions, type PgTimeouts } from "../pg-resilience.js";
