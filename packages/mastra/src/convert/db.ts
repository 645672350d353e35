/**
 * Mastra's stored messages (`MastraDBMessage`, content format 2) to our message model. A user
 * message becomes one user message; an assistant message, which Mastra fills with every tool step
 * of a run, becomes one assistant message per tool invocation (the call, with the text and
 * reasoning before it) followed by its tool message when it has a result: a unit is one call with
 * its result, never a run of steps. Kept messages are returned as the original objects; one of
 * which only some steps are kept comes back as a copy holding those steps' parts.
 *
 * @module convert/db
 */
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import type { Message, ToolCall } from "@cc/messages";
import { jsonText, NO_ORIGIN, type Converted } from "./converted.js";

type Part = MastraDBMessage["content"]["parts"][number];

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u);
const str = (u: unknown): string => (typeof u === "string" ? u : "");

/** The text a part contributes to what the model reads (text, reasoning, a file's marker). */
function partText(part: Part): string {
  const p = part as unknown as Readonly<Record<string, unknown>>;
  switch (p["type"]) {
    case "text":
      return str(p["text"]);
    case "reasoning": {
      const details = Array.isArray(p["details"])
        ? p["details"].map((d) => (isRecord(d) ? str(d["text"]) : "")).join("")
        : "";
      return str(p["reasoning"]) || details;
    }
    case "file":
      return `[file ${str(p["mimeType"]) || str(p["mediaType"])}]`;
    default:
      return "";
  }
}

/** The messages one stored message stands for, with the part indices of each (see the module comment). */
function derived(m: MastraDBMessage): { readonly messages: Message[]; readonly parts?: (readonly number[])[] } {
  const parts = Array.isArray(m.content.parts) ? m.content.parts : [];
  const text =
    parts
      .map(partText)
      .filter((s) => s !== "")
      .join("\n") || str(m.content.content);
  const meta = {
    id: m.id,
    ...(m.createdAt instanceof Date && Number.isFinite(m.createdAt.getTime())
      ? { timestamp: m.createdAt.getTime() }
      : {}),
  };
  if (m.role === "system") return { messages: [{ role: "system", content: text, ...meta }] };
  if (m.role !== "assistant") return { messages: [{ role: "user", content: text, ...meta }] };
  // One unit per tool invocation (the call and its result): the text and other parts before an
  // invocation go with it, those after the last one (the reply to its result) with the last.
  const out: Message[] = [];
  const sources: (readonly number[])[] = [];
  let pending: number[] = [];
  const first = (): boolean => out.length === 0;
  parts.forEach((part, k) => {
    if (part.type !== "tool-invocation") {
      pending.push(k);
      return;
    }
    const inv = part.toolInvocation;
    const lead = pending
      .map((i) => partText(parts[i]!))
      .filter((s) => s !== "")
      .join("\n");
    const id = first() ? m.id : `${m.id}#${inv.toolCallId}`;
    const unit = [...pending, k];
    out.push({
      role: "assistant",
      content: lead,
      ...meta,
      id,
      toolCalls: [{ id: inv.toolCallId, name: inv.toolName, arguments: jsonText(inv.args) }] as ToolCall[],
    });
    sources.push(unit);
    if (inv.state === "result" || inv.state === "output-error" || inv.state === "output-denied") {
      const output = inv.state === "result" ? jsonText(inv.result) : str(inv.errorText) || inv.state;
      out.push({
        role: "tool",
        content: output,
        toolCallId: inv.toolCallId,
        name: inv.toolName,
        id: `${m.id}:${inv.toolCallId}`,
      });
      sources.push(unit);
    }
    pending = [];
  });
  if (out.length === 0) return { messages: [{ role: "assistant", content: text, ...meta }] };
  if (pending.length > 0) {
    // What follows the last invocation (the reply to its result) belongs to that last unit.
    const tail = pending
      .map((i) => partText(parts[i]!))
      .filter((s) => s !== "")
      .join("\n");
    const last = out.length - (out[out.length - 1]!.role === "tool" ? 2 : 1);
    const call = out[last]!;
    out[last] = { ...call, content: [call.content, tail].filter((s) => s !== "").join("\n") };
    for (let j = last; j < out.length; j++) sources[j] = [...sources[j]!, ...pending];
  }
  return { messages: out, parts: sources };
}

/**
 * The messages one stored message stands for: a user or system message one message; an
 * assistant message one assistant message per tool invocation with its result (the text before
 * the invocation included), so each tool step is its own pair-safe unit.
 *
 * @example dbMessageToMessages(stored).map((m) => m.role) // ["assistant", "tool", "assistant", "tool"] for two tool steps
 */
export function dbMessageToMessages(m: MastraDBMessage): Message[] {
  return derived(m).messages;
}

/**
 * A stored message holding only the parts at `keep` (a copy; the stored object is not changed):
 * what is left of it when some of its tool steps were evicted.
 *
 * @example withParts(stored, [2, 3]).content.parts.length // 2
 */
export function withParts(m: MastraDBMessage, keep: readonly number[]): MastraDBMessage {
  const parts = Array.isArray(m.content.parts) ? m.content.parts : [];
  return { ...m, content: { ...m.content, parts: keep.map((k) => parts[k]!).filter((p) => p !== undefined) } };
}

/**
 * Converts stored messages (and, first, the system prompts the request carries, which are only
 * counted) to our messages, each remembering the stored message it came from.
 *
 * @example
 * const { messages, origin } = fromMastraDBMessages(step.messages, step.systemMessages.map((s) => String(s.content)));
 */
export function fromMastraDBMessages(
  messages: readonly MastraDBMessage[],
  systemPrompts: readonly string[] = [],
): Converted {
  const out: Message[] = systemPrompts.map((content) => ({ role: "system", content }));
  const origin: number[] = systemPrompts.map(() => NO_ORIGIN);
  const parts: (readonly number[] | undefined)[] = systemPrompts.map(() => undefined);
  messages.forEach((m, i) => {
    const d = derived(m);
    d.messages.forEach((x, k) => {
      out.push(x);
      origin.push(i);
      parts.push(d.parts?.[k]);
    });
  });
  return { messages: out, origin, parts };
}
