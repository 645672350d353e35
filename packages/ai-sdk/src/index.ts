/**
 * @cc/ai-sdk — pair-safe, budgeted, searchable compaction for the Vercel AI SDK (`ai` v6 and v7):
 * a `prepareStep` that compacts a step's messages at the threshold (cached by message prefix),
 * `search_context` / `expand_context` tools over the evicted context, and a
 * `LanguageModelMiddleware` that never lets a prompt over the budget reach the model.
 *
 * @example
 * import { generateText } from "ai";
 * import { createAiSdkContext } from "@cc/ai-sdk";
 * const cc = createAiSdkContext({ maxTokens: 8000 });
 * await generateText({ model, messages, tools: { ...cc.tools }, prepareStep: cc.prepareStep });
 *
 * @module @cc/ai-sdk
 */
export {
  createAiSdkContext,
  decodeAiSdkContext,
  type AiSdkContext,
  type PrepareStepInput,
  type PromptMessage,
} from "./context.js";
export {
  AiSdkContextOptionsCodec,
  AiSdkError,
  decodeAiSdkContextOptions,
  type AiSdkContextOptions,
  type AiSdkEvent,
  type AiSdkFailure,
  type BudgetExceeded,
} from "./options.js";
export {
  fromModelMessages,
  messageViews,
  NOTE_OPTIONS_KEY,
  restoreMessages,
  VIEW_ID_PREFIX,
  type MessageViews,
  type OrphanedResult,
  type SdkMessage,
  type SdkPart,
} from "./convert.js";
export { prefixCompactor, type SdkCompaction, type SdkCompactor } from "./compact.js";
export {
  contextTools,
  type ContextToolError,
  type ContextTools,
  type ExpandContextInput,
  type ExpandContextOutput,
  type SearchContextInput,
  type SearchContextOutput,
} from "./tools.js";
