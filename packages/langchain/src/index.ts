/**
 * @cc/langchain — pair-safe, budgeted, searchable compaction for LangChain.js v1 agents: one
 * `createMiddleware` middleware (`wrapModelCall` model-only view or `beforeModel` persisted
 * history, `wrapToolCall` eviction of oversized tool results, `search_context` / `expand_context`
 * tools) over a `@cc/context` manager, a lossless `BaseMessage` ⇄ `Message` conversion, and a
 * `SummaryStore` of `@cc/session` kept in a LangGraph `BaseStore` (`baseStoreSummaryStore`).
 *
 * @example
 * import { createAgent } from "langchain";
 * import { createContextManager } from "@cc/context";
 * import { compactionMiddleware } from "@cc/langchain";
 * const manager = createContextManager({ maxTokens: 8000 });
 * const agent = createAgent({ model, tools, middleware: [compactionMiddleware({ manager })] });
 *
 * @module @cc/langchain
 */
export {
  compactionMiddleware,
  decodeCompactionMiddleware,
  REMOVE_ALL_MESSAGES,
  type CompactionMiddleware,
} from "./middleware.js";
export {
  CompactionMiddlewareOptionsCodec,
  CompactionMiddlewareOptionsError,
  decodeCompactionMiddlewareOptions,
  type CallbackName,
  type CompactionEvent,
  type CompactionHook,
  type CompactionMiddlewareError,
  type CompactionMiddlewareOptions,
  type CompactionMode,
  type ManagerFactory,
  type ResolvedOptions,
  type ToolResultEviction,
} from "./options.js";
export {
  fromLangChain,
  messageText,
  newLangChainMessage,
  NOTE_SOURCE,
  toLangChain,
  type LangChainView,
} from "./convert.js";
export { contextTools, EXPAND_TOOL, SEARCH_TOOL } from "./tools.js";
export { baseStoreSummaryStore } from "./store/base-store.js";
export {
  BaseStoreSummaryStoreOptionsCodec,
  type BaseStoreSummaryStoreOptions,
  type LangGraphStore,
} from "./store/options.js";
