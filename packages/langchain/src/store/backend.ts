/**
 * The calls the summary store makes to a LangGraph store: one `batch` of get, put and search
 * operations, each call bounded by a timeout, each answer checked. A store whose `batch` is not
 * implemented — the `AsyncBatchedStore` a graph node receives — is used through the store it
 * wraps, and a store that has only `get`, `put` and `search` through those.
 *
 * @module store/backend
 */
import * as E from "fp-ts/lib/Either.js";
import type { Either } from "fp-ts/lib/Either.js";
import type { StoreError } from "@cc/session";
import { isLangGraphStore, type LangGraphStore } from "./options.js";
import { itemValue, type Value } from "./records.js";

/** Reads one record. */
export interface GetOp {
  readonly namespace: string[];
  readonly key: string;
}

/** Writes one record (never embedded). */
export interface PutOp {
  readonly namespace: string[];
  readonly key: string;
  readonly value: Value;
}

/** A record's value as read back: `null` when there is none. */
export type Read = Readonly<Record<string, unknown>> | null;

/** What the summary store needs of a LangGraph store; every call resolves (never rejects). */
export interface Io {
  /** The object the in-process state of a stack is kept per (the wrapped store of an `AsyncBatchedStore`). */
  readonly owner: object;
  /** Reads `ops` in one call; a value that is not an item is `StoreUnavailable`. */
  readonly get: (ops: readonly GetOp[]) => Promise<Either<StoreError, readonly Read[]>>;
  /** Writes `ops` in one call. */
  readonly put: (ops: readonly PutOp[]) => Promise<Either<StoreError, void>>;
  /** Every record in exactly `namespace` and below (paged). */
  readonly searchAll: (namespace: string[]) => Promise<Either<StoreError, readonly Read[]>>;
}

type RawOp =
  | { namespace: string[]; key: string; value?: Value; index?: false }
  | { namespacePrefix: string[]; limit: number; offset: number };

/** Rejects a call that took longer than the timeout. */
class TimeoutSignal extends Error {}

const PAGE = 1000;

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const unavailable = (message: string): StoreError => ({ _tag: "StoreUnavailable", backend: "langgraph", message });

/** The store an `AsyncBatchedStore` (LangGraph's `lg_name`) wraps, or `store` itself. */
function unwrap(store: LangGraphStore): LangGraphStore {
  let current: LangGraphStore = store;
  for (let depth = 0; depth < 8; depth++) {
    const fields = current as Record<string, unknown>;
    const inner = fields["store"];
    if (fields["lg_name"] !== "AsyncBatchedStore" || !isLangGraphStore(inner)) return current;
    current = inner;
  }
  return current;
}

/** One raw call of `store`: its `batch`, or its single-operation methods side by side. */
function rawCall(store: LangGraphStore): (ops: RawOp[]) => Promise<unknown> {
  const { batch, get, put, search } = store;
  if (batch !== undefined) return (ops) => batch.call(store, ops);
  if (get === undefined || put === undefined || search === undefined)
    return () => Promise.reject(new Error("the store has neither batch nor get, put and search"));
  return (ops) =>
    Promise.all(
      ops.map((op): Promise<unknown> => {
        if ("namespacePrefix" in op)
          return search.call(store, op.namespacePrefix, { limit: op.limit, offset: op.offset });
        if (op.value !== undefined) return put.call(store, op.namespace, op.key, op.value, false).then(() => null);
        return get.call(store, op.namespace, op.key);
      }),
    );
}

/** The calls to `store`, each bounded by `timeoutMs`. */
export function backendIo(store: LangGraphStore, timeoutMs: number): Io {
  const target = unwrap(store);
  const call = rawCall(target);

  const timed = (ops: RawOp[]): Promise<unknown> => {
    const running = Promise.resolve().then(() => call(ops));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new TimeoutSignal()), timeoutMs);
      running.then(
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

  /** One call: a throw, a rejection or a malformed answer is `StoreUnavailable`; no answer in time is `StoreTimeout`. */
  const run = async (ops: RawOp[]): Promise<Either<StoreError, readonly unknown[]>> => {
    try {
      const results: unknown = await timed(ops);
      if (!Array.isArray(results) || results.length !== ops.length) {
        return E.left(
          unavailable(
            `BaseStore.batch answered ${Array.isArray(results) ? `${results.length} results` : typeof results} for ${ops.length} operations`,
          ),
        );
      }
      return E.right(results);
    } catch (e) {
      if (e instanceof TimeoutSignal)
        return E.left({
          _tag: "StoreTimeout",
          backend: "langgraph",
          message: `BaseStore.batch did not answer within ${timeoutMs} ms`,
        });
      return E.left(unavailable(`BaseStore.batch failed: ${reason(e)}`));
    }
  };

  const values = (items: readonly unknown[]): Either<StoreError, readonly Read[]> => {
    const out: Read[] = [];
    for (const item of items) {
      const v = itemValue(item);
      if (E.isLeft(v)) return E.left(unavailable(`BaseStore.batch answered something that is not an item: ${v.left}`));
      out.push(v.right);
    }
    return E.right(out);
  };

  return {
    owner: target,
    get: async (ops) => E.chain(values)(await run(ops.map((op) => ({ namespace: op.namespace, key: op.key })))),
    put: async (ops) =>
      E.map(() => undefined)(
        await run(ops.map((op) => ({ namespace: op.namespace, key: op.key, value: op.value, index: false as const }))),
      ),
    searchAll: async (namespace) => {
      const out: Read[] = [];
      for (let offset = 0; ; offset += PAGE) {
        const r = await run([{ namespacePrefix: namespace, limit: PAGE, offset }]);
        if (E.isLeft(r)) return r;
        const page = r.right[0];
        if (!Array.isArray(page))
          return E.left(unavailable(`BaseStore search answered ${typeof page}, not a list of items`));
        const read = values(page);
        if (E.isLeft(read)) return read;
        out.push(...read.right);
        if (page.length < PAGE) return E.right(out);
      }
    },
  };
}
