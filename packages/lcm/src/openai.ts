/**
 * Conversion between the OpenAI chat-completions message format and the {@link Message} model.
 * Input is validated field by field; errors name the message index and the field.
 *
 * @module openai
 */
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { AssistantMessage, Message, ToolCall } from "./message.js";

/** A text part of OpenAI multi-part content. Other part types (images, audio) are skipped. */
const ContentPart = t.union([t.type({ type: t.literal("text"), text: t.string }), t.type({ type: t.string })]);

const Content = t.union([t.string, t.null, t.readonlyArray(ContentPart)]);

const OpenAIToolCallCodec = t.type({
  id: t.string,
  type: t.union([t.literal("function"), t.undefined]),
  function: t.type({ name: t.string, arguments: t.string }),
});

/** io-ts codec of one OpenAI chat-completions message (roles system, developer, user, assistant, tool). */
export const OpenAIMessageCodec = t.intersection([
  t.type({ role: t.keyof({ system: null, developer: null, user: null, assistant: null, tool: null }) }),
  t.partial({
    content: Content,
    name: t.string,
    tool_calls: t.readonlyArray(OpenAIToolCallCodec),
    tool_call_id: t.string,
  }),
]);

/** One OpenAI chat-completions message as accepted by {@link fromOpenAIMessages}. */
export type OpenAIMessage = t.TypeOf<typeof OpenAIMessageCodec>;

/** The wire shape {@link toOpenAIMessages} produces. */
export interface OpenAIWireMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly content: string | null;
  readonly tool_calls?: readonly { readonly id: string; readonly type: "function"; readonly function: { readonly name: string; readonly arguments: string } }[];
  readonly tool_call_id?: string;
  readonly name?: string;
}

/** Why OpenAI-format input was rejected: every problem, each naming the index and field. */
export interface OpenAIConversionError {
  readonly _tag: "OpenAIConversionError";
  readonly problems: readonly string[];
}

function pathOf(context: t.Context): string {
  let path = "";
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1]!.type as unknown as { readonly _tag?: string };
    const key = context[i]!.key;
    if (parent._tag === "InterfaceType" || parent._tag === "PartialType") path += `.${key}`;
    else if (parent._tag === "ArrayType" || parent._tag === "ReadonlyArrayType") path += `[${key}]`;
  }
  return path;
}

function describe(value: unknown): string {
  if (value === undefined) return "undefined";
  try {
    const s = JSON.stringify(value);
    return s.length > 60 ? `${s.slice(0, 60)}…` : s;
  } catch {
    return typeof value;
  }
}

function textOf(content: t.TypeOf<typeof Content> | undefined): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  return content.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join("");
}

function convertOne(m: OpenAIMessage, index: number, problems: string[]): Message | undefined {
  const content = textOf(m.content);
  switch (m.role) {
    case "system":
    case "developer":
      return { role: "system", content };
    case "user":
      return { role: "user", content };
    case "assistant": {
      const calls: ToolCall[] = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      const msg: AssistantMessage = calls.length > 0 ? { role: "assistant", content, toolCalls: calls } : { role: "assistant", content };
      return msg;
    }
    case "tool":
      if (m.tool_call_id === undefined) {
        problems.push(`messages[${index}].tool_call_id: required on a tool message`);
        return undefined;
      }
      return m.name === undefined ? { role: "tool", content, toolCallId: m.tool_call_id } : { role: "tool", content, toolCallId: m.tool_call_id, name: m.name };
  }
}

/**
 * Converts OpenAI chat-completions messages (`unknown`, e.g. parsed JSON) into {@link Message}s.
 * `developer` becomes `system`; multi-part content keeps its text parts; `null` content becomes "".
 * A tool result's `name` is filled from the call that issued it when the message lacks one.
 *
 * @example
 * fromOpenAIMessages([{ role: "user", content: "hi" }]) // right([{ role: "user", content: "hi" }])
 * fromOpenAIMessages([{ role: "tool", content: "x" }])
 * // left({ _tag: "OpenAIConversionError", problems: ["messages[0].tool_call_id: required on a tool message"] })
 */
export function fromOpenAIMessages(input: unknown): E.Either<OpenAIConversionError, readonly Message[]> {
  if (!Array.isArray(input)) return E.left({ _tag: "OpenAIConversionError", problems: [`messages: expected an array, got ${describe(input)}`] });
  const problems: string[] = [];
  const out: Message[] = [];
  const callNames = new Map<string, string>();
  input.forEach((raw: unknown, index) => {
    const decoded = OpenAIMessageCodec.decode(raw);
    if (E.isLeft(decoded)) {
      const seen = new Set<string>();
      for (const err of decoded.left) {
        const line = `messages[${index}]${pathOf(err.context)}: invalid value ${describe(err.value)}`;
        if (!seen.has(line)) problems.push(line);
        seen.add(line);
      }
      return;
    }
    const m = convertOne(decoded.right, index, problems);
    if (m === undefined) return;
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) callNames.set(c.id, c.name);
    if (m.role === "tool" && m.name === undefined) {
      const name = callNames.get(m.toolCallId);
      out.push(name === undefined ? m : { ...m, name });
      return;
    }
    out.push(m);
  });
  return problems.length > 0 ? E.left({ _tag: "OpenAIConversionError", problems }) : E.right(out);
}

/** Converts {@link Message}s to the OpenAI chat-completions wire format (for HTTP requests). */
export function toOpenAIMessages(messages: readonly Message[]): readonly OpenAIWireMessage[] {
  return messages.map((m): OpenAIWireMessage => {
    switch (m.role) {
      case "system":
      case "user":
        return { role: m.role, content: m.content };
      case "assistant":
        return m.toolCalls !== undefined && m.toolCalls.length > 0
          ? {
              role: "assistant",
              content: m.content === "" ? null : m.content,
              tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
            }
          : { role: "assistant", content: m.content };
      case "tool":
        return { role: "tool", content: m.content, tool_call_id: m.toolCallId };
    }
  });
}
