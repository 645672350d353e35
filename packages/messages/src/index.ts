/**
 * @cc/messages — the conversation model every @cc package speaks: `Message` and its codec,
 * lossless OpenAI chat conversion, pair-safe units (a tool call with all its results), the
 * `Provider` contract.
 *
 * @example
 * import { fromOpenAIMessages, messageUnits } from "@cc/messages";
 * const body = '[{"role":"user","content":"fix the CSV reader"}]'; // a request's `messages`
 * const r = fromOpenAIMessages(JSON.parse(body));
 * if (r._tag === "Right") console.log(messageUnits(r.right.messages).length, r.right.warnings);
 *
 * @module @cc/messages
 */
export {
  decodeMessages,
  MessageCodec,
  summaryMessage,
  SUMMARY_PREFIX,
  type AssistantMessage,
  type ContentPart,
  type Json,
  type Message,
  type Role,
  type SystemMessage,
  type ToolCall,
  type ToolMessage,
  type UserMessage,
} from "./message.js";
export {
  fromOpenAIMessages,
  toOpenAIMessages,
  type ConversionWarning,
  type Converted,
  type OpenAIMessage,
} from "./openai.js";
export { leadingSystemCount, planTail, safeSplit, type TailPlan } from "./split.js";
export type { TaskPin } from "./task.js";
export { messageUnits, toolCallIssuers, unitKind, unitText, type MessageUnit } from "./units.js";
export type { Completion, CompletionRequest, ModelInfo, Provider, ProviderError } from "./provider.js";
export type { Usage } from "./provider.js";
