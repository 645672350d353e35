/**
 * The chat message model shared by the compactor, the session layer and the index:
 * system / user / assistant (optionally with tool calls) / tool (with the id of its call).
 *
 * @module message
 */
import * as t from "io-ts";

/** One function call issued by an assistant message. `arguments` is the raw JSON text. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** Optional identity and time shared by every message. `timestamp` is epoch milliseconds. */
export interface MessageMeta {
  readonly id?: string;
  readonly timestamp?: number;
}

/** A system prompt. Leading system messages are never compacted. */
export interface SystemMessage extends MessageMeta {
  readonly role: "system";
  readonly content: string;
}

/** A user turn. */
export interface UserMessage extends MessageMeta {
  readonly role: "user";
  readonly content: string;
}

/** An assistant turn; `toolCalls` lists the calls it issued (their results follow as tool messages). */
export interface AssistantMessage extends MessageMeta {
  readonly role: "assistant";
  readonly content: string;
  readonly toolCalls?: readonly ToolCall[];
}

/** The result of one tool call, tied to it by `toolCallId`. `name` is the tool's name when known. */
export interface ToolMessage extends MessageMeta {
  readonly role: "tool";
  readonly content: string;
  readonly toolCallId: string;
  readonly name?: string;
}

/** A chat message (discriminated on `role`). */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The role of a message. */
export type Role = Message["role"];

const finiteNumber = new t.Type<number, number, unknown>(
  "FiniteNumber",
  (u): u is number => typeof u === "number" && Number.isFinite(u),
  (u, c) => (typeof u === "number" && Number.isFinite(u) ? t.success(u) : t.failure(u, c, "expected a finite number")),
  t.identity,
);

const meta = t.partial({ id: t.string, timestamp: finiteNumber });

/** io-ts codec of {@link ToolCall}. */
export const ToolCallCodec: t.Type<ToolCall> = t.readonly(
  t.type({ id: t.string, name: t.string, arguments: t.string }),
  "ToolCall",
);

/** io-ts codec of {@link Message}. */
export const MessageCodec: t.Type<Message> = t.union(
  [
    t.intersection([t.type({ role: t.literal("system"), content: t.string }), meta], "SystemMessage"),
    t.intersection([t.type({ role: t.literal("user"), content: t.string }), meta], "UserMessage"),
    t.intersection(
      [t.type({ role: t.literal("assistant"), content: t.string }), t.partial({ toolCalls: t.readonlyArray(ToolCallCodec) }), meta],
      "AssistantMessage",
    ),
    t.intersection(
      [t.type({ role: t.literal("tool"), content: t.string, toolCallId: t.string }), t.partial({ name: t.string }), meta],
      "ToolMessage",
    ),
  ],
  "Message",
) as t.Type<Message>;

/** io-ts codec of a readonly array of {@link Message}. */
export const MessagesCodec: t.Type<readonly Message[]> = t.readonlyArray(MessageCodec, "Messages");
