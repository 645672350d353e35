/**
 * @cc/context — the one way to run a turn. `createContextManager` takes the budget, the strategy
 * and every effect at construction; `compact(history)` returns the next prompt, whether the budget
 * was met, what was evicted and typed warnings.
 *
 * @example
 * import { createContextManager } from "@cc/context";
 * const manager = createContextManager({ maxTokens: 8000 });
 * const { messages, budgetMet, evicted } = await manager.compact(history);
 *
 * @module @cc/context
 */
export {
  ContextManagerError,
  createContextManager,
  decodeContextManager,
  type CompactCallOptions,
  type ContextError,
  type ContextEvent,
  type ContextManager,
  type EventSink,
  type TurnResult,
  type TurnWarning,
} from "./manager.js";
export { ContextManagerOptionsCodec, decodeContextManagerOptions, type ContextManagerOptions } from "./options.js";
export { PRICE_SHEETS, type PriceSheet } from "./policy/prices.js";
export { costVerdict, type CostEstimate } from "./policy/cost-model.js";
export type { CompactionDecision } from "./policy/decide.js";
export { describeDecision } from "./policy/describe.js";
export type { PolicyOptions } from "./policy/settings.js";
export type { ManagerSnapshot } from "./policy/snapshot.js";
export { STRATEGY_NAMES, type StrategyName } from "./strategy.js";
export { createHistoryStrategy, STRATEGY_DEFAULTS, type BuiltStrategy, type HistoryCompaction, type HistoryStrategy, type StrategyDeps } from "./compat/factory.js";
export { decodeStrategyConfig, type StrategyConfig } from "./compat/config.js";
export { createAgentCompactor, type AgentCompactor, type AgentCompactorOptions } from "./compat/agent.js";
export {
  agentPromptCompressor,
  createPromptCompressor,
  type AgentPromptCompressor,
  type CompressionResult,
  type PromptCompressor,
  type PromptCompressorOptions,
} from "./compat/prompt.js";
