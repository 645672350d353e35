/**
 * What the tests and benchmarks reach inside @cc/mastra: its building blocks, imported from its sources.
 * Private (this package is never published); `@cc/mastra/internal` holds only what sibling packages import.
 *
 * @module @cc/test-support/mastra
 */
export { mapBack, type Converted } from "../../../packages/mastra/src/convert/converted.js";
export { fromMastraDBMessages } from "../../../packages/mastra/src/convert/db.js";
export {
  fromLLMPrompt,
  promptNote,
  type LLMPrompt,
  type LLMPromptMessage,
} from "../../../packages/mastra/src/convert/prompt.js";
export { evictToolResult } from "../../../packages/mastra/src/tool-result.js";
