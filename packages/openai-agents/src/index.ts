/**
 * @cc/openai-agents — pair-safe, budgeted, searchable compaction for the OpenAI Agents SDK for JS:
 * a `callModelInputFilter`, a compacting `Session` wrapper and `search_context` /
 * `expand_context` tools, all running turns through one `@cc/context` manager.
 *
 * @example
 * import { Agent, MemorySession, run } from "@openai/agents";
 * import { createContextManager } from "@cc/context";
 * import { createAgentsCompaction } from "@cc/openai-agents";
 * const cc = createAgentsCompaction({ manager: createContextManager({ maxTokens: 8000 }) });
 * const agent = new Agent({ name: "coder", instructions: "Fix bugs.", tools: [...cc.tools] });
 * await run(agent, "Fix the CSV reader", { session: new MemorySession(), callModelInputFilter: cc.callModelInputFilter });
 *
 * @module @cc/openai-agents
 */
export {
  AgentsCompactionError,
  createAgentsCompaction,
  decodeAgentsCompaction,
  type AgentsCompaction,
  type AgentsError,
  type CompactedItems,
  type SessionViewOptions,
} from "./compaction.js";
export {
  AgentsCompactionOptionsCodec,
  decodeAgentsCompactionOptions,
  type AdapterWarning,
  type AgentsCompactionOptions,
  type CompactionReport,
  type CompactionSource,
} from "./options.js";
export {
  itemsToMessages,
  messagesToItems,
  isNoteItem,
  type ItemConversion,
  type ItemsBack,
} from "./convert/messages.js";
export { itemKind, type ItemKind } from "./convert/kinds.js";
export { compactingSession, type CompactingSession, type CompactView } from "./session.js";
export { contextTools, type ExpandContextTool, type SearchContextTool, type StrictToolParameters } from "./tools.js";
