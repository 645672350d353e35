/**
 * LangChain `BaseMessage` ⇄ our `Message`. The conversion keeps the original LangChain objects:
 * every message of ours stands for one or more originals (a reasoning-only AI message is folded
 * into the AI message with tool calls that follows it, so the two never part), and mapping a
 * compacted prompt back returns those very originals — ids, content blocks (images, reasoning),
 * `additional_kwargs`, `response_metadata`, `tool_calls`, `artifact` all unchanged. Only a message
 * the engine wrote (the summary or eviction note) becomes a new LangChain message.
 *
 * @module convert
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { SUMMARY_PREFIX, type Message, type ToolCall } from "@cc/messages";
import { createHash } from "node:crypto";

/**
 * A LangChain conversation in our message model: `messages[i]` stands for the originals
 * `groups[i]` (one message, or a reasoning-only AI message plus the AI message with tool calls
 * that follows it).
 *
 * @example
 * const view = fromLangChain(state.messages);
 * view.messages.length <= state.messages.length; // true
 */
export interface LangChainView {
  readonly messages: readonly Message[];
  readonly groups: readonly (readonly BaseMessage[])[];
}

/**
 * `additional_kwargs.lc_source` of the note messages this adapter writes.
 *
 * @example
 * import type { BaseMessage } from "@langchain/core/messages";
 * const isNote = (m: BaseMessage) => m.additional_kwargs["lc_source"] === NOTE_SOURCE;
 */
export const NOTE_SOURCE = "cc-compaction";

type Block = Readonly<Record<string, unknown>>;
const isBlock = (u: unknown): u is Block => typeof u === "object" && u !== null && !Array.isArray(u);
const str = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined);

/** Text of one content block: text, reasoning and thinking are read; any other block is a `[type]` marker. */
function blockText(block: unknown): string {
  if (typeof block === "string") return block;
  if (!isBlock(block)) return "";
  const type = str(block["type"]) ?? "block";
  if (type === "text") return str(block["text"]) ?? "";
  if (type === "reasoning") return str(block["reasoning"]) ?? "";
  if (type === "thinking") return str(block["thinking"]) ?? "";
  if (type === "redacted_thinking") return "[redacted_thinking]";
  return `[${type}]`;
}

/**
 * The text of a LangChain message the engine counts, summarises and indexes: string content, or
 * the text, reasoning and thinking blocks joined by newlines (other blocks — images, files, audio —
 * as a `[type]` marker), plus `additional_kwargs.reasoning_content` when a provider put it there.
 *
 * @example
 * import { AIMessage } from "@langchain/core/messages";
 * messageText(new AIMessage({ content: [{ type: "reasoning", reasoning: "r" }, { type: "text", text: "t" }] })) // "r\nt"
 */
export function messageText(message: BaseMessage): string {
  const content: unknown = message.content;
  const parts = typeof content === "string" ? [content] : Array.isArray(content) ? content.map(blockText) : [];
  const extra = str((message.additional_kwargs as Record<string, unknown> | undefined)?.["reasoning_content"]);
  return [...(extra === undefined ? [] : [extra]), ...parts].filter((p) => p !== "").join("\n");
}

const hasOnlyReasoning = (m: BaseMessage): boolean =>
  Array.isArray(m.content) &&
  m.content.length > 0 &&
  m.content.every(
    (b: unknown) =>
      isBlock(b) && (b["type"] === "reasoning" || b["type"] === "thinking" || b["type"] === "redacted_thinking"),
  );

function callsOf(m: BaseMessage, at: number): readonly ToolCall[] {
  if (!AIMessage.isInstance(m)) return [];
  const valid = (m.tool_calls ?? []).map((c, k): ToolCall => ({
    id: c.id ?? `lc-call-${at}-${k}`,
    name: c.name,
    arguments: JSON.stringify(c.args ?? {}),
  }));
  const invalid = (m.invalid_tool_calls ?? []).map((c, k): ToolCall => ({
    id: c.id ?? `lc-invalid-${at}-${k}`,
    name: c.name ?? "",
    arguments: c.args ?? "",
  }));
  return [...valid, ...invalid];
}

const meta = (m: BaseMessage): { readonly id?: string; readonly name?: string } => ({
  ...(typeof m.id === "string" && m.id !== "" ? { id: m.id } : {}),
  ...(typeof m.name === "string" && m.name !== "" ? { name: m.name } : {}),
});

/** One LangChain message in our model (without grouping). */
function single(m: BaseMessage, at: number): Message {
  const content = messageText(m);
  if (ToolMessage.isInstance(m)) return { role: "tool", content, toolCallId: m.tool_call_id, ...meta(m) };
  if (AIMessage.isInstance(m)) {
    const calls = callsOf(m, at);
    return { role: "assistant", content, ...(calls.length > 0 ? { toolCalls: calls } : {}), ...meta(m) };
  }
  const type = m.type;
  if (type === "system" || type === "developer") return { role: "system", content, ...meta(m) };
  return { role: "user", content, ...meta(m) };
}

/**
 * Converts LangChain messages to ours (pure). A reasoning-only AI message directly followed by an
 * AI message with tool calls becomes one message of ours (reasoning text first), so the reasoning
 * stays with its tool-call unit. A tool call without an id gets a synthetic one.
 *
 * @example
 * import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
 * const view = fromLangChain([new HumanMessage("hi"), new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "ls", args: {} }] }), new ToolMessage({ content: "a.ts", tool_call_id: "c1" })]);
 * view.messages.map((m) => m.role); // ["user", "assistant", "tool"]
 */
export function fromLangChain(messages: readonly BaseMessage[]): LangChainView {
  const out: Message[] = [];
  const groups: (readonly BaseMessage[])[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const next = messages[i + 1];
    if (
      AIMessage.isInstance(m) &&
      hasOnlyReasoning(m) &&
      callsOf(m, i).length === 0 &&
      next !== undefined &&
      callsOf(next, i + 1).length > 0
    ) {
      const merged = single(next, i + 1);
      const reasoning = messageText(m);
      out.push({ ...merged, content: [reasoning, merged.content].filter((p) => p !== "").join("\n") });
      groups.push([m, next]);
      i++;
      continue;
    }
    out.push(single(m, i));
    groups.push([m]);
  }
  return { messages: out, groups };
}

/**
 * A LangChain message for one of ours the engine wrote (a summary or note becomes a
 * `HumanMessage` with a content-derived id and `additional_kwargs.lc_source` {@link NOTE_SOURCE}).
 *
 * @example newLangChainMessage({ role: "user", content: "Summary of the earlier conversation (reference only):\n…" }).type // "human"
 */
export function newLangChainMessage(m: Message): BaseMessage {
  const id = m.id ?? `cc-${createHash("sha256").update(JSON.stringify(m)).digest("hex").slice(0, 16)}`;
  const name = m.name === undefined ? {} : { name: m.name };
  switch (m.role) {
    case "system":
      return new SystemMessage({ content: m.content, id, ...name });
    case "user":
      return new HumanMessage({
        content: m.content,
        id,
        ...name,
        ...(m.content.startsWith(SUMMARY_PREFIX) ? { additional_kwargs: { lc_source: NOTE_SOURCE } } : {}),
      });
    case "assistant":
      return new AIMessage({
        content: m.content,
        id,
        ...name,
        tool_calls: (m.toolCalls ?? []).map((c) => ({
          id: c.id,
          name: c.name,
          args: parseArgs(c.arguments),
          type: "tool_call" as const,
        })),
      });
    case "tool":
      return new ToolMessage({ content: m.content, tool_call_id: m.toolCallId, id, ...name });
  }
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return isBlock(v) ? { ...v } : { value: v };
  } catch {
    return { input: text };
  }
}

/**
 * Maps a compacted prompt of ours back to LangChain messages: a message kept from `view` (the
 * same object the compaction returned) becomes its original LangChain message(s), unchanged; any
 * other message (the note) becomes a new one ({@link newLangChainMessage}).
 *
 * @example
 * const view = fromLangChain(state.messages);
 * const turn = await manager.compact(view.messages);
 * const next = toLangChain(turn.messages, view); // originals, plus the note
 */
export function toLangChain(compacted: readonly Message[], view: LangChainView): BaseMessage[] {
  const at = new Map<Message, number>();
  view.messages.forEach((m, i) => at.set(m, i));
  return compacted.flatMap((m) => {
    const i = at.get(m);
    return i === undefined ? [newLangChainMessage(m)] : [...view.groups[i]!];
  });
}
