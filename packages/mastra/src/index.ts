/**
 * @cc/mastra — pair-safe, budgeted, searchable compaction for Mastra agents: one `Processor`
 * (history each step, the provider prompt, oversized tool results) over `@cc/context`, and
 * `search_context` / `expand_context` tools over what it evicted.
 *
 * @example
 * import { Agent } from "@mastra/core/agent";
 * import { contextTools, createCompactionProcessor } from "@cc/mastra";
 * const compaction = createCompactionProcessor({ maxTokens: 8000 });
 * const agent = new Agent({ id: "a", name: "a", instructions: "…", model, memory, tools: contextTools(compaction.manager),
 *   inputProcessors: [compaction], outputProcessors: [compaction] });
 *
 * @module @cc/mastra
 */
export {
  createCompactionProcessor,
  decodeCompactionProcessor,
  CompactionProcessorError,
  NOTE_TAG,
  type CompactionProcessor,
} from "./processor.js";
export {
  CompactionProcessorOptionsCodec,
  decodeCompactionProcessorOptions,
  type CompactionProcessorOptions,
  type DecodedOptions,
} from "./options.js";
export type { AdapterWarning, CompactionHook, CompactionReport, EvictedToolResult } from "./report.js";
export {
  contextTools,
  type ContextExpandResult,
  type ContextSearchResult,
  type ContextToolError,
  type ContextToolOptions,
} from "./tools.js";
export type { ToolResultPointer } from "./tool-result.js";
export type { LLMPrompt, LLMPromptMessage } from "./convert/prompt.js";
