/**
 * @cc/context/compat — the Go port's compatibility layer: the history strategies built by name
 * from a config (with their setters), the agent compactor and the prompt compressors. New code
 * uses `createContextManager` from `@cc/context`; this subpath keeps the Go-shaped API for code
 * ported from it.
 *
 * @example
 * import { createHistoryStrategy } from "@cc/context/compat";
 * const built = createHistoryStrategy({ strategy: "importance", maxTokens: 8000 });
 *
 * @module @cc/context/compat
 */
export {
  createHistoryStrategy,
  STRATEGY_DEFAULTS,
  type BuiltStrategy,
  type HistoryCompaction,
  type HistoryStrategy,
  type StrategyDeps,
} from "./factory.js";
export { decodeStrategyConfig, type StrategyConfig } from "./config.js";
export { createAgentCompactor, type AgentCompactor, type AgentCompactorOptions } from "./agent.js";
export {
  agentPromptCompressor,
  createPromptCompressor,
  type AgentPromptCompressor,
  type CompressionResult,
  type PromptCompressor,
  type PromptCompressorOptions,
} from "./prompt.js";
export {
  decodeJournalToolOptions,
  journalTools,
  JournalToolOptionsCodec,
  type AgentTool,
  type JournalToolConfig,
  type JournalToolOptions,
  type JournalTools,
} from "./journal.js";
export type { AgentPromptCompression, SkipReason } from "./prompt.js";
