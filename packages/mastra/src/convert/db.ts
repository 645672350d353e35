/**
 * Mastra's stored messages (`MastraDBMessage`, content format 2) to our message model. A user
 * message becomes one user message; an assistant message becomes one assistant message (its text
 * and reasoning parts, its tool invocations as calls) followed by one tool message per invocation
 * that has a result — one pair-safe unit, since Mastra keeps a call and its result in the same
 * part. Nothing is converted back: kept messages are returned as the original objects.
 *
 * @module convert/db
 */
import type { MastraDBMessage } from "@mastra/core/agent/message-list";
import type { Message, ToolCall } from "@cc/messages";
import { jsonText, NO_ORIGIN, type Converted } from "./converted.js";

type Part = MastraDBMessage["content"]["parts"][number];

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === "object" && u !== null && !Array.isArray(u);
const str = (u: unknown): string => (typeof u === "string" ? u : "");

/** The text a part contributes to what the model reads (text, reasoning, a file's marker). */
function partText(part: Part): string {
  const p = part as unknown as Readonly<Record<string, unknown>>;
  switch (p["type"]) {
    case "text":
      return str(p["text"]);
    case "reasoning": {
      const details = Array.isArray(p["details"]) ? p["details"].map((d) => (isRecord(d) ? str(d["text"]) : "")).join("") : "";
      return str(p["reasoning"]) || details;
    }
    case "file":
      return `[file ${str(p["mimeType"]) || str(p["mediaType"])}]`;
    default:
      return "";
  }
}

/** The messages one stored message stands for (see the module comment). */
export function dbMessageToMessages(m: MastraDBMessage): Message[] {
  const parts = Array.isArray(m.content.parts) ? m.content.parts : [];
  const text = parts.map(partText).filter((s) => s !== "").join("\n") || str(m.content.content);
  const meta = { id: m.id, ...(m.createdAt instanceof Date && Number.isFinite(m.createdAt.getTime()) ? { timestamp: m.createdAt.getTime() } : {}) };
  if (m.role === "system") return [{ role: "system", content: text, ...meta }];
  if (m.role !== "assistant") return [{ role: "user", content: text, ...meta }];
  const calls: ToolCall[] = [];
  const results: Message[] = [];
  for (const part of parts) {
    if (part.type !== "tool-invocation") continue;
    const inv = part.toolInvocation;
    calls.push({ id: inv.toolCallId, name: inv.toolName, arguments: jsonText(inv.args) });
    if (inv.state === "result" || inv.state === "output-error" || inv.state === "output-denied") {
      const output = inv.state === "result" ? jsonText(inv.result) : str(inv.errorText) || inv.state;
      results.push({ role: "tool", content: output, toolCallId: inv.toolCallId, name: inv.toolName, id: `${m.id}:${inv.toolCallId}` });
    }
  }
  return [{ role: "assistant", content: text, ...meta, ...(calls.length > 0 ? { toolCalls: calls } : {}) }, ...results];
}

/**
 * Converts stored messages (and, first, the system prompts the request carries, which are only
 * counted) to our messages, each remembering the stored message it came from.
 *
 * @example
 * const { messages, origin } = fromMastraDBMessages(args.messages, args.systemMessages.map((s) => String(s.content)));
 */
export function fromMastraDBMessages(messages: readonly MastraDBMessage[], systemPrompts: readonly string[] = []): Converted {
  const out: Message[] = systemPrompts.map((content) => ({ role: "system", content }));
  const origin: number[] = systemPrompts.map(() => NO_ORIGIN);
  messages.forEach((m, i) => {
    for (const d of dbMessageToMessages(m)) {
      out.push(d);
      origin.push(i);
    }
  });
  return { messages: out, origin };
}
