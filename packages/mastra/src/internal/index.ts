/**
 * Conversions between Mastra's message shapes and our message model (for tests, the benchmark and
 * other adapters).
 *
 * @module internal
 */
export { mapBack, type Converted } from "../convert/converted.js";
export { fromMastraDBMessages } from "../convert/db.js";
export { fromLLMPrompt, promptNote, type LLMPrompt, type LLMPromptMessage } from "../convert/prompt.js";
export { evictToolResult } from "../tool-result.js";
