/**
 * Pure accounting of a replay: how each request is billed under a price sheet (the cached prefix
 * is the longest run of leading messages identical to the previous request's — a provider caches
 * by prefix), and whether re-accessed messages were still in the prompt (retention).
 */
import type { InputBill } from "@cc/test-support/context";
import type { Message } from "@cc/messages";

/** The turns of a transcript: one per user or assistant message, with the tool results (and late system messages) after it. */
export function turnsOf(messages: readonly Message[]): readonly (readonly Message[])[] {
  const turns: Message[][] = [];
  for (const m of messages) {
    if (turns.length > 0 && (m.role === "tool" || m.role === "system")) turns[turns.length - 1]!.push(m);
    else turns.push([m]);
  }
  return turns;
}

/** A stable key of a message: its JSON. */
export const keyOf = (m: Message): string => JSON.stringify(m);

/**
 * Bills a request: `tokens[i]` are the tokens of `current[i]`; the leading messages equal to
 * `previous`'s are cached, the rest are not.
 *
 * @example billOf(["a", "b"], ["a", "c"], [10, 5]) // { cachedTokens: 10, uncachedTokens: 5 }
 */
export function billOf(previous: readonly string[], current: readonly string[], tokens: readonly number[]): InputBill {
  let shared = 0;
  while (shared < previous.length && shared < current.length && previous[shared] === current[shared]) shared++;
  let cached = 0;
  let total = 0;
  tokens.forEach((t, i) => {
    total += t;
    if (i < shared) cached += t;
  });
  return { cachedTokens: cached, uncachedTokens: total - cached };
}

/** A re-access to score: message `at` refers back to message `origin`. */
export interface Reference {
  readonly at: number;
  readonly origin: number;
}

/**
 * Retention of one turn: the references made by the messages this turn added (`from`..`to`
 * exclusive) whose origin is in the prompt sent this turn (`present` = keys of its messages).
 *
 * @example scoreTurn([{ at: 3, origin: 1 }], 3, 4, keys, new Set([keys[1]])) // { kept: 1, total: 1 }
 */
export function scoreTurn(
  refs: readonly Reference[],
  from: number,
  to: number,
  keys: readonly string[],
  present: ReadonlySet<string>,
): { readonly kept: number; readonly total: number } {
  let kept = 0;
  let total = 0;
  for (const r of refs) {
    if (r.at < from || r.at >= to) continue;
    total++;
    if (r.origin >= from || present.has(keys[r.origin]!)) kept++;
  }
  return { kept, total };
}
