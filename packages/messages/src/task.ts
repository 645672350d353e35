/**
 * The task of a conversation — the user message its agent first answered — and whether a
 * compaction keeps it verbatim. An agent's run is about its task: the issue text, the
 * instructions, the paths and names the agent will need to the end. Summarised into one line,
 * those are gone.
 *
 * @module task
 */
import { SUMMARY_PREFIX, type Message } from "./message.js";
import { leadingSystemCount } from "./split.js";

/**
 * The most of a compaction's token target a pinned task may take: a longer task is compacted like
 * any other message (and reported), so a huge task never leaves room for nothing else.
 */
export const TASK_PIN_MAX_SHARE = 0.5;

/**
 * The index of the task: the last of the user messages that open the conversation — those right
 * after the leading system messages, up to the first message of another role or the first summary
 * or eviction note (a user message starting with `SUMMARY_PREFIX`). A chat's first request; a
 * SWE-agent run's issue text, which follows its demonstration. `undefined` when the conversation
 * does not open with a user message (or opens with a summary: its task was compacted before).
 *
 * A compaction that pins the task keeps that shape: `lcm` puts it before its summary, an eviction
 * pass puts its note right after it — so the same message is the task on every later turn.
 *
 * @example
 * taskIndex([{ role: "system", content: "be brief" }, { role: "user", content: "fix the reader" }, { role: "assistant", content: "ok" }]) // 1
 */
export function taskIndex(messages: readonly Message[]): number | undefined {
  let i = leadingSystemCount(messages);
  let task: number | undefined;
  while (i < messages.length && messages[i]!.role === "user" && !isFolded(messages[i]!)) task = i++;
  return task;
}

function isFolded(m: Message): boolean {
  return m.role === "user" && typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX);
}

/**
 * What a compaction did with the task: `Pinned` (kept verbatim, `tokens` of it), `TooLarge` (it
 * would take more than {@link TASK_PIN_MAX_SHARE} of the target, `limit` tokens, so it was
 * compacted like the rest), or `NotPinned` (pinning was off, or there is no task). A task inside
 * the requested verbatim tail is pinned too: the tail may shrink to fit the budget.
 */
export type TaskPin =
  | {
      readonly _tag: "Pinned";
      readonly index: number;
      readonly tokens: number;
      /**
       * Set when the task was too large to pin whole and an excerpt of it is pinned instead (an
       * eviction pass does this): the index id of the whole task and its tokens. `tokens` above
       * are the excerpt's.
       */
      readonly excerpt?: { readonly id: string; readonly tokens: number };
    }
  | { readonly _tag: "TooLarge"; readonly index: number; readonly tokens: number; readonly limit: number }
  | { readonly _tag: "NotPinned" };

/**
 * Decides whether the task of `messages` is pinned for a compaction to `targetTokens` (pure):
 * `countTask(i)` gives the tokens of message `i`.
 *
 * @example
 * planTaskPin(history, { enabled: true, targetTokens: 8000 }, (i) => counter.countMessages([history[i]!]))
 * // { _tag: "Pinned", index: 2, tokens: 1053 }
 */
export function planTaskPin(
  messages: readonly Message[],
  settings: { readonly enabled: boolean; readonly targetTokens: number },
  countTask: (index: number) => number,
): TaskPin {
  if (!settings.enabled) return { _tag: "NotPinned" };
  const index = taskIndex(messages);
  if (index === undefined) return { _tag: "NotPinned" };
  const tokens = countTask(index);
  const limit = Math.floor(TASK_PIN_MAX_SHARE * settings.targetTokens);
  return tokens <= limit ? { _tag: "Pinned", index, tokens } : { _tag: "TooLarge", index, tokens, limit };
}
