/**
 * The chat-format overhead added on top of the tokens of each message's text.
 *
 * @module messages
 */
import type { Message } from "@cc/messages";

/** Tokens every message costs beyond its text (`<|start|>{role}<|message|>…<|end|>` framing). */
export const tokensPerMessage = 3;
/** Extra tokens when a message carries a `name`. */
export const tokensPerName = 1;
/** Tokens that prime the reply (`<|start|>assistant<|message|>`), added once per non-empty request. */
export const tokensPerReply = 3;
/** Framing tokens of one tool call beyond its name and argument text. */
export const tokensPerToolCall = 3;

/**
 * Tokens of a chat request, given a text counter:
 *
 * ```
 * total = (messages.length > 0 ? 3 : 0)
 *       + Σ over messages [ 3 + count(role) + count(content)
 *                          + (name ? 1 + count(name) : 0)
 *                          + (toolCallId ? count(toolCallId) : 0)
 *                          + Σ over toolCalls (3 + count(call.name) + count(call.arguments)) ]
 * ```
 *
 * The message, name and reply terms are OpenAI's published formula for gpt-3.5/4/4o chat; the
 * tool-call terms are this library's approximation (OpenAI does not publish one).
 *
 * @example
 * countMessagesWith((t) => t.length, [{ role: "user", content: "hi" }]); // 3 + 3 + 4 + 2 = 12
 */
export function countMessagesWith(count: (text: string) => number, messages: readonly Message[]): number {
  if (messages.length === 0) return 0;
  let total = tokensPerReply;
  for (const m of messages) {
    total += tokensPerMessage + count(m.role) + count(m.content);
    if (m.name !== undefined && m.name !== "") total += tokensPerName + count(m.name);
    if (m.role === "tool" && m.toolCallId !== "") total += count(m.toolCallId);
    if (m.role === "assistant")
      for (const call of m.toolCalls ?? []) total += tokensPerToolCall + count(call.name) + count(call.arguments);
  }
  return total;
}
