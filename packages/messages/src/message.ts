/**
 * The chat message model every @cc package speaks: system / user / assistant (optionally with tool
 * calls) / tool (with the id of its call). `content` is the text the engine counts, summarises and
 * indexes; `parts` and `extra` carry what it does not interpret (images, audio, provider fields)
 * so conversions round-trip without loss.
 *
 * @module message
 */
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { decodeWith, expectation, invalid, isRecord, leaf, objectCodec, type InvalidInput } from "@cc/validate";

/** A JSON value (what `JSON.parse` can return). */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/**
 * One function call issued by an assistant message. `arguments` is the raw JSON text. `extra`
 * holds the provider's fields of the call the model does not know (OpenAI streaming's and
 * DeepSeek's `index`, …) and `functionExtra` those inside its `function` object; both are
 * returned unchanged on conversion back.
 */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly extra?: { readonly [key: string]: Json };
  readonly functionExtra?: { readonly [key: string]: Json };
}

/**
 * One part of multi-part content as the provider sent it (a text part, an image, audio, a file),
 * kept verbatim; the engine reads only the text parts (joined into `content`).
 */
export type ContentPart = { readonly type: string } & { readonly [key: string]: Json };

/**
 * Optional identity, time and pass-through data shared by every message.
 * `timestamp` is epoch milliseconds; `name` is the participant name of the chat format;
 * `parts` is the original multi-part content; `extra` holds provider fields the model does not
 * know (for example `refusal`, `reasoning_content`), returned unchanged on conversion back.
 */
export interface MessageMeta {
  readonly id?: string;
  readonly timestamp?: number;
  readonly name?: string;
  readonly parts?: readonly ContentPart[];
  readonly extra?: { readonly [key: string]: Json };
}

/**
 * A system prompt. Leading system messages are never compacted. `developer` marks a message that
 * arrived with the OpenAI `developer` role (it converts back to that role).
 */
export interface SystemMessage extends MessageMeta {
  readonly role: "system";
  readonly content: string;
  readonly developer?: true;
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
}

/** A chat message (discriminated on `role`). */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The role of a message. */
export type Role = Message["role"];

const finiteNumber = leaf(
  "FiniteNumber",
  "a finite number",
  (u): u is number => typeof u === "number" && Number.isFinite(u),
);
const str = leaf("String", "a string", (u): u is string => typeof u === "string");
const JsonCodec: t.Type<Json> = t.recursion("Json", () =>
  t.union([t.null, t.boolean, finiteNumber, t.string, t.readonlyArray(JsonCodec), t.record(t.string, JsonCodec)]),
);
const ContentPartCodec = objectCodec(
  "ContentPart",
  { type: str },
  {},
  { closed: false },
) as unknown as t.Type<ContentPart>;
const meta = {
  id: str,
  timestamp: finiteNumber,
  name: str,
  parts: t.readonlyArray(ContentPartCodec),
  extra: t.record(t.string, JsonCodec),
};

/** io-ts codec of {@link ToolCall}. */
export const ToolCallCodec: t.Type<ToolCall> = objectCodec(
  "ToolCall",
  { id: str, name: str, arguments: str },
  { extra: t.record(t.string, JsonCodec), functionExtra: t.record(t.string, JsonCodec) },
  { expected: "a tool call object" },
) as unknown as t.Type<ToolCall>;

const byRole: Readonly<Record<Role, t.Type<Message, Message, unknown>>> = {
  system: objectCodec(
    "SystemMessage",
    { role: t.literal("system"), content: str },
    { developer: t.literal(true), ...meta },
  ) as unknown as t.Type<Message, Message, unknown>,
  user: objectCodec("UserMessage", { role: t.literal("user"), content: str }, meta) as unknown as t.Type<
    Message,
    Message,
    unknown
  >,
  assistant: objectCodec(
    "AssistantMessage",
    { role: t.literal("assistant"), content: str },
    { toolCalls: t.readonlyArray(ToolCallCodec), ...meta },
  ) as unknown as t.Type<Message, Message, unknown>,
  tool: objectCodec(
    "ToolMessage",
    { role: t.literal("tool"), content: str, toolCallId: str },
    meta,
  ) as unknown as t.Type<Message, Message, unknown>,
};
const ROLES = Object.keys(byRole) as readonly Role[];

/**
 * io-ts codec of {@link Message}: dispatches on `role` (an unknown role is named), then checks the
 * fields of that role; unknown fields are rejected with a "did you mean" (`tool_calls` → `toolCalls`).
 */
export const MessageCodec: t.Type<Message, Message, unknown> = new t.Type<Message, Message, unknown>(
  "Message",
  (u): u is Message =>
    isRecord(u) && typeof u["role"] === "string" && u["role"] in byRole && byRole[u["role"] as Role].is(u),
  (u, c) => {
    if (!isRecord(u)) return t.failure(u, c, expectation(c, "a message object", u));
    const role = u["role"];
    if (typeof role !== "string" || !ROLES.includes(role as Role)) {
      const ctx = t.appendContext(c, "role", t.string, role);
      return t.failure(role, ctx, expectation(ctx, `one of ${ROLES.join(", ")}`, role));
    }
    return byRole[role as Role].validate(u, c);
  },
  t.identity,
);

/** io-ts codec of a readonly array of {@link Message} (holes in a sparse array are missing messages). */
export const MessagesCodec: t.Type<readonly Message[], readonly Message[], unknown> = t.readonlyArray(
  MessageCodec,
  "Messages",
);

/**
 * Validates untyped input (parsed JSON, a caller's objects) as messages. Failures name the index
 * and field: `[1].content: expected a string, got 42`. Input that looks like OpenAI chat messages
 * (`tool_calls`, `tool_call_id`, a `developer` role, content as an array of parts) fails with a
 * problem that says so and names `fromOpenAIMessages`, then the first problem found (the others
 * are counted in `more`).
 *
 * @example decodeMessages([{ role: "wizard", content: "hi" }]) // left: "invalid messages: [0].role: expected one of system, user, assistant, tool, got \"wizard\""
 */
export const decodeMessages: (input: unknown) => E.Either<InvalidInput, readonly Message[]> = (input) => {
  const decoded = decodeStrict(input);
  if (E.isRight(decoded)) return decoded;
  const hint = openAIShape(input);
  if (hint === undefined) return decoded;
  const [first, ...rest] = decoded.left.problems;
  return E.left(
    invalid("InvalidInput", "messages", first === undefined ? [hint] : [hint, first], rest.length + decoded.left.more),
  );
};

const decodeStrict = decodeWith(MessagesCodec, "InvalidInput", "messages");

/** The fields of an OpenAI chat message that our messages spell otherwise. */
const OPENAI_FIELDS = ["tool_calls", "tool_call_id", "function_call", "refusal", "audio"] as const;

/**
 * Where `input` first looks like OpenAI chat messages (snake_case tool fields, `developer` or
 * `function` roles, content given as an array of parts), with one line that names the converter;
 * `undefined` when it does not. Reads plain data only: a getter that throws stops the look.
 */
function openAIShape(input: unknown): { readonly path: string; readonly message: string } | undefined {
  if (!Array.isArray(input)) return undefined;
  try {
    for (let i = 0; i < input.length; i++) {
      const m: unknown = input[i];
      if (!isRecord(m)) continue;
      const field = OPENAI_FIELDS.find((f) => Object.prototype.hasOwnProperty.call(m, f));
      const role = m["role"];
      const what =
        field !== undefined
          ? `field ${field}`
          : role === "developer" || role === "function"
            ? `role "${role}"`
            : Array.isArray(m["content"]) || (m["content"] === null && role === "assistant")
              ? `${Array.isArray(m["content"]) ? "an array" : "null"} as content`
              : undefined;
      if (what !== undefined) {
        const framework = what.endsWith("as content")
          ? " or a framework's with its adapter's converter (fromModelMessages in @cc/ai-sdk, …)"
          : "";
        return {
          path: `[${i}]`,
          message: `[${i}]: these look like OpenAI chat messages (${what}); convert them first with fromOpenAIMessages from @cc/messages (back with toOpenAIMessages)${framework}`,
        };
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** Prefix of the summary message a compaction puts after the leading system messages. */
export const SUMMARY_PREFIX = "Summary of the earlier conversation (reference only):\n";

/**
 * The message that carries a summary (or an eviction note) into the next prompt: a user message
 * starting with {@link SUMMARY_PREFIX}.
 *
 * @example summaryMessage("Fixed the parser.") // { role: "user", content: "Summary of the earlier conversation (reference only):\nFixed the parser." }
 */
export function summaryMessage(summary: string): UserMessage {
  return { role: "user", content: `${SUMMARY_PREFIX}${summary}` };
}
