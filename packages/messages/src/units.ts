/**
 * Pair-safe message units: the smallest runs of messages that can leave the context together
 * without breaking the chat format — one message, or assistant messages with tool calls plus every
 * tool result that answers them — and the issuer map they are built on.
 *
 * @module units
 */
import { SUMMARY_PREFIX, type Message } from "./message.js";

/** A run `messages[start..end)` that is evicted or kept as a whole. */
export interface MessageUnit {
  readonly start: number;
  readonly end: number;
  readonly messages: readonly Message[];
}

/**
 * The issuer map: for each message, the index of the assistant message that issued the call a
 * tool result answers (the latest assistant before it that issued that call id), or -1 for
 * messages that are not tool results and for orphaned results (no earlier call with that id).
 * Pure, linear.
 *
 * @example toolCallIssuers([u, callC1, toolC1]) // Int32Array [-1, -1, 1]
 */
export function toolCallIssuers(messages: readonly Message[]): Int32Array {
  const issuer = new Map<string, number>();
  const out = new Int32Array(messages.length).fill(-1);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) issuer.set(c.id, i);
    else if (m.role === "tool") out[i] = issuer.get(m.toolCallId) ?? -1;
  }
  return out;
}

/**
 * Groups `messages` into pair-safe units (pure, linear): the smallest runs such that every tool
 * result is in the same unit as the assistant message that issued its call. Interleaved calls
 * (assistant A, assistant B, result of A, result of B) make one unit; an orphaned result (no
 * earlier call with its id) stands alone; a reused call id binds a result to the latest issuer
 * before it. Removing or keeping whole units therefore never orphans a tool result.
 *
 * @example
 * messageUnits([u, callC1, toolC1, u]).map((unit) => [unit.start, unit.end])
 * // [[0, 1], [1, 3], [3, 4]]
 */
export function messageUnits(messages: readonly Message[]): readonly MessageUnit[] {
  const issuers = toolCallIssuers(messages);
  // reach[i]: the last index a unit starting at or containing i must extend to.
  const reach = new Int32Array(messages.length);
  for (let i = 0; i < messages.length; i++) reach[i] = i;
  for (let i = 0; i < messages.length; i++) {
    const from = issuers[i]!;
    if (from >= 0 && reach[from]! < i) reach[from] = i;
  }
  const units: MessageUnit[] = [];
  let start = 0;
  while (start < messages.length) {
    let end = reach[start]!;
    for (let i = start + 1; i <= end; i++) if (reach[i]! > end) end = reach[i]!;
    units.push({ start, end: end + 1, messages: messages.slice(start, end + 1) });
    start = end + 1;
  }
  return units;
}

/** Plain text of a unit for summaries and search: role labels, tool calls and results. */
export function unitText(unit: MessageUnit): string {
  const toolNames = new Map<string, string>();
  for (const m of unit.messages)
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) toolNames.set(c.id, c.name);
  return unit.messages
    .map((m) => {
      switch (m.role) {
        case "assistant": {
          const calls = (m.toolCalls ?? []).map((c) => `[call ${c.name}] ${c.arguments}`);
          return [m.content, ...calls].filter((s) => s !== "").join("\n");
        }
        case "tool":
          return `[${m.name ?? toolNames.get(m.toolCallId) ?? "tool"} result]\n${m.content}`;
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
  if (first.role === "assistant" && first.toolCalls !== undefined && first.toolCalls.length > 0)
    return `tool:${first.toolCalls[0]!.name}`;
  return first.role;
}
