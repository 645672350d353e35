/**
 * In-memory {@link SummaryStore}: for tests and ephemeral agents. Same contract as the
 * database backends; stored values are deep copies, so later mutation by the caller changes
 * nothing stored.
 *
 * @module session/store/memory
 */
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Message } from "../../message.js";
import type { StackId, StoreError, StoredMessage, StoredSummary, SummaryDraft, SummaryStore } from "./store.js";
import { checkDraft, checkId, checkMessages, checkNow, checkStackId, watermarkProblem } from "./validate.js";

interface Stack {
  readonly messages: StoredMessage[];
  readonly summaries: StoredSummary[];
}

const copy = (message: Message): Message => JSON.parse(JSON.stringify(message)) as Message;

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
      Promise.resolve(closed ? E.left({ _tag: "StoreUnavailable", backend: "memory", message: "store is closed" }) : run());

  const stackOf = (stackId: StackId): Stack => {
    let stack = stacks.get(stackId);
    if (stack === undefined) {
      stack = { messages: [], summaries: [] };
      stacks.set(stackId, stack);
    }
    return stack;
  };

  return {
    backend: "memory",
    append: (stackId, messages, now) =>
      open(() =>
        pipe(
          E.Do,
          E.apS("stackId", checkStackId(stackId)),
          E.apS("messages", checkMessages(messages)),
          E.apS("now", checkNow(now)),
          E.map((v) => {
            const stack = stackOf(v.stackId);
            const first = stack.messages.length + 1;
            const stored = v.messages.map((m, i): StoredMessage => ({ stackId: v.stackId, id: first + i, message: copy(m), createdAt: v.now }));
            stack.messages.push(...stored);
            return stored;
          }),
        ),
      ),
    saveSummary: (stackId, draft: SummaryDraft, now) =>
      open(() =>
        pipe(
          E.Do,
          E.apS("stackId", checkStackId(stackId)),
          E.apS("draft", checkDraft(draft)),
          E.apS("now", checkNow(now)),
          E.chain((v): E.Either<StoreError, StoredSummary> => {
            const stack = stackOf(v.stackId);
            const latest = stack.summaries[stack.summaries.length - 1];
            const actual = latest?.id ?? null;
            if (actual !== v.draft.previousId) {
              return E.left({ _tag: "SummaryConflict", stackId: v.stackId, expectedPreviousId: v.draft.previousId, actualPreviousId: actual });
            }
            const problem = watermarkProblem(v.draft.coversUpTo, stack.messages.length, latest?.coversUpTo ?? 0);
            if (problem !== undefined) return E.left({ _tag: "InvalidWatermark", stackId: v.stackId, coversUpTo: v.draft.coversUpTo, message: problem });
            const summary: StoredSummary = {
              stackId: v.stackId,
              id: nextSummaryId++,
              content: v.draft.content,
              coversUpTo: v.draft.coversUpTo,
              previousId: actual,
              createdAt: v.now,
            };
            stack.summaries.push(summary);
            return E.right(summary);
          }),
        ),
      ),
    latestSummary: (stackId) =>
      open(() =>
        E.map((id: StackId) => {
          const summaries = stacks.get(id)?.summaries ?? [];
          return O.fromNullable(summaries[summaries.length - 1]);
        })(checkStackId(stackId)),
      ),
    messagesAfter: (stackId, afterId) =>
      open(() =>
        pipe(
          E.Do,
          E.apS("stackId", checkStackId(stackId)),
          E.apS("afterId", checkId("afterId", afterId)),
          E.map((v) => (stacks.get(v.stackId)?.messages ?? []).slice(v.afterId).map((m) => ({ ...m, message: copy(m.message) }))),
        ),
      ),
    lastMessageId: (stackId) => open(() => E.map((id: StackId) => stacks.get(id)?.messages.length ?? 0)(checkStackId(stackId))),
    close: () => {
      closed = true;
      return TE.right(undefined);
    },
  };
}
