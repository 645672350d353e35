/**
 * Conversion between AI SDK messages and our `Message` model. One reader serves every AI SDK shape
 * the adapter meets: the `ModelMessage` of `ai` v6 and v7 (what `prepareStep` receives) and the
 * provider prompt of the LanguageModelV3 / V4 specifications (what a middleware's
 * `transformParams` receives). Both are read structurally, by `role` and part `type`.
 *
 * The engine only needs a view of each message (the text it counts, indexes and summarises, and
 * the tool-call pairing); the original objects are never rebuilt. {@link restoreMessages} maps the
 * engine's result back by the index stamped on each view, so a kept message is returned as the
 * very same object and only the summary note is new.
 *
 * @module convert
 */
import type { Message, ToolCall } from "@cc/messages";

/**
 * A content part of an AI SDK message, read by its `type` (other fields are read structurally).
 *
 * @example const part: SdkPart = { type: "reasoning", text: "…" } as SdkPart;
 */
export interface SdkPart {
  readonly type: string;
}

/**
 * An AI SDK message: a `ModelMessage` (ai v6 or v7) or a provider prompt message
 * (LanguageModelV3 / V4). `content` is a string or an array of typed parts.
 *
 * @example const m: SdkMessage = { role: "user", content: "hi" };
 */
export interface SdkMessage {
  readonly role: string;
  readonly content: string | readonly SdkPart[];
}

/**
 * The prefix of the view ids that point back at the source message.
 *
 * @example `${VIEW_ID_PREFIX}3.1` // the second tool view of message 3
 */
export const VIEW_ID_PREFIX = "ai-sdk:";

/**
 * Where a note the manager added keeps its seal in an AI SDK message: `providerOptions.cc.note`
 * holds the note's id (which no provider reads), so the note is known again when the message
 * comes back — a message that only reads like a note has no seal and stays conversation.
 *
 * @example
 * const view: Message = { role: "user", content: "Summary of the earlier conversation: …", id: "cc-note:3f…" };
 * const note = { role: "user", content: [{ type: "text", text: view.content }], providerOptions: { [NOTE_OPTIONS_KEY]: { note: view.id } } };
 */
export const NOTE_OPTIONS_KEY = "cc";

/** The seal a message carries in `providerOptions.cc.note`, if any. */
function sealOf(m: SdkMessage): string | undefined {
  const options = fieldOf(m, "providerOptions");
  const ours = typeof options === "object" && options !== null ? fieldOf(options, NOTE_OPTIONS_KEY) : undefined;
  return typeof ours === "object" && ours !== null ? stringOf(ours, "note") : undefined;
}

const fieldOf = (part: object, key: string): unknown => (part as Readonly<Record<string, unknown>>)[key];
const stringOf = (part: object, key: string): string | undefined => {
  const v = fieldOf(part, key);
  return typeof v === "string" ? v : undefined;
};

/** A short placeholder for an attachment (the bytes are never counted or indexed). */
function attachment(part: object): string {
  const type = stringOf(part, "type") ?? "part";
  const mediaType = stringOf(part, "mediaType") ?? "";
  const filename = stringOf(part, "filename");
  if (type === "image" || (filename === undefined && mediaType.startsWith("image/"))) return "[image]";
  return filename === undefined ? "[file]" : `[file ${filename}]`;
}

const json = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
};

/**
 * The text of a tool result's `output` (text, json, error, denial or multi-part content).
 *
 * @example outputText({ type: "json", value: { ok: true } }) // '{"ok":true}'
 */
export function outputText(output: unknown): string {
  if (typeof output !== "object" || output === null) return output === undefined ? "" : json(output);
  const type = stringOf(output, "type");
  const value = fieldOf(output, "value");
  switch (type) {
    case "text":
    case "error-text":
      return typeof value === "string" ? value : json(value);
    case "json":
    case "error-json":
      return json(value);
    case "execution-denied": {
      const reason = stringOf(output, "reason");
      return reason === undefined ? "execution denied" : `execution denied: ${reason}`;
    }
    case "content":
      return Array.isArray(value)
        ? value
            .map((p: unknown) =>
              typeof p === "object" && p !== null
                ? stringOf(p, "type") === "text"
                  ? (stringOf(p, "text") ?? "")
                  : attachment(p)
                : "",
            )
            .join("\n")
        : "";
    default:
      return `[${type ?? "output"}]`;
  }
}

/** The text of one non-tool part: text and reasoning verbatim, attachments as placeholders. */
function partText(part: SdkPart): string {
  switch (part.type) {
    case "text":
    case "reasoning":
      return stringOf(part, "text") ?? "";
    case "image":
    case "file":
    case "reasoning-file":
      return attachment(part);
    case "tool-result":
      return `[${stringOf(part, "toolName") ?? "tool"} result]\n${outputText(fieldOf(part, "output"))}`;
    case "tool-approval-response":
      return approvalText(part);
    default:
      // custom parts, approval requests: nothing the engine reads.
      return "";
  }
}

function approvalText(part: SdkPart): string {
  const approved = fieldOf(part, "approved") === true;
  const reason = stringOf(part, "reason");
  return `${approved ? "approved" : "denied"}${reason === undefined ? "" : `: ${reason}`}`;
}

const textOf = (parts: readonly SdkPart[]): string =>
  parts
    .map(partText)
    .filter((s) => s !== "")
    .join("\n");

const argumentsOf = (input: unknown): string =>
  typeof input === "string" ? input : input === undefined ? "" : json(input);

/**
 * Where each view came from: `views[k]` stands for `messages[sources[k]]`.
 *
 * @example const { views, sources } = messageViews(messages, true);
 */
export interface MessageViews {
  readonly views: readonly Message[];
  readonly sources: readonly number[];
}

/**
 * The engine's view of AI SDK messages (pure, linear). Each message becomes one view, except a
 * tool message answering several calls: it becomes one tool view per answered call (so each result
 * pairs with the assistant message that issued it), with approval responses bound to their call
 * through the approval request's `toolCallId`, and anything that answers no earlier call folded
 * into the first view. All views of one tool message therefore fall into one pair-safe unit.
 * With `stamp`, each view's `id` names its source index (see {@link restoreMessages}).
 *
 * @example
 * const { views } = messageViews([{ role: "user", content: "hi" }], false);
 * // views: [{ role: "user", content: "hi" }]
 */
export function messageViews(messages: readonly SdkMessage[], stamp: boolean): MessageViews {
  const views: Message[] = [];
  const sources: number[] = [];
  const issued = new Set<string>();
  const approvals = new Map<string, string>();
  const push = (i: number, k: number, view: Message, seal?: string): void => {
    // A sealed note keeps its seal as its id (the manager verifies it); it maps back as a new note.
    views.push(
      seal !== undefined
        ? { ...view, id: seal }
        : stamp
          ? { ...view, id: `${VIEW_ID_PREFIX}${i}${k === 0 ? "" : `.${k}`}` }
          : view,
    );
    sources.push(i);
  };
  messages.forEach((m, i) => {
    const parts: readonly SdkPart[] =
      typeof m.content === "string"
        ? [{ type: "text", text: m.content } as SdkPart]
        : Array.isArray(m.content)
          ? m.content
          : [];
    switch (m.role) {
      case "system":
        push(i, 0, { role: "system", content: textOf(parts) });
        return;
      case "assistant": {
        const calls: ToolCall[] = [];
        for (const p of parts) {
          if (p.type === "tool-call") {
            const id = stringOf(p, "toolCallId") ?? "";
            calls.push({ id, name: stringOf(p, "toolName") ?? "", arguments: argumentsOf(fieldOf(p, "input")) });
            issued.add(id);
          } else if (p.type === "tool-approval-request") {
            const approvalId = stringOf(p, "approvalId");
            const callId = stringOf(p, "toolCallId");
            if (approvalId !== undefined && callId !== undefined) approvals.set(approvalId, callId);
          }
        }
        push(i, 0, {
          role: "assistant",
          content: textOf(parts.filter((p) => p.type !== "tool-call")),
          ...(calls.length > 0 ? { toolCalls: calls } : {}),
        });
        return;
      }
      case "tool": {
        const answers: { callId: string; name?: string; text: string }[] = [];
        const loose: string[] = [];
        let firstId = "";
        for (const p of parts) {
          const callId =
            p.type === "tool-result"
              ? stringOf(p, "toolCallId")
              : p.type === "tool-approval-response"
                ? approvals.get(stringOf(p, "approvalId") ?? "")
                : undefined;
          const text = p.type === "tool-result" ? outputText(fieldOf(p, "output")) : partText(p);
          if (firstId === "" && callId !== undefined) firstId = callId;
          if (callId !== undefined && issued.has(callId)) {
            const name = stringOf(p, "toolName");
            answers.push({ callId, text, ...(name === undefined ? {} : { name }) });
          } else if (text !== "") loose.push(text);
        }
        if (answers.length === 0) {
          push(i, 0, { role: "tool", content: loose.join("\n"), toolCallId: firstId });
          return;
        }
        answers.forEach((a, k) => {
          const content = k === 0 && loose.length > 0 ? [a.text, ...loose].join("\n") : a.text;
          push(i, k, {
            role: "tool",
            content,
            toolCallId: a.callId,
            ...(a.name === undefined ? {} : { name: a.name }),
          });
        });
        return;
      }
      default:
        // "user" and any role a newer SDK may add: a user turn.
        push(i, 0, { role: "user", content: textOf(parts) }, sealOf(m));
    }
  });
  return { views, sources };
}

/**
 * The engine's view of AI SDK messages, for counting and inspection (tool messages answering
 * several calls become one tool message per call).
 *
 * @example
 * import type { ModelMessage } from "ai";
 * const hi: ModelMessage = { role: "user", content: [{ type: "text", text: "hi" }] };
 * fromModelMessages([hi]); // [{ role: "user", content: "hi" }]
 */
export function fromModelMessages(messages: readonly SdkMessage[]): readonly Message[] {
  return messageViews(messages, false).views;
}

/**
 * The source index a view id names, or `undefined` for a message the engine added.
 *
 * @example sourceOf({ role: "tool", content: "", toolCallId: "c", id: "ai-sdk:3.1" }) // 3
 */
export function sourceOf(view: Message): number | undefined {
  const id = view.id;
  if (id === undefined || !id.startsWith(VIEW_ID_PREFIX)) return undefined;
  const n = Number.parseInt(id.slice(VIEW_ID_PREFIX.length), 10);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The AI SDK messages of a compacted view list: a view stamped by {@link messageViews} returns its
 * source message (the same object, once), an unstamped one (the summary note) becomes a new message
 * through `added`. Order follows the views.
 *
 * @example
 * import type { ModelMessage } from "ai";
 * const { views } = messageViews(messages, true);
 * const turn = await manager.compact(views);
 * restoreMessages(messages, turn.messages, (m): ModelMessage => ({ role: "user", content: [{ type: "text", text: m.content }] }));
 */
export function restoreMessages<M>(
  source: readonly M[],
  views: readonly Message[],
  added: (view: Message) => M,
): readonly M[] {
  const seen = new Set<number>();
  const out: M[] = [];
  for (const v of views) {
    const i = sourceOf(v);
    if (i === undefined) out.push(added(v));
    else if (!seen.has(i) && i < source.length) {
      seen.add(i);
      out.push(source[i]!);
    }
  }
  return out;
}

/**
 * A tool result part left out by {@link withoutOrphanedResults}: the message it was in and the
 * call id it answered (for an approval response, its approval id).
 */
export interface OrphanedResult {
  readonly messageIndex: number;
  readonly toolCallId: string;
}

/**
 * The messages without tool-result parts that answer no earlier tool call and approval responses
 * that answer no earlier approval request (pure, linear). A tool message left with no part is
 * left out; one that keeps some parts is a new message with only those (the caller's object is
 * not changed); every other message is the input object. Returns the input array itself when
 * nothing is orphaned.
 *
 * @example
 * withoutOrphanedResults([{ role: "tool", content: [{ type: "tool-result", toolCallId: "gone", toolName: "ls", output: { type: "text", value: "a" } }] }])
 * // { messages: [], dropped: [{ messageIndex: 0, toolCallId: "gone" }] }
 */
export function withoutOrphanedResults<M extends SdkMessage>(
  messages: readonly M[],
): { readonly messages: readonly M[]; readonly dropped: readonly OrphanedResult[] } {
  const issued = new Set<string>();
  const requested = new Set<string>();
  const dropped: OrphanedResult[] = [];
  const out: M[] = [];
  messages.forEach((m, i) => {
    const parts: readonly SdkPart[] = Array.isArray(m.content) ? m.content : [];
    if (m.role === "assistant") {
      for (const p of parts) {
        if (p.type === "tool-call") issued.add(stringOf(p, "toolCallId") ?? "");
        else if (p.type === "tool-approval-request") requested.add(stringOf(p, "approvalId") ?? "");
      }
    }
    if (m.role !== "tool" || parts.length === 0) {
      out.push(m);
      return;
    }
    const kept = parts.filter((p) => {
      const orphan =
        p.type === "tool-result"
          ? !issued.has(stringOf(p, "toolCallId") ?? "")
          : p.type === "tool-approval-response"
            ? fieldOf(p, "providerExecuted") !== true && !requested.has(stringOf(p, "approvalId") ?? "")
            : false;
      if (orphan)
        dropped.push({
          messageIndex: i,
          toolCallId: stringOf(p, p.type === "tool-result" ? "toolCallId" : "approvalId") ?? "",
        });
      return !orphan;
    });
    if (kept.length === parts.length) out.push(m);
    else if (kept.length > 0) out.push({ ...m, content: kept });
  });
  return dropped.length === 0 ? { messages, dropped } : { messages: out, dropped };
}
