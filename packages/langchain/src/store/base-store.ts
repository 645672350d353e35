/**
 * A `SummaryStore` of `@cc/session` kept in a LangGraph `BaseStore`, so an agent's session
 * memory lives in the store its graph already has. A BaseStore has no transactions: every
 * operation on a stack runs after the previous one on that stack has finished (one queue per
 * BaseStore object and stack, shared by every summary store of this process over that object), so
 * writes are atomic and compare-and-set holds inside one process. Each write puts its records
 * first and the stack's head last: a write that fails half-way leaves the head as it was, and what
 * it put is invisible (the next write reuses those keys).
 *
 * @module store/base-store
 */
import * as E from "fp-ts/lib/Either.js";
import type { Either } from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Message } from "@cc/messages";
import type { StoredMessage, StoredSummary, StoreError, SummaryDraft, SummaryStore } from "@cc/session";
import type { StackId } from "@cc/session/internal";
import { checkDraft, checkId, checkMessages, checkNow, checkStackId, watermarkProblem } from "@cc/session/internal";
import type { InvalidOptions } from "@cc/validate";
import { decodeStoreOptions, type BaseStoreSummaryStoreOptions, type LangGraphStore, type ResolvedStoreOptions } from "./options.js";
import {
  decodeHead,
  decodeMessageRecord,
  encodeHead,
  encodeMessageRecord,
  encodeSummary,
  HEAD_KEY,
  itemValue,
  messageKey,
  messageText,
  stackNamespace,
  summaryKey,
  type Head,
  type Value,
} from "./records.js";

type Operation = { namespace: string[]; key: string; value?: Value; index?: false };

const stalledMessage = (timeoutMs: number): string =>
  `an earlier BaseStore call on this stack took longer than ${timeoutMs} ms and has not finished; try again once it has`;

/** Rejects a `batch` call that took longer than `timeoutMs`. */
class TimeoutSignal extends Error {}

/** Per BaseStore object: the tail of each stack's queue (keyed by the namespace's JSON). */
const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/** Runs `job` after every job queued before it on (`owner`, `key`); `job` must not reject. */
function serialised<A>(owner: object, key: string, job: () => Promise<A>): Promise<A> {
  let tails = queues.get(owner);
  if (tails === undefined) {
    tails = new Map();
    queues.set(owner, tails);
  }
  const table = tails;
  const previous = table.get(key) ?? Promise.resolve();
  const run = previous.then(job, job);
  table.set(key, run);
  void run.then(() => {
    if (table.get(key) === run) table.delete(key);
  });
  return run;
}

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const unavailable = (message: string): StoreError => ({ _tag: "StoreUnavailable", backend: "langgraph", message });

const corrupt = (stackId: StackId, id: number, message: string): StoreError => ({ _tag: "StoreCorruptRow", backend: "langgraph", stackId, id, message });

/**
 * A `SummaryStore` backed by a LangGraph `BaseStore` (`InMemoryStore`, `PostgresStore`, …).
 * Same contract as the stores of `@cc/session`: appends get consecutive ids, `saveSummary`
 * compares-and-sets on the previous summary id (`SummaryConflict`) and checks the watermark
 * (`InvalidWatermark`), every method is a `TaskEither` that never rejects (a BaseStore that
 * throws or rejects is `StoreUnavailable` with `backend: "langgraph"`; a record someone else
 * wrote is `StoreCorruptRow` naming the message id, 0 for the stack's head), and messages
 * round-trip exactly (any string, lone surrogates too).
 *
 * Single process only: operations are serialised per stack inside this process, so two
 * processes sharing one BaseStore do not get compare-and-set — both may append the same ids or
 * save a summary over the other's. Use `openSqliteStore` or `openPostgresStore` of `@cc/session`
 * for that. `close()` waits for the running operations and refuses later ones; it does not stop
 * the BaseStore (it is yours).
 *
 * @param store a LangGraph BaseStore (records are written with `index: false`: never embedded)
 * A `batch` call that does not answer within `timeoutMs` is a `StoreTimeout`; the stack then
 * refuses every operation (`StoreUnavailable`) until that call settles, so a late write never
 * lands over a newer one, and `close()` does not wait for it.
 *
 * @param options `namespace` (default `["cc", "summaries"]`), `batchSize` (default 256), `timeoutMs` (default 30000, 0 for none)
 * @returns `Left<InvalidOptions>` naming the bad field, or the store
 * @example
 * import { InMemoryStore } from "@langchain/langgraph";
 * const made = baseStoreSummaryStore(new InMemoryStore(), { namespace: ["my-app", "sessions"] });
 * if (made._tag === "Left") throw new Error(made.left.message);
 * const store = made.right;
 * await store.append("thread-1", [{ role: "user", content: "hi" }], Date.now())(); // right([{ id: 1, … }])
 */
export function baseStoreSummaryStore(store: LangGraphStore, options?: BaseStoreSummaryStoreOptions): Either<InvalidOptions, SummaryStore> {
  return E.map((o: ResolvedStoreOptions) => open(store, o))(decodeStoreOptions(store, options));
}

/** Stacks (namespace JSON) with a `batch` call past its timeout and not settled yet, per BaseStore object. */
const stalledCalls = new WeakMap<object, Set<string>>();

function open(store: LangGraphStore, { namespace: prefix, batchSize, timeoutMs }: ResolvedStoreOptions): SummaryStore {
  let closed = false;
  const running = new Set<Promise<unknown>>();
  const stalled = stalledCalls.get(store) ?? new Set<string>();
  stalledCalls.set(store, stalled);

  /**
   * `store.batch(operations)`, or a `StoreTimeout` after `timeoutMs`: the call goes on, and the
   * stack stays stalled (every operation on it refused) until it settles.
   */
  const timed = (operations: Operation[]): Promise<unknown> => {
    const call = Promise.resolve().then(() => store.batch(operations));
    if (timeoutMs === 0) return call;
    const stack = JSON.stringify(operations[0]?.namespace ?? []);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stalled.add(stack);
        const release = (): void => {
          stalled.delete(stack);
        };
        call.then(release, release);
        reject(new TimeoutSignal());
      }, timeoutMs);
      call.then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (e: unknown) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
  };

  /** One `batch` call: a throw, a rejection or a malformed answer is `StoreUnavailable`; no answer in time is `StoreTimeout`. */
  const batch = async (operations: Operation[]): Promise<Either<StoreError, readonly unknown[]>> => {
    // An operation queued before a call on its stack stalled stops here, before touching the store.
    if (stalled.has(JSON.stringify(operations[0]?.namespace ?? []))) return E.left(unavailable(stalledMessage(timeoutMs)));
    try {
      const results: unknown = await timed(operations);
      if (!Array.isArray(results) || results.length !== operations.length) {
        return E.left(unavailable(`BaseStore.batch answered ${Array.isArray(results) ? `${results.length} results` : typeof results} for ${operations.length} operations`));
      }
      return E.right(results);
    } catch (e) {
      if (e instanceof TimeoutSignal) return E.left({ _tag: "StoreTimeout", backend: "langgraph", message: `BaseStore.batch did not answer within ${timeoutMs} ms` });
      return E.left(unavailable(`BaseStore.batch failed: ${reason(e)}`));
    }
  };

  /** Puts `records` in batches of `batchSize`; stops at the first failure. */
  const putAll = async (namespace: string[], records: readonly (readonly [string, Value])[]): Promise<Either<StoreError, void>> => {
    for (let start = 0; start < records.length; start += batchSize) {
      const ops = records.slice(start, start + batchSize).map(([key, value]): Operation => ({ namespace, key, value, index: false }));
      const r = await batch(ops);
      if (E.isLeft(r)) return r;
    }
    return E.right(undefined);
  };

  const readHead = async (stackId: StackId, namespace: string[]): Promise<Either<StoreError, Head>> => {
    const items = await batch([{ namespace, key: HEAD_KEY }]);
    if (E.isLeft(items)) return items;
    const head = E.chain((v: Readonly<Record<string, unknown>> | null) => decodeHead(stackId, v))(itemValue(items.right[0]));
    // A head that does not decode is reported as row 0 of the stack.
    return E.mapLeft((why: string) => corrupt(stackId, 0, `head of stack: ${why}`))(head);
  };

  const writeHead = (namespace: string[], head: Head): Promise<Either<StoreError, void>> => putAll(namespace, [[HEAD_KEY, encodeHead(head)]]);

  /** Runs `job` with the checked arguments on the stack's queue; a closed store or a bad argument never reaches it. */
  const run =
    <V extends { readonly stackId: StackId }, A>(checked: Either<StoreError, V>, job: (args: V, namespace: string[]) => Promise<Either<StoreError, A>>): TaskEither<StoreError, A> =>
    () => {
      if (closed) return Promise.resolve(E.left(unavailable("store is closed")));
      if (E.isLeft(checked)) return Promise.resolve(checked);
      const args = checked.right;
      const namespace = stackNamespace(prefix, args.stackId);
      if (stalled.has(JSON.stringify(namespace))) {
        return Promise.resolve(E.left(unavailable(stalledMessage(timeoutMs))));
      }
      const guarded = async (): Promise<Either<StoreError, A>> => {
        try {
          return await job(args, namespace);
        } catch (e) {
          return E.left(unavailable(`unexpected failure: ${reason(e)}`));
        }
      };
      const p = serialised(store, JSON.stringify(namespace), guarded);
      running.add(p);
      void p.then(() => running.delete(p));
      return p;
    };

  const append = (stackId: StackId, messages: readonly Message[], now: number): TaskEither<StoreError, readonly StoredMessage[]> => {
    const checked = pipe(
      E.Do,
      E.apS("stackId", checkStackId(stackId)),
      E.apS("messages", checkMessages(messages)),
      E.apS("now", checkNow(now)),
    );
    return run(checked, async ({ stackId: id, messages: sent, now: at }, namespace): Promise<Either<StoreError, readonly StoredMessage[]>> => {
      if (sent.length === 0) return E.right([]);
      const head = await readHead(id, namespace);
      if (E.isLeft(head)) return head;
      const first = head.right.lastMessageId + 1;
      const records = sent.map((message, i) => encodeMessageRecord(first + i, messageText(message), at));
      const written = await putAll(namespace, records.map((record, i): readonly [string, Value] => [messageKey(first + i), record]));
      if (E.isLeft(written)) return written;
      const committed = await writeHead(namespace, { ...head.right, lastMessageId: head.right.lastMessageId + records.length });
      if (E.isLeft(committed)) return committed;
      // What is handed back is read from the records just written: exactly what a later read returns.
      const stored: StoredMessage[] = [];
      for (const [i, record] of records.entries()) {
        const m = decodeMessageRecord(id, first + i, record);
        if (E.isLeft(m)) return E.left(corrupt(id, first + i, m.left));
        stored.push(m.right);
      }
      return E.right(stored);
    });
  };

  const saveSummary = (stackId: StackId, draft: SummaryDraft, now: number): TaskEither<StoreError, StoredSummary> => {
    const checked = pipe(E.Do, E.apS("stackId", checkStackId(stackId)), E.apS("draft", checkDraft(draft)), E.apS("now", checkNow(now)));
    return run(checked, async ({ stackId: id, draft: d, now: at }, namespace): Promise<Either<StoreError, StoredSummary>> => {
      const head = await readHead(id, namespace);
      if (E.isLeft(head)) return head;
      const latest = head.right.summary;
      const actual = latest?.id ?? null;
      if (actual !== d.previousId) return E.left({ _tag: "SummaryConflict", stackId: id, expectedPreviousId: d.previousId, actualPreviousId: actual });
      const problem = watermarkProblem(d.coversUpTo, head.right.lastMessageId, latest?.coversUpTo ?? 0);
      if (problem !== undefined) return E.left({ _tag: "InvalidWatermark", stackId: id, coversUpTo: d.coversUpTo, message: problem });
      const summary: StoredSummary = { stackId: id, id: (actual ?? 0) + 1, content: d.content, coversUpTo: d.coversUpTo, previousId: actual, createdAt: at };
      const written = await putAll(namespace, [[summaryKey(summary.id), encodeSummary(summary)]]);
      if (E.isLeft(written)) return written;
      const committed = await writeHead(namespace, { lastMessageId: head.right.lastMessageId, summary });
      if (E.isLeft(committed)) return committed;
      return E.right(summary);
    });
  };

  const messagesAfter = (stackId: StackId, afterId: number): TaskEither<StoreError, readonly StoredMessage[]> => {
    const checked = pipe(E.Do, E.apS("stackId", checkStackId(stackId)), E.apS("afterId", checkId("afterId", afterId)));
    return run(checked, async ({ stackId: id, afterId }, namespace): Promise<Either<StoreError, readonly StoredMessage[]>> => {
      const head = await readHead(id, namespace);
      if (E.isLeft(head)) return head;
      const out: StoredMessage[] = [];
      for (let from = afterId + 1; from <= head.right.lastMessageId; from += batchSize) {
        const ids = Array.from({ length: Math.min(batchSize, head.right.lastMessageId - from + 1) }, (_, i) => from + i);
        const items = await batch(ids.map((m): Operation => ({ namespace, key: messageKey(m) })));
        if (E.isLeft(items)) return items;
        for (const [i, m] of ids.entries()) {
          const record = E.chain((v: Readonly<Record<string, unknown>> | null) => decodeMessageRecord(id, m, v))(itemValue(items.right[i]));
          if (E.isLeft(record)) return E.left(corrupt(id, m, record.left));
          out.push(record.right);
        }
      }
      return E.right(out);
    });
  };

  return {
    backend: "langgraph",
    append,
    saveSummary,
    latestSummary: (stackId) => run(E.map((id: StackId) => ({ stackId: id }))(checkStackId(stackId)), async ({ stackId: id }, namespace) => E.map((h: Head) => O.fromNullable(h.summary))(await readHead(id, namespace))),
    messagesAfter,
    lastMessageId: (stackId) => run(E.map((id: StackId) => ({ stackId: id }))(checkStackId(stackId)), async ({ stackId: id }, namespace) => E.map((h: Head) => h.lastMessageId)(await readHead(id, namespace))),
    close: () => async () => {
      closed = true;
      await Promise.all([...running]);
      return E.right(undefined);
    },
  };
}
