/**
 * Lossless conversion between the OpenAI chat-completions message format and the {@link Message}
 * model. Everything the engine does not interpret travels along: `name`, the `developer` role,
 * multi-part content (images, audio, files) in `parts`, and unknown provider fields in `extra` (a
 * tool call's own, such as `index`, in the call's `extra` and `functionExtra`).
 *
 * Broken conversations are handled per case, and each repair is reported as a warning, so the
 * result is always a prompt the chat API accepts and nothing is dropped without a word:
 * - a malformed message (wrong types, a text part whose `text` is not a string, a tool message
 *   without `tool_call_id`) is an `InvalidInput` failure naming the index and field;
 * - an orphaned tool result (no earlier call with its id) becomes a user message quoting it;
 * - a call id used by two assistant calls is renamed in the later call and its results;
 * - a call never answered although the conversation goes on gets a placeholder result
 *   (calls at the very end are pending, not unanswered, and are left alone).
 *
 * @module openai
 */
import * as E from "fp-ts/lib/Either.js";
import { invalid, isRecord, type InvalidInput } from "@cc/validate";
import type { AssistantMessage, ContentPart, Json, Message, MessageMeta, ToolCall } from "./message.js";

/** One OpenAI chat-completions message as sent on the wire (input or output of the conversion). */
export interface OpenAIMessage {
  readonly role: "system" | "developer" | "user" | "assistant" | "tool";
  readonly content?: string | null | readonly ContentPart[];
  readonly name?: string;
  /** The calls of an assistant message; fields beyond these (e.g. `index`) travel in the call's `extra` / `functionExtra`. */
  readonly tool_calls?: readonly {
    readonly id: string;
    readonly type: "function";
    readonly function: { readonly name: string; readonly arguments: string; readonly [extra: string]: unknown };
    readonly [extra: string]: unknown;
  }[];
  readonly tool_call_id?: string;
  readonly [extra: string]: unknown;
}

/** A repair made while converting: which message, what was wrong, what was done. */
export interface ConversionWarning {
  readonly _tag: "OrphanedToolResult" | "DuplicateCallId" | "UnansweredCall";
  /** Index of the message in the input. */
  readonly index: number;
  /** The call id concerned. */
  readonly callId: string;
  readonly message: string;
}

/** Messages converted from OpenAI format, with the repairs that were needed. */
export interface Converted {
  readonly messages: readonly Message[];
  readonly warnings: readonly ConversionWarning[];
}

/** Text of the placeholder result given to a call that was never answered. */
export const UNANSWERED_RESULT = "[no result was recorded for this call]";

const KNOWN = new Set(["role", "content", "name", "tool_calls", "tool_call_id"]);
const CALL_KNOWN = new Set(["id", "type", "function"]);
const FUNCTION_KNOWN = new Set(["name", "arguments"]);
const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

function isJson(u: unknown, depth = 0): u is Json {
  if (depth > 64) return false;
  if (u === null || typeof u === "boolean" || typeof u === "string") return true;
  if (typeof u === "number") return Number.isFinite(u);
  if (Array.isArray(u)) return u.every((v) => isJson(v, depth + 1));
  return isRecord(u) && Object.values(u).every((v) => isJson(v, depth + 1));
}

/**
 * The fields of `raw` outside `known` (undefined ones skipped), or `undefined` when there are
 * none; a field that is not JSON is a problem at `at.<key>`.
 */
function extraFields(
  raw: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
  at: string,
  problems: string[],
): { readonly [key: string]: Json } | undefined {
  const extra: Record<string, Json> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (known.has(k) || v === undefined) continue;
    if (!isJson(v)) problems.push(`${at}.${k}: expected JSON data`);
    else extra[k] = v;
  }
  return Object.keys(extra).length === 0 ? undefined : extra;
}

function show(u: unknown): string {
  if (u === undefined) return "undefined";
  try {
    const s = JSON.stringify(u) ?? typeof u;
    return s.length > 60 ? `${s.slice(0, 60)}…` : s;
  } catch {
    return typeof u;
  }
}

interface Decoded {
  readonly role: OpenAIMessage["role"];
  readonly text: string;
  readonly parts?: readonly ContentPart[];
  readonly nullContent: boolean;
  readonly name?: string;
  readonly calls?: readonly ToolCall[];
  readonly toolCallId?: string;
  readonly extra?: { readonly [key: string]: Json };
}

function decodeOne(raw: unknown, at: string, problems: string[]): Decoded | undefined {
  if (!isRecord(raw)) {
    problems.push(`${at}: expected a message object, got ${show(raw)}`);
    return undefined;
  }
  const before = problems.length;
  const role = raw["role"];
  if (typeof role !== "string" || !ROLES.has(role))
    problems.push(`${at}.role: expected one of system, developer, user, assistant, tool, got ${show(role)}`);
  const content = raw["content"];
  let text = "";
  let parts: ContentPart[] | undefined;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    parts = [];
    content.forEach((p: unknown, j) => {
      if (!isRecord(p) || typeof p["type"] !== "string")
        return void problems.push(`${at}.content[${j}]: expected a content part with a string type, got ${show(p)}`);
      if (p["type"] === "text" && typeof p["text"] !== "string")
        return void problems.push(`${at}.content[${j}].text: expected a string, got ${show(p["text"])}`);
      if (!isJson(p)) return void problems.push(`${at}.content[${j}]: expected JSON data`);
      parts!.push(p as ContentPart);
    });
    text = parts
      .filter((p) => p.type === "text")
      .map((p) => p["text"] as string)
      .join("");
  } else if (content !== undefined && content !== null)
    problems.push(`${at}.content: expected a string, null or an array of parts, got ${show(content)}`);
  const name = raw["name"];
  if (name !== undefined && typeof name !== "string") problems.push(`${at}.name: expected a string, got ${show(name)}`);
  let calls: ToolCall[] | undefined;
  const rawCalls = raw["tool_calls"];
  if (rawCalls !== undefined) {
    if (role !== "assistant") problems.push(`${at}.tool_calls: only an assistant message issues tool calls`);
    if (!Array.isArray(rawCalls)) problems.push(`${at}.tool_calls: expected an array, got ${show(rawCalls)}`);
    else {
      calls = [];
      rawCalls.forEach((c: unknown, j) => {
        const f = isRecord(c) ? c["function"] : undefined;
        if (
          !isRecord(c) ||
          typeof c["id"] !== "string" ||
          (c["type"] !== undefined && c["type"] !== "function") ||
          !isRecord(f) ||
          typeof f["name"] !== "string" ||
          typeof f["arguments"] !== "string"
        ) {
          return void problems.push(
            `${at}.tool_calls[${j}]: expected { id: string, type: "function", function: { name: string, arguments: string } }, got ${show(c)}`,
          );
        }
        const extra = extraFields(c, CALL_KNOWN, `${at}.tool_calls[${j}]`, problems);
        const functionExtra = extraFields(f, FUNCTION_KNOWN, `${at}.tool_calls[${j}].function`, problems);
        calls!.push({
          id: c["id"],
          name: f["name"],
          arguments: f["arguments"],
          ...(extra === undefined ? {} : { extra }),
          ...(functionExtra === undefined ? {} : { functionExtra }),
        });
      });
    }
  }
  const toolCallId = raw["tool_call_id"];
  if (role === "tool" && typeof toolCallId !== "string")
    problems.push(`${at}.tool_call_id: required on a tool message (a string), got ${show(toolCallId)}`);
  if (role !== "tool" && toolCallId !== undefined)
    problems.push(`${at}.tool_call_id: only a tool message answers a call`);
  const extra = extraFields(raw, KNOWN, at, problems);
  if (problems.length > before) return undefined;
  return {
    role: role as OpenAIMessage["role"],
    text,
    nullContent: content === null,
    ...(parts === undefined ? {} : { parts }),
    ...(typeof name === "string" ? { name } : {}),
    ...(calls === undefined ? {} : { calls }),
    ...(typeof toolCallId === "string" ? { toolCallId } : {}),
    ...(extra === undefined ? {} : { extra }),
  };
}

function metaOf(d: Decoded): MessageMeta {
  return {
    ...(d.name === undefined ? {} : { name: d.name }),
    ...(d.parts === undefined ? {} : { parts: d.parts }),
    ...(d.extra === undefined ? {} : { extra: d.extra }),
  };
}

/**
 * Converts OpenAI chat-completions messages (`unknown`, e.g. parsed JSON) into {@link Message}s,
 * losslessly, repairing broken tool-call pairing with a warning per repair (see the module doc).
 *
 * @example
 * fromOpenAIMessages([{ role: "developer", content: "Be brief.", name: "ops" }])
 * // right({ messages: [{ role: "system", developer: true, content: "Be brief.", name: "ops" }], warnings: [] })
 * fromOpenAIMessages([{ role: "tool", content: "x" }])
 * // left({ _tag: "InvalidInput", subject: "OpenAI messages", problems: [{ message: "[0].tool_call_id: required on a tool message …" }], … })
 */
export function fromOpenAIMessages(input: unknown): E.Either<InvalidInput, Converted> {
  if (!Array.isArray(input))
    return E.left(invalid("InvalidInput", "OpenAI messages", [`messages: expected an array, got ${show(input)}`]));
  const problems: string[] = [];
  const decoded: (Decoded | undefined)[] = [];
  for (let i = 0; i < input.length; i++) decoded.push(decodeOne(i in input ? input[i] : undefined, `[${i}]`, problems));
  if (problems.length > 0) return E.left(invalid("InvalidInput", "OpenAI messages", problems));
  const warnings: ConversionWarning[] = [];
  const out: Message[] = [];
  // Call ids in use (id → final id of the latest issuer), every id ever issued, and calls still unanswered.
  const live = new Map<string, string>();
  const issued = new Set<string>();
  let pending: { readonly index: number; readonly ids: Set<string> } | undefined;
  const closePending = (): void => {
    if (pending === undefined) return;
    for (const id of pending.ids) {
      warnings.push({
        _tag: "UnansweredCall",
        index: pending.index,
        callId: id,
        message: `[${pending.index}]: call ${id} was never answered; a placeholder result was added`,
      });
      out.push({ role: "tool", content: UNANSWERED_RESULT, toolCallId: id });
    }
    pending = undefined;
  };
  decoded.forEach((d, index) => {
    const m = d!;
    if (m.role !== "tool") closePending();
    switch (m.role) {
      case "system":
      case "developer":
        out.push({
          role: "system",
          content: m.text,
          ...(m.role === "developer" ? { developer: true as const } : {}),
          ...metaOf(m),
        });
        return;
      case "user":
        out.push({ role: "user", content: m.text, ...metaOf(m) });
        return;
      case "assistant": {
        const calls = (m.calls ?? []).map((c): ToolCall => {
          let id = c.id;
          if (issued.has(id)) {
            let n = 2;
            while (issued.has(`${c.id}#${n}`)) n++;
            id = `${c.id}#${n}`;
            warnings.push({
              _tag: "DuplicateCallId",
              index,
              callId: c.id,
              message: `[${index}]: call id ${c.id} was already used; renamed to ${id} here and in its results`,
            });
          }
          issued.add(id);
          live.set(c.id, id);
          return id === c.id ? c : { ...c, id };
        });
        const msg: AssistantMessage = {
          role: "assistant",
          content: m.text,
          ...(m.calls === undefined ? {} : { toolCalls: calls }),
          ...metaOf(m),
          ...(m.nullContent ? { extra: { ...m.extra, content: null } } : {}),
        };
        out.push(msg);
        if (calls.length > 0) pending = { index, ids: new Set(calls.map((c) => c.id)) };
        return;
      }
      case "tool": {
        const id = live.get(m.toolCallId!);
        if (id === undefined) {
          warnings.push({
            _tag: "OrphanedToolResult",
            index,
            callId: m.toolCallId!,
            message: `[${index}]: tool result for unknown call ${m.toolCallId!} kept as a user message`,
          });
          out.push({
            role: "user",
            content: `[result of tool call ${m.toolCallId!}${m.name === undefined ? "" : ` (${m.name})`}]\n${m.text}`,
            ...(m.parts === undefined ? {} : { parts: m.parts }),
            ...(m.extra === undefined ? {} : { extra: m.extra }),
          });
          return;
        }
        pending?.ids.delete(id);
        out.push({ role: "tool", content: m.text, toolCallId: id, ...metaOf(m) });
        return;
      }
    }
  });
  // Calls at the very end are pending (the tools have not run yet), not unanswered.
  return E.right({ messages: out, warnings });
}

/** A call in the wire format, its provider fields restored (the model's own fields win over a clashing extra key). */
function toOpenAIToolCall(c: ToolCall): NonNullable<OpenAIMessage["tool_calls"]>[number] {
  return {
    ...c.extra,
    id: c.id,
    type: "function",
    function: { ...c.functionExtra, name: c.name, arguments: c.arguments },
  };
}

/**
 * Converts {@link Message}s to the OpenAI chat-completions wire format, restoring the
 * `developer` role, `name`, multi-part content and provider fields (of messages and of tool calls)
 * kept by {@link fromOpenAIMessages}.
 *
 * @example toOpenAIMessages([{ role: "user", content: "hi", name: "ann" }]) // [{ role: "user", content: "hi", name: "ann" }]
 */
export function toOpenAIMessages(messages: readonly Message[]): readonly OpenAIMessage[] {
  return messages.map((m): OpenAIMessage => {
    const { content: nullMarker, ...extra } = m.extra ?? {};
    const content = m.parts !== undefined ? m.parts : nullMarker === null && m.content === "" ? null : m.content;
    const base = { ...extra, ...(m.name === undefined ? {} : { name: m.name }) };
    switch (m.role) {
      case "system":
        return { role: m.developer === true ? "developer" : "system", content, ...base };
      case "user":
        return { role: "user", content, ...base };
      case "assistant":
        return m.toolCalls !== undefined
          ? { role: "assistant", content, ...base, tool_calls: m.toolCalls.map(toOpenAIToolCall) }
          : { role: "assistant", content, ...base };
      case "tool":
        return { role: "tool", content, ...base, tool_call_id: m.toolCallId };
    }
  });
}
