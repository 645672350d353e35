// Values the examples of @cc/langchain use without building them (see .ci/doc-examples.ts; read as
// packages/langchain/src/doc-fixtures.ts, so "langchain" and "@langchain/core" resolve to the
// adapter's own dependencies).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";

/** The agent's state (its thread's messages). */
export declare const state: { readonly messages: BaseMessage[] };
/** The chat model the agent calls. */
export declare const model: BaseChatModel;
/** The agent's own tools. */
export declare const tools: StructuredToolInterface[];
