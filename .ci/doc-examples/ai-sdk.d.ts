// Values the examples of @cc/ai-sdk use without building them (see .ci/doc-examples.ts; read as
// packages/ai-sdk/src/doc-fixtures.ts, so "ai" resolves to the adapter's own dependency).
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import type { AiSdkContext } from "./index.js";

/** The conversation, as the AI SDK holds it. */
export declare const messages: ModelMessage[];
/** The model the agent calls (a provider's model object). */
export declare const model: Exclude<LanguageModel, string>;
/** The agent's own tools. */
export declare const myTools: ToolSet;
/** A context (`createAiSdkContext`). */
export declare const cc: AiSdkContext;
