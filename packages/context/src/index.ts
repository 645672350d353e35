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
  type EvictedToolResult,
  type ManagerLimits,
  type TurnResult,
  type TurnWarning,
} from "./manager.js";
export {
  CONTEXT_TOOL_NAMES,
  contextToolCore,
  contextToolDefinitions,
  strictParameters,
  toolReply,
  type ContextHit,
  type ContextTool,
  type ContextToolCore,
  type ContextToolError,
  type ContextToolOptions,
  type ExpandContextResult,
  type JsonSchema,
  type SearchContextResult,
} from "./tools.js";
export { textPage, type TextPage } from "./page.js";
export { ContextManagerOptionsCodec, decodeContextManagerOptions, type ContextManagerOptions } from "./options.js";
export { PRICE_SHEETS, type PriceSheet } from "./policy/prices.js";
export { costVerdict, type CostEstimate } from "./policy/cost-model.js";
export type { CompactionDecision } from "./policy/decide.js";
export { describeDecision } from "./policy/describe.js";
export type { PolicyOptions } from "./policy/settings.js";
export type { ManagerSnapshot } from "./policy/snapshot.js";
export { STRATEGY_NAMES, type StrategyName } from "./strategy.js";
// The Go port's compatibility layer (strategies by name, agent compactor, prompt compressors): `@cc/context/compat`.
export type { CostInput, CostVerdict } from "./policy/cost-model.js";
export type { CompactReason, PolicyState, SummariserState, SummariserUse, WaitReason } from "./policy/decide.js";
export type { Rendering } from "./policy/rendering.js";
export type { RecallOptions } from "./recall.js";
export type { Resolved } from "./types.js";
