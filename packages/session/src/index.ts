/**
 * @cc/session — compaction inside a running agent: a persistent summary store (memory, SQLite,
 * PostgreSQL), the trigger on the previous turn's input tokens, iterative summaries with a
 * watermark, the prompt built from summary + recent messages, tool-result pruning, and an event bus.
 *
 * @example
 * import { createChatSession, createSessionCompactor, memoryStore } from "@cc/session";
 * import { offlineProvider } from "@cc/lcm";
 * const store = memoryStore();
 * const compactor = createSessionCompactor({ store, provider: offlineProvider(), config: { maxTokens: 32000 } });
 * const chat = createChatSession({ store, compactor, stackId: "demo" });
 *
 * @module @cc/session
 */
export type { StoredMessage, StoredSummary, StoreError, SummaryDraft, SummaryStore } from "./store/store.js";
export { memoryStore } from "./store/memory.js";
export { openSqliteStore, type SqliteStoreOptions } from "./store/sqlite.js";
export { openPostgresStore, type PostgresStoreOptions } from "./store/postgres.js";
export {
  createSessionCompactor,
  decodeSessionCompactor,
  type CompactionOutcome,
  type SessionCompactor,
  type SessionCompactorOptions,
} from "./compactor.js";
export type { SessionCompactionError, SummariserError } from "./errors.js";
export { decodeSessionConfig, sessionConfigDefaults, type SessionCompactionConfig } from "./config.js";
export { buildContext, decodeContextOptions, loadContext, type LoadContextOptions } from "./context.js";
export { createChatSession, type ChatSession, type ChatSessionOptions, type PreparedTurn } from "./chat-session.js";
export {
  createEventBus,
  type EventBus,
  type EventBusOptions,
  type SessionEvent,
  type Subscriber,
  type SubscriberFailure,
} from "./events.js";
export type { SummaryFallback } from "./fallback.js";
export { SESSION_SUMMARY_PREFIX, summaryPrompt } from "./template.js";
export { decodePruneOptions, pruneToolResults, type PruneResult, type PruneSettings } from "./prune.js";
export type { ForceCompactInput, TryCompactInput } from "./compactor.js";
export type { BuildContextInput } from "./context.js";
export type { CompactionDone, CompactionFailed, CompactionTrigger, CompactionWarning } from "./events.js";
export type { SummaryLevel } from "./fallback.js";
export type { SessionSkipReason, TokenSource } from "./plan.js";
export type { PrunedResult } from "./prune.js";
export type { StoreBackend } from "./store/store.js";
export type { SummaryPromptInput } from "./template.js";
