// Messages the examples of @cc/messages list without building them (see .ci/doc-examples.ts; read
// as packages/messages/src/doc-fixtures.ts).
import type { AssistantMessage, SystemMessage, ToolMessage, UserMessage } from "./index.js";

/** A system prompt. */
export declare const sys: SystemMessage;
/** A user turn. */
export declare const u: UserMessage;
/** An assistant turn that issues the tool call `c1`. */
export declare const callC1: AssistantMessage;
/** The result of the tool call `c1`. */
export declare const toolC1: ToolMessage;
