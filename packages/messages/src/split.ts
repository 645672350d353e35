/**
 * The safe split: where the compacted head ends and the verbatim tail begins.
 *
 * @module split
 */
import type { Message } from "./message.js";
import { toolCallIssuers } from "./units.js";

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
  const issuerOf = toolCallIssuers(messages);
  // Scan the tail from its end; every move of the boundary extends the scan to the new messages.
  let scanned = messages.length;
  while (scanned > split) {
    scanned--;
    const from = issuerOf[scanned]!;
    if (from >= 0 && from < split) split = Math.max(floor, from);
  }
  return split;
}

/**
 * Every index at which a verbatim tail may begin (ascending; `length` included): the message
 * there is not a tool result, and no tool result at or after it answers a call issued before it.
 * A tail starting at such an index never orphans a tool result and never cuts a tool chain.
 * Leading system messages are never part of a tail, so indices start at the system prefix. Linear time.
 *
 * @example safeBoundaries([u, callC1, toolC1, u]) // [0, 1, 3, 4]
 */
export function safeBoundaries(messages: readonly Message[]): readonly number[] {
  const floor = leadingSystemCount(messages);
  const issuerOf = toolCallIssuers(messages);
  const out: number[] = [messages.length];
  // Smallest issuer index among the tool results at or after `i`.
  let earliestIssuer = Number.POSITIVE_INFINITY;
  for (let i = messages.length - 1; i >= floor; i--) {
    const from = issuerOf[i]!;
    if (from >= 0) earliestIssuer = Math.min(earliestIssuer, from);
    if (messages[i]!.role !== "tool" && earliestIssuer >= i) out.push(i);
  }
  return out.reverse();
}

/**
 * The start of the last step, the least a budget-driven tail keeps verbatim: the later of the last
 * user message and the last assistant message that issued tool calls (else the last message), moved
 * back to a safe boundary. `messages.length` when nothing follows the system prefix.
 *
 * @example lastStepStart([sys, u, callC1, toolC1]) // 2
 */
export function lastStepStart(messages: readonly Message[]): number {
  const floor = leadingSystemCount(messages);
  let step = messages.length > floor ? messages.length - 1 : messages.length;
  for (let i = messages.length - 1; i >= floor; i--) {
    const m = messages[i]!;
    if (m.role === "user" || (m.role === "assistant" && (m.toolCalls?.length ?? 0) > 0)) {
      step = i;
      break;
    }
  }
  const safe = safeBoundaries(messages);
  let best = floor;
  for (const b of safe) if (b <= step) best = b;
  return best;
}

/** Where the tail begins after budgeting, and whether the budget could be respected. */
export interface TailPlan {
  /** Index at which the verbatim tail begins. */
  readonly split: number;
  /** The split `safeSplit(messages, preserveLast)` gives (the longest tail allowed). */
  readonly requested: number;
  /** The latest split allowed: the start of the last step (or `requested` when that is later). */
  readonly floor: number;
  /** True when `fits(split)`; false means even the floor leaves too little room. */
  readonly fits: boolean;
}

/**
 * Treats `preserveLast` as the longest verbatim tail: keeps `safeSplit(messages, preserveLast)`
 * when `fits` accepts it; otherwise moves the split forward over safe boundaries only (fewer
 * preserved messages) to the first one `fits` accepts, never past the start of the last step.
 * When none fits, the split is that floor and `fits` is false. `fits` must be pure. Linear in the
 * number of messages plus the calls of `fits`.
 *
 * @example planTail(history, 6, (split) => 8000 - counter.countMessages(history.slice(split)) >= 256)
 */
export function planTail(
  messages: readonly Message[],
  preserveLast: number,
  fits: (split: number) => boolean,
): TailPlan {
  const requested = safeSplit(messages, preserveLast);
  const floor = Math.max(requested, lastStepStart(messages));
  if (fits(requested)) return { split: requested, requested, floor, fits: true };
  for (const b of safeBoundaries(messages)) {
    if (b <= requested) continue;
    if (b > floor) break;
    if (fits(b)) return { split: b, requested, floor, fits: true };
  }
  return { split: floor, requested, floor, fits: false };
}
