// Checks shared by the tests: the message order strict providers accept, and tokens of a prompt.
import type { ContextManager } from "@cc/context";
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fromLangChain } from "../src/index.js";

/**
 * What a strict provider (Anthropic, Gemini) would reject in `messages`: a system message that is
 * not first, a tool result without its call, a call whose results do not follow it directly, or
 * any other message between a call and its results.
 */
export function orderProblems(messages: readonly BaseMessage[]): string[] {
  const problems: string[] = [];
  let pending = new Set<string>();
  messages.forEach((m, i) => {
    if (m.type === "system" && i !== 0) problems.push(`[${i}] system message not first`);
    if (ToolMessage.isInstance(m)) {
      if (!pending.has(m.tool_call_id)) problems.push(`[${i}] orphaned tool result ${m.tool_call_id}`);
      pending.delete(m.tool_call_id);
      return;
    }
    if (pending.size > 0) problems.push(`[${i}] ${m.type} message before the results of ${[...pending].join(", ")}`);
    pending = new Set(AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.id ?? "") : []);
  });
  if (pending.size > 0) problems.push(`unanswered tool calls at the end: ${[...pending].join(", ")}`);
  return problems;
}

/** Tokens of a LangChain prompt by the manager's (exact) counter. */
export function promptTokens(manager: ContextManager, messages: readonly BaseMessage[]): number {
  return manager.count(fromLangChain(messages).messages);
}

/** The text of a message's content (string content, or its text blocks). */
export function textOf(m: BaseMessage): string {
  return typeof m.content === "string" ? m.content : m.text;
}
