/**
 * @cc/messages — the conversation model every @cc package speaks: `Message` and its codec,
 * lossless OpenAI chat conversion, pair-safe units (a tool call with all its results), the
 * `Provider` contract, and the optional database driver loader.
 *
 * @example
 * import { fromOpenAIMessages, messageUnits } from "@cc/messages";
 * const r = fromOpenAIMessages(JSON.parse(body));
 * if (r._tag === "Right") console.log(messageUnits(r.right.messages).length, r.right.warnings);
 *
 * @module @cc/messages
 */
export {
  decodeMessages,
  MessageCodec,
  MessagesCodec,
  summaryMessage,
  SUMMARY_PREFIX,
  ToolCallCodec,
  type AssistantMessage,
  type ContentPart,
  type Json,
  type Message,
  type MessageMeta,
  type Role,
  type SystemMessage,
  type ToolCall,
  type ToolMessage,
  type UserMessage,
} from "./message.js";
export { fromOpenAIMessages, toOpenAIMessages, UNANSWERED_RESULT, type ConversionWarning, type Converted, type OpenAIMessage } from "./openai.js";
export { leadingSystemCount, planTail, safeBoundaries, safeSplit, type TailPlan } from "./split.js";
export { messageUnits, toolCallIssuers, unitKind, unitText, type MessageUnit } from "./units.js";
export type { Completion, CompletionRequest, ModelInfo, Provider, ProviderError, Strength, Usage } from "./provider.js";
export {
  installCommand,
  loadOptionalDriver,
  POSTGRES_DRIVER,
  SQLITE_DRIVER,
  type DriverLoadFailure,
  type DriverPackage,
  type PgPoolClientLike,
  type PgPoolLike,
  type PgQueryable,
  type PgResultLike,
} from "./driver.js";
