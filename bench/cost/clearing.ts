/**
 * Tool-result clearing as Claude's `clear_tool_uses` context edit and LangChain's
 * `ClearToolUsesEdit` do it, pure: once the prompt reaches `trigger` tokens, the oldest tool
 * results (a tool message, or a user message after the task: text-protocol agents such as
 * mini-swe-agent return observations as user messages) (all but the `keep` most recent, never those of `excludeTools`) are replaced by
 * `placeholder`, oldest first, until at least `clearAtLeast` tokens are cleared (0: every
 * candidate); the call stays. A prompt still over `maxTokens` then loses its oldest units (an
 * assistant message with its tool results, or one message) after the system prompts and the
 * first user message — the fallback a hard limit forces, which neither edit has.
 */
import type { Message } from "@cc/messages";

/** Settings of tool-result clearing. */
export interface ClearSettings {
  /** Tokens at or above which clearing runs. */
  readonly trigger: number;
  /** Tool results kept verbatim: the most recent ones. */
  readonly keep: number;
  /** Tool names whose results are never cleared. */
  readonly excludeTools: readonly string[];
  /** Clearing stops once at least this many tokens are cleared (0: clear every candidate). */
  readonly clearAtLeast: number;
  readonly placeholder: string;
  /** The hard limit; the oldest units go while the prompt is over it. */
  readonly maxTokens: number;
}

/**
 * The next prompt: `messages` (the previous prompt plus the new turn) with old tool results
 * cleared when it reaches the trigger. Never reorders; a cleared result keeps its `toolCallId`.
 *
 * @example clearToolUses(prompt, { trigger: 8000, keep: 3, excludeTools: [], clearAtLeast: 0, placeholder: "[cleared]", maxTokens: 10000 }, count)
 */
export function clearToolUses(
  messages: readonly Message[],
  s: ClearSettings,
  count: (m: Message) => number,
): readonly Message[] {
  const sizes = messages.map(count);
  const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
  if (sum(sizes) < s.trigger) return messages;
  const names = new Map<string, string>();
  for (const m of messages) if (m.role === "assistant") for (const c of m.toolCalls ?? []) names.set(c.id, c.name);
  const task = messages.findIndex((m) => m.role === "user");
  const results = messages.flatMap((m, i) => (m.role === "tool" || (m.role === "user" && i > task) ? [i] : []));
  const candidates = results.slice(0, Math.max(0, results.length - s.keep)).filter((i) => {
    const m = messages[i]!;
    if (m.content === s.placeholder) return false;
    const name = m.role === "tool" ? names.get(m.toolCallId) : undefined;
    return name === undefined || !s.excludeTools.includes(name);
  });
  const out = [...messages];
  let cleared = 0;
  for (const i of candidates) {
    const m = out[i]!;
    const replaced: Message = { ...m, content: s.placeholder } as Message;
    const after = count(replaced);
    cleared += sizes[i]! - after;
    sizes[i] = after;
    out[i] = replaced;
    if (s.clearAtLeast > 0 && cleared >= s.clearAtLeast) break;
  }
  // Fallback: the oldest units after the system prompts and the first user message go.
  let head = 0;
  while (head < out.length && out[head]!.role === "system") head++;
  if (head < out.length && out[head]!.role === "user") head++;
  while (sum(sizes) > s.maxTokens && head < out.length) {
    let end = head + 1;
    if (out[head]!.role === "assistant") while (end < out.length && out[end]!.role === "tool") end++;
    if (end >= out.length) break; // the newest unit stays
    out.splice(head, end - head);
    sizes.splice(head, end - head);
  }
  return out;
}
