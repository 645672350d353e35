/**
 * A `SummaryStore` of `@cc/session` kept in a LangGraph `BaseStore`, so an agent's session
 * memory lives in the store its graph already has — safe when several processes (or several
 * summary stores) share that BaseStore. A BaseStore has no transactions and no compare-and-set,
 * so nothing is ever overwritten: a stack is a log of entries and a chain of summaries, and the
 * value of each next entry or summary is agreed on among the writers by `consensus.ts` (Paxos over
 * records each writer adds under keys of its own). Only then is it recorded (`log-<k>`,
 * `summary-<j>`: the same content whoever writes it) and acknowledged. Inside one process the
 * operations on a stack also run one after the other (one queue per BaseStore and stack), so a
 * process's own writers never contend; decided entries are immutable and kept in memory.
 *
 * @module store/base-store
 */
import { randomBytes } from "node:crypto";
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
import { backendIo, type PutOp } from "./backend.js";
import { decide, type Proposer } from "./consensus.js";
import {
  decodeStoreOptions,
  type BaseStoreSummaryStoreOptions,
  type LangGraphStore,
  type ResolvedStoreOptions,
} from "./options.js";
import {
  batchKey,
  decidedKey,
  decodeBatch,
  decodeDecided,
  decodeLogEntry,
  decodeSummaryEntry,
  encodeBatch,
  encodeDecided,
  encodeLogEntry,
  encodeSummaryEntry,
  messageText,
  slotNamespace,
  stackNamespace,
  type LogEntry,
  type Sequence,
  type SummaryEntry,
  type Value,
} from "./records.js";

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

/** What is known to be decided on a stack (immutable once decided, so shared by the process). */
interface Known {
  readonly log: LogEntry[];
  readonly summaries: StoredSummary[];
}

/** Per BaseStore object, per stack namespace (JSON): its decided entries read so far. */
const decided = new WeakMap<object, Map<string, Known>>();

function knownOf(owner: object, namespace: string[]): Known {
  let table = decided.get(owner);
  if (table === undefined) {
    table = new Map();
    decided.set(owner, table);
  }
  const key = JSON.stringify(namespace);
  const found = table.get(key);
  if (found !== undefined) return found;
  const fresh: Known = { log: [], summaries: [] };
  table.set(key, fresh);
  return fresh;
}

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const unavailable = (message: string): StoreError => ({ _tag: "StoreUnavailable", backend: "langgraph", message });

const corrupt = (stackId: StackId, id: number, message: string): StoreError => ({
  _tag: "StoreCorruptRow",
  backend: "langgraph",
  stackId,
  id,
  message,
});

/** The id after the last message of `log` (1 for an empty log). */
const nextId = (log: readonly LogEntry[]): number => {
  const last = log.at(-1);
  return last === undefined ? 1 : last.firstId + last.count;
};

/** Appends to `failure`'s message that the write it stopped was decided and will be recorded by the next call. */
const decidedButUnrecorded = (failure: StoreError, what: string): StoreError =>
  failure._tag === "StoreUnavailable" || failure._tag === "StoreTimeout"
    ? {
        ...failure,
        message: `${failure.message} (${what} was decided and is kept: the next call on this stack records it)`,
      }
    : failure;

/**
 * A `SummaryStore` backed by a LangGraph `BaseStore` (`InMemoryStore`, `PostgresStore`, the
 * `AsyncBatchedStore` a graph node receives, …). Same contract as the stores of `@cc/session`,
 * also when several processes share the BaseStore: appends get consecutive ids, `saveSummary`
 * compares-and-sets on the previous summary id (`SummaryConflict`) and checks the watermark
 * (`InvalidWatermark`), every method is a `TaskEither` that never rejects (a BaseStore that
 * throws or rejects is `StoreUnavailable` with `backend: "langgraph"`; a record someone else
 * wrote is `StoreCorruptRow` naming the message id, 0 for a summary or agreement record), and
 * messages round-trip exactly (any string, lone surrogates too).
 *
 * A BaseStore call that does not answer within `timeoutMs` is a `StoreTimeout`. A failed append or
 * save is never partly applied, and never applied later through this store (its next write on the
 * stack takes it back); only if another process's writer read it first can it still be completed,
 * whole. `close()` refuses later calls and returns at once (calls already running finish on their
 * own); it does not stop the BaseStore (it is yours).
 *
 * @param store a LangGraph BaseStore (records are written with `index: false`: never embedded)
 * @param options `namespace` (default `["cc", "summaries"]`), `batchSize` (default 256), `timeoutMs` (default 30000)
 * @returns `Left<InvalidOptions>` naming the bad field, or the store
 * @example
 * import { InMemoryStore } from "@langchain/langgraph";
 * const made = baseStoreSummaryStore(new InMemoryStore(), { namespace: ["my-app", "sessions"] });
 * if (made._tag === "Left") throw new Error(made.left.message);
 * const store = made.right;
 * await store.append("thread-1", [{ role: "user", content: "hi" }], Date.now())(); // right([{ id: 1, … }])
 */
export function baseStoreSummaryStore(
  store: LangGraphStore,
  options?: BaseStoreSummaryStoreOptions,
): Either<InvalidOptions, SummaryStore> {
  return E.map((o: ResolvedStoreOptions) => open(store, o))(decodeStoreOptions(store, options));
}

function open(store: LangGraphStore, { namespace: prefix, batchSize, timeoutMs }: ResolvedStoreOptions): SummaryStore {
  const io = backendIo(store, timeoutMs);
  const proposer: Proposer = { writer: randomBytes(8).toString("hex"), slots: new Map() };
  let closed = false;
  let made = 0;
  /** Slots this writer decided but could not record yet, per stack namespace (JSON): written before the stack's next operation. */
  const unrecorded = new Map<string, PutOp[]>();

  /** Reads the decided slots of `sequence` after the `known` ones, at most `batchSize` keys a call, until the first missing one. */
  const readDecided = async (
    namespace: string[],
    sequence: Sequence,
    known: number,
    check: (slot: number, value: unknown) => Either<StoreError, unknown>,
    corruptAt: (slot: number, why: string) => StoreError,
  ): Promise<Either<StoreError, void>> => {
    // A few keys first (usually all there is to read), twice as many each call after, up to batchSize.
    for (let from = known + 1, size = Math.min(4, batchSize); ; from += size, size = Math.min(size * 2, batchSize)) {
      const slots = Array.from({ length: size }, (_, i) => from + i);
      const items = await io.get(slots.map((slot) => ({ namespace, key: decidedKey(sequence, slot) })));
      if (E.isLeft(items)) return items;
      for (const [i, slot] of slots.entries()) {
        const item = items.right[i] ?? null;
        if (item === null) return E.right(undefined);
        const value = decodeDecided(slot, item);
        if (E.isLeft(value)) return E.left(corruptAt(slot, value.left));
        const ok = check(slot, value.right);
        if (E.isLeft(ok)) return ok;
        // Decided: what this writer remembers of its ballots there is of no use any more.
        proposer.slots.delete(JSON.stringify(slotNamespace(namespace, sequence, slot)));
      }
    }
  };

  /** Brings the process's knowledge of the stack's log up to date; the log as known. */
  const readLog = async (stackId: StackId, namespace: string[]): Promise<Either<StoreError, readonly LogEntry[]>> => {
    const known = knownOf(io.owner, namespace);
    const r = await readDecided(
      namespace,
      "log",
      known.log.length,
      (slot, value) => acceptLog(stackId, known, slot, value),
      (slot, why) => corrupt(stackId, nextId(known.log), `log entry ${slot}: ${why}`),
    );
    return E.map(() => known.log)(r);
  };

  /** Brings the process's knowledge of the stack's summaries up to date; the chain as known. */
  const readSummaries = async (
    stackId: StackId,
    namespace: string[],
  ): Promise<Either<StoreError, readonly StoredSummary[]>> => {
    const known = knownOf(io.owner, namespace);
    const r = await readDecided(
      namespace,
      "summary",
      known.summaries.length,
      (slot, value) => acceptSummary(stackId, known, slot, value),
      (slot, why) => corrupt(stackId, 0, `summary ${slot}: ${why}`),
    );
    return E.map(() => known.summaries)(r);
  };

  /** Checks the decided value of log slot `slot` (the next one) and adds it to what is known. */
  const acceptLog = (stackId: StackId, known: Known, slot: number, value: unknown): Either<StoreError, LogEntry> => {
    const expected = nextId(known.log);
    const entry = decodeLogEntry(value);
    if (E.isLeft(entry)) return E.left(corrupt(stackId, expected, `log entry ${slot}: ${entry.left}`));
    if (entry.right.firstId !== expected)
      return E.left(
        corrupt(stackId, expected, `log entry ${slot} starts at id ${entry.right.firstId}, expected ${expected}`),
      );
    if (known.log.length === slot - 1) known.log.push(entry.right);
    return E.right(entry.right);
  };

  /** Checks the decided value of summary slot `slot` (the next one) and adds it to what is known. */
  const acceptSummary = (
    stackId: StackId,
    known: Known,
    slot: number,
    value: unknown,
  ): Either<StoreError, SummaryEntry> => {
    const entry = decodeSummaryEntry(stackId, value);
    if (E.isLeft(entry)) return E.left(corrupt(stackId, 0, `summary ${slot}: ${entry.left}`));
    const previous = known.summaries.at(-1);
    if (entry.right.summary.id !== slot || entry.right.summary.coversUpTo <= (previous?.coversUpTo ?? 0)) {
      return E.left(
        corrupt(
          stackId,
          0,
          `summary ${slot}: id ${entry.right.summary.id} covering ${entry.right.summary.coversUpTo} does not follow the chain`,
        ),
      );
    }
    if (known.summaries.length === slot - 1) known.summaries.push(entry.right.summary);
    return E.right(entry.right);
  };

  /**
   * Agrees on slot `slot` of `sequence` (proposing `own`), records the decision and returns the
   * decided value; `extra` records are written with the first ballot.
   */
  const settle = async (
    stackId: StackId,
    namespace: string[],
    sequence: Sequence,
    slot: number,
    own: Value,
    extra: readonly PutOp[],
    mine: (decided: Value) => boolean,
  ): Promise<Either<StoreError, Value>> => {
    const value = await decide(io, proposer, slotNamespace(namespace, sequence, slot), own, extra, (why) =>
      corrupt(stackId, 0, `${sequence} ${slot}: ${why}`),
    );
    if (E.isLeft(value)) return value;
    const record: PutOp = { namespace, key: decidedKey(sequence, slot), value: encodeDecided(slot, value.right) };
    const written = await io.put([record]);
    if (E.isLeft(written)) {
      const key = JSON.stringify(namespace);
      unrecorded.set(key, [...(unrecorded.get(key) ?? []), record]);
      // Only this writer's own value is kept by the failure; another writer's entry there means this one is not in.
      return E.left(mine(value.right) ? decidedButUnrecorded(written.left, `${sequence} entry ${slot}`) : written.left);
    }
    return value;
  };

  /** Runs `job` with the checked arguments on the stack's queue; a closed store or a bad argument never reaches it. */
  const run =
    <V extends { readonly stackId: StackId }, A>(
      checked: Either<StoreError, V>,
      job: (args: V, namespace: string[]) => Promise<Either<StoreError, A>>,
    ): TaskEither<StoreError, A> =>
    () => {
      if (closed) return Promise.resolve(E.left(unavailable("store is closed")));
      if (E.isLeft(checked)) return Promise.resolve(checked);
      const args = checked.right;
      const namespace = stackNamespace(prefix, args.stackId);
      const key = JSON.stringify(namespace);
      const guarded = async (): Promise<Either<StoreError, A>> => {
        try {
          const owed = unrecorded.get(key);
          if (owed !== undefined) {
            const written = await io.put(owed);
            if (E.isLeft(written)) return written;
            unrecorded.delete(key);
          }
          return await job(args, namespace);
        } catch (e) {
          return E.left(unavailable(`unexpected failure: ${reason(e)}`));
        }
      };
      return serialised(io.owner, key, guarded);
    };

  const append = (
    stackId: StackId,
    messages: readonly Message[],
    now: number,
  ): TaskEither<StoreError, readonly StoredMessage[]> => {
    const checked = pipe(
      E.Do,
      E.apS("stackId", checkStackId(stackId)),
      E.apS("messages", checkMessages(messages)),
      E.apS("now", checkNow(now)),
    );
    return run(
      checked,
      async (
        { stackId: id, messages: sent, now: at },
        namespace,
      ): Promise<Either<StoreError, readonly StoredMessage[]>> => {
        if (sent.length === 0) return E.right([]);
        const log = await readLog(id, namespace);
        if (E.isLeft(log)) return log;
        const known = knownOf(io.owner, namespace);
        const texts = sent.map(messageText);
        const batch = batchKey(proposer.writer, made++);
        let extra: readonly PutOp[] = [{ namespace, key: batch, value: encodeBatch(texts, at) }];
        // Propose at the first undecided slot; a slot another writer's entry takes moves this one on.
        for (;;) {
          const slot = known.log.length + 1;
          const firstId = nextId(known.log);
          const value = await settle(
            id,
            namespace,
            "log",
            slot,
            encodeLogEntry({ batch, firstId, count: texts.length, createdAt: at }),
            extra,
            (v) => v["batch"] === batch,
          );
          extra = [];
          if (E.isLeft(value)) return value;
          const entry = acceptLog(id, known, slot, value.right);
          if (E.isLeft(entry)) return entry;
          if (entry.right.batch !== batch) continue;
          const stored = decodeBatch(id, firstId, texts.length, encodeBatch(texts, at));
          return E.mapLeft(({ id: at_, why }: { readonly id: number; readonly why: string }) => corrupt(id, at_, why))(
            stored,
          );
        }
      },
    );
  };

  const saveSummary = (stackId: StackId, draft: SummaryDraft, now: number): TaskEither<StoreError, StoredSummary> => {
    const checked = pipe(
      E.Do,
      E.apS("stackId", checkStackId(stackId)),
      E.apS("draft", checkDraft(draft)),
      E.apS("now", checkNow(now)),
    );
    return run(
      checked,
      async ({ stackId: id, draft: d, now: at }, namespace): Promise<Either<StoreError, StoredSummary>> => {
        const chain = await readSummaries(id, namespace);
        if (E.isLeft(chain)) return chain;
        const latest = chain.right.at(-1);
        const actual = latest?.id ?? null;
        if (actual !== d.previousId)
          return E.left({
            _tag: "SummaryConflict",
            stackId: id,
            expectedPreviousId: d.previousId,
            actualPreviousId: actual,
          });
        const log = await readLog(id, namespace);
        if (E.isLeft(log)) return log;
        const problem = watermarkProblem(d.coversUpTo, nextId(log.right) - 1, latest?.coversUpTo ?? 0);
        if (problem !== undefined)
          return E.left({ _tag: "InvalidWatermark", stackId: id, coversUpTo: d.coversUpTo, message: problem });
        const slot = (actual ?? 0) + 1;
        const nonce = `${proposer.writer}-${made++}`;
        const summary: StoredSummary = {
          stackId: id,
          id: slot,
          content: d.content,
          coversUpTo: d.coversUpTo,
          previousId: actual,
          createdAt: at,
        };
        const value = await settle(
          id,
          namespace,
          "summary",
          slot,
          encodeSummaryEntry({ nonce, summary }),
          [],
          (v) => v["nonce"] === nonce,
        );
        if (E.isLeft(value)) return value;
        const entry = acceptSummary(id, knownOf(io.owner, namespace), slot, value.right);
        if (E.isLeft(entry)) return entry;
        // Another writer's summary took the slot: this one was built on a predecessor that is no longer the latest.
        if (entry.right.nonce !== nonce)
          return E.left({
            _tag: "SummaryConflict",
            stackId: id,
            expectedPreviousId: d.previousId,
            actualPreviousId: slot,
          });
        return E.right(entry.right.summary);
      },
    );
  };

  const messagesAfter = (stackId: StackId, afterId: number): TaskEither<StoreError, readonly StoredMessage[]> => {
    const checked = pipe(E.Do, E.apS("stackId", checkStackId(stackId)), E.apS("afterId", checkId("afterId", afterId)));
    return run(
      checked,
      async ({ stackId: id, afterId }, namespace): Promise<Either<StoreError, readonly StoredMessage[]>> => {
        const log = await readLog(id, namespace);
        if (E.isLeft(log)) return log;
        const wanted = log.right.filter((e) => e.batch !== null && e.count > 0 && e.firstId + e.count - 1 > afterId);
        const out: StoredMessage[] = [];
        for (let from = 0; from < wanted.length; from += batchSize) {
          const entries = wanted.slice(from, from + batchSize);
          const items = await io.get(entries.map((e) => ({ namespace, key: e.batch ?? "" })));
          if (E.isLeft(items)) return items;
          for (const [i, e] of entries.entries()) {
            const stored = decodeBatch(id, e.firstId, e.count, items.right[i] ?? null);
            if (E.isLeft(stored)) return E.left(corrupt(id, stored.left.id, stored.left.why));
            out.push(...stored.right.filter((m) => m.id > afterId));
          }
        }
        return E.right(out);
      },
    );
  };

  const stackOnly = (stackId: StackId): Either<StoreError, { readonly stackId: StackId }> =>
    E.map((id: StackId) => ({ stackId: id }))(checkStackId(stackId));

  return {
    backend: "langgraph",
    append,
    saveSummary,
    latestSummary: (stackId) =>
      run(stackOnly(stackId), async ({ stackId: id }, namespace) =>
        E.map((chain: readonly StoredSummary[]) => O.fromNullable(chain.at(-1)))(await readSummaries(id, namespace)),
      ),
    messagesAfter,
    lastMessageId: (stackId) =>
      run(stackOnly(stackId), async ({ stackId: id }, namespace) =>
        E.map((log: readonly LogEntry[]) => nextId(log) - 1)(await readLog(id, namespace)),
      ),
    close: () => () => {
      closed = true;
      return Promise.resolve(E.right(undefined));
    },
  };
}
