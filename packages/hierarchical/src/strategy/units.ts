/**
 * Message units: the smallest runs of messages that can leave the context together without
 * breaking the chat format — one message, or an assistant message with tool calls plus the tool
 * results that answer them.
 *
 * @module strategy/units
 */
import { SUMMARY_PREFIX, type Message } from "@cc/lcm";

/** A run `messages[start..end)` that is evicted or kept as a whole. */
export interface MessageUnit {
  readonly start: number;
  readonly end: number;
  readonly messages: readonly Message[];
}

/**
 * Groups `messages` into units (pure, linear). A tool result joins the unit of the assistant
 * message whose call it answers when that unit is the latest one; otherwise it stands alone.
 *
 * @example
 * messageUnits([user, assistantWithCall, toolResult, user2]).map((u) => [u.start, u.end])
 * // [[0, 1], [1, 3], [3, 4]]
 */
export function messageUnits(messages: readonly Message[]): readonly MessageUnit[] {
  const units: MessageUnit[] = [];
  let open: { start: number; calls: Set<string> } | undefined;
  const close = (end: number): void => {
    if (open !== undefined) units.push({ start: open.start, end, messages: messages.slice(open.start, end) });
    open = undefined;
  };
  messages.forEach((m, i) => {
    if (m.role === "tool" && open !== undefined && open.calls.has(m.toolCallId)) return;
    close(i);
    open = { start: i, calls: new Set(m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : []) };
  });
  close(messages.length);
  return units;
}

/** Plain text of a unit for summaries and search: role labels, tool calls and results. */
export function unitText(unit: MessageUnit): string {
  return unit.messages
    .map((m) => {
      switch (m.role) {
        case "assistant": {
          const calls = (m.toolCalls ?? []).map((c) => `[call ${c.name}] ${c.arguments}`);
          return [m.content, ...calls].filter((s) => s !== "").join("\n");
        }
        case "tool":
          return `[${m.name ?? "tool"} result]\n${m.content}`;
        default:
          return m.content;
      }
    })
    .join("\n");
}

/**
 * A kind for a unit: "system", "user", "assistant", "tool:<name>" when it carries tool calls, or
 * "summary" for the summary message of an earlier compaction.
 */
export function unitKind(unit: MessageUnit): string {
  const first = unit.messages[0];
  if (first === undefined) return "empty";
  if (first.role === "user" && first.content.startsWith(SUMMARY_PREFIX)) return "summary";
  if (first.role === "assistant" && first.toolCalls !== undefined && first.toolCalls.length > 0) return `tool:${first.toolCalls[0]!.name}`;
  return first.role;
}
