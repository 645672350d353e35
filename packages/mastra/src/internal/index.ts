/**
 * Conversions between Mastra's message shapes and our message model (for tests, the benchmark and
 * other adapters).
 *
 * @module internal
 */
export { jsonText, mapBack, NO_ORIGIN, type Converted } from "../convert/converted.js";
export { dbMessageToMessages, fromMastraDBMessages } from "../convert/db.js";
export { fromLLMPrompt, outputText, promptNote, type LLMPrompt, type LLMPromptMessage } from "../convert/prompt.js";
export { evictToolResult } from "../tool-result.js";
