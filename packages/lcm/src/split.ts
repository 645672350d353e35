/**
 * The safe split: where the compacted head ends and the verbatim tail begins.
 *
 * @module split
 */
import type { Message } from "./message.js";

/** Number of leading system messages (they are never compacted). */
export function leadingSystemCount(messages: readonly Message[]): number {
  let i = 0;
  while (i < messages.length && messages[i]!.role === "system") i++;
  return i;
}

/**
 * The index at which the preserved tail begins, so that `messages.slice(leadingSystemCount, split)`
 * is compacted and `messages.slice(split)` is kept verbatim.
 *
 * Starts at `length - preserveLast` (never before the leading system messages); then, while the
 * tail holds a tool result whose call was issued by an assistant message in the head, moves the
 * boundary back exactly to that assistant message. Tool calls therefore stay with their results,
 * and the tail never starts with a tool result whose call was compacted. Linear time.
 *
 * @example
 * // [user, user, assistant+call c1, tool c1, user], preserveLast 2 → 2 (the assistant that issued c1)
 */
export function safeSplit(messages: readonly Message[], preserveLast: number): number {
  const floor = leadingSystemCount(messages);
  const keep = Number.isFinite(preserveLast) ? Math.max(0, Math.floor(preserveLast)) : 0;
  let split = Math.max(floor, messages.length - keep);
  const issuer = new Map<string, number>();
  const issuerOf: (number | undefined)[] = new Array<number | undefined>(messages.length);
  messages.forEach((m, i) => {
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) issuer.set(c.id, i);
    else if (m.role === "tool") issuerOf[i] = issuer.get(m.toolCallId);
  });
  // Scan the tail from its end; every move of the boundary extends the scan to the new messages.
  let scanned = messages.length;
  while (scanned > split) {
    scanned--;
    const from = issuerOf[scanned];
    if (from !== undefined && from < split) split = Math.max(floor, from);
  }
  return split;
}
