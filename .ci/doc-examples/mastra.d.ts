// Values the examples of @cc/mastra use without building them (see .ci/doc-examples.ts; read as
// packages/mastra/src/doc-fixtures.ts, so "@mastra/core" resolves to the adapter's own dependency).
import type { Agent } from "@mastra/core/agent";
import type { MastraDBMessage, MessageList } from "@mastra/core/agent/message-list";
import type { ProcessInputStepArgs, ProcessToolResultArgs } from "@mastra/core/processors";
import type { ToolsInput } from "@mastra/core/agent";
import type { Message } from "@cc/messages";
import type { Converted } from "./convert/converted.js";
import type { CompactionProcessor } from "./index.js";

type AgentConfig = ConstructorParameters<typeof Agent>[0];

/** The processor (`createCompactionProcessor`). */
export declare const compaction: CompactionProcessor;
/** The model the agent calls. */
export declare const model: AgentConfig["model"];
/** The agent's memory. */
export declare const memory: NonNullable<AgentConfig["memory"]>;
/** The agent's own tools. */
export declare const myTools: ToolsInput;
/** A stored message. */
export declare const stored: MastraDBMessage;
/** The message list of a processor call. */
export declare const messageList: MessageList;
/** The arguments of one `processInputStep` call. */
export declare const step: ProcessInputStepArgs;
/** The arguments of one `processToolResult` call. */
export declare const args: ProcessToolResultArgs;
/** A prompt's stored messages. */
export declare const prompt: readonly MastraDBMessage[];
/** Their conversion to messages (`fromMastraDBMessages`). */
export declare const converted: Converted;
/** What the manager kept of the converted messages. */
export declare const kept: readonly Message[];
