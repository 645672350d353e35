/**
 * In-memory {@link SummaryStore}: for tests and ephemeral agents. Same contract as the
 * database backends. Each message and summary is copied and deep-frozen once, when it is
 * stored: later mutation by the caller changes nothing stored, and reads hand out the stored
 * immutable records themselves (no copy, no re-validation per read).
 *
 * @module session/store/memory
 */
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Message } from "@cc/messages";
import type { StackId, StoreError, StoredMessage, StoredSummary, SummaryDraft, SummaryStore } from "./store.js";
import { checkDraft, checkId, checkMessages, checkNow, checkStackId, watermarkProblem } from "./validate.js";

interface Stack {
  /** Frozen records; index `i` holds message id `i + 1`. */
  readonly messages: StoredMessage[];
  readonly summaries: StoredSummary[];
}

/**
 * A deep copy of validated JSON-shaped data, frozen at every level. Mirrors what the database
 * backends keep (their JSON text): keys whose value is `undefined` are dropped.
 */
function frozenCopy<A>(value: A): A {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map((v: unknown) => frozenCopy(v))) as A;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v: unknown = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = frozenCopy(v);
  }
  return Object.freeze(out) as A;
}

/**
 * Creates an empty in-memory store.
 *
 * @example
 * const store = memoryStore();
 */
export function memoryStore(): SummaryStore {
  const stacks = new Map<StackId, Stack>();
  let nextSummaryId = 1;
  let closed = false;

  const open =
    <A>(run: () => E.Either<StoreError, A>): TE.TaskEither<StoreError, A> =>
    () =>
      Promise.resolve(
        closed ? E.left({ _tag: "StoreUnavailable", backend: "memory", message: "store is closed" }) : run(),
      );

  const stackOf = (stackId: StackId): Stack => {
    let stack = stacks.get(stackId);
    if (stack === undefined) {
      stack = { messages: [], summaries: [] };
      stacks.set(stackId, stack);
    }
    return stack;
  };

  /** A stack id already in the map was validated when it was added: skip the checks for it. */
  const knownOrChecked = (stackId: StackId): E.Either<StoreError, StackId> =>
    stacks.has(stackId) ? E.right(stackId) : checkStackId(stackId);

  const store = (
    stack: Stack,
    stackId: StackId,
    messages: readonly Message[],
    now: number,
  ): readonly StoredMessage[] => {
    const first = stack.messages.length + 1;
    const stored: StoredMessage[] = new Array<StoredMessage>(messages.length);
    for (let i = 0; i < messages.length; i++) {
      stored[i] = Object.freeze({ stackId, id: first + i, message: frozenCopy(messages[i]!), createdAt: now });
    }
    // A loop, not push(...stored): spreading a very large batch would overflow the call stack.
    for (const record of stored) stack.messages.push(record);
    return Object.freeze(stored);
  };

  return {
    backend: "memory",
    append: (stackId, messages, now) =>
      open(() =>
        pipe(
          E.Do,
          E.apS("stackId", knownOrChecked(stackId)),
          E.apS("messages", checkMessages(messages)),
          E.apS("now", checkNow(now)),
          E.map((v) => store(stackOf(v.stackId), v.stackId, v.messages, v.now)),
        ),
      ),
    saveSummary: (stackId, draft: SummaryDraft, now) =>
      open(() =>
        pipe(
          E.Do,
          E.apS("stackId", knownOrChecked(stackId)),
          E.apS("draft", checkDraft(draft)),
          E.apS("now", checkNow(now)),
          E.chain((v): E.Either<StoreError, StoredSummary> => {
            const stack = stackOf(v.stackId);
            const latest = stack.summaries[stack.summaries.length - 1];
            const actual = latest?.id ?? null;
            if (actual !== v.draft.previousId) {
              return E.left({
                _tag: "SummaryConflict",
                stackId: v.stackId,
                expectedPreviousId: v.draft.previousId,
                actualPreviousId: actual,
              });
            }
            const problem = watermarkProblem(v.draft.coversUpTo, stack.messages.length, latest?.coversUpTo ?? 0);
            if (problem !== undefined)
              return E.left({
                _tag: "InvalidWatermark",
                stackId: v.stackId,
                coversUpTo: v.draft.coversUpTo,
                message: problem,
              });
            const summary: StoredSummary = Object.freeze({
              stackId: v.stackId,
              id: nextSummaryId++,
              content: v.draft.content,
              coversUpTo: v.draft.coversUpTo,
              previousId: actual,
              createdAt: v.now,
            });
            stack.summaries.push(summary);
            return E.right(summary);
          }),
        ),
      ),
    latestSummary: (stackId) =>
      open(() => {
        const stack = stacks.get(stackId);
        if (stack !== undefined) return E.right(O.fromNullable(stack.summaries[stack.summaries.length - 1]));
        return E.map(() => O.none)(checkStackId(stackId));
      }),
    messagesAfter: (stackId, afterId) =>
      open(() =>
        pipe(
          E.Do,
          E.apS("stackId", knownOrChecked(stackId)),
          E.apS("afterId", checkId("afterId", afterId)),
          // The records are frozen: a slice shares them without copying any message.
          E.map((v) => (stacks.get(v.stackId)?.messages ?? []).slice(v.afterId)),
        ),
      ),
    lastMessageId: (stackId) =>
      open(() => {
        const stack = stacks.get(stackId);
        return stack !== undefined ? E.right(stack.messages.length) : E.map(() => 0)(checkStackId(stackId));
      }),
    close: () => {
      closed = true;
      return TE.right(undefined);
    },
  };
}
