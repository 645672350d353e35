/**
 * Options of the LangGraph-backed summary store, decoded by a closed codec.
 *
 * @module store/options
 */
import { decodeWith, expectation, intIn, invalid, objectCodec, type InvalidOptions } from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/**
 * The part of a LangGraph `BaseStore` (`@langchain/langgraph`: `InMemoryStore`, `PostgresStore`,
 * any subclass) the summary store uses: `batch` of get, put and search operations, or, for a store
 * without a working `batch`, `get`, `put` and `search`. The `AsyncBatchedStore` a graph node
 * receives (`config.store`, `getStore()`) is one: the summary store uses the store it wraps.
 *
 * @example
 * import { InMemoryStore } from "@langchain/langgraph";
 * const store: LangGraphStore = new InMemoryStore();
 */
export interface LangGraphStore {
  batch?(
    operations: Array<
      | { namespace: string[]; key: string; value?: Record<string, unknown>; index?: false }
      | { namespacePrefix: string[]; limit?: number; offset?: number }
    >,
  ): Promise<readonly unknown[]>;
  get?(namespace: string[], key: string): Promise<unknown>;
  put?(namespace: string[], key: string, value: Record<string, unknown>, index?: false): Promise<unknown>;
  search?(namespacePrefix: string[], options?: { limit?: number; offset?: number }): Promise<readonly unknown[]>;
}

/**
 * Options of `baseStoreSummaryStore`.
 *
 * @example
 * const options: BaseStoreSummaryStoreOptions = { namespace: ["my-app", "summaries"], batchSize: 500 };
 */
export interface BaseStoreSummaryStoreOptions {
  /**
   * Namespace prefix of every record; each stack is one namespace below it (and the entries being
   * agreed on, one namespace each, below that). LangGraph's label rules apply: non-empty strings without ".",
   * ":" or NUL, the first one not `"langgraph"`.
   * @default ["cc", "summaries"]
   */
  readonly namespace?: readonly string[];
  /**
   * Most keys read in one `batch` call (decided entries, the records of appended messages).
   * @default 256
   */
  readonly batchSize?: number;
  /**
   * Longest wait for one call of the BaseStore, in ms (1 … 2147483647; there is no "no timeout").
   * A call that takes longer is a `StoreTimeout`; what it writes if it lands later can never
   * overwrite anything, and an append or summary it was proposing is given up by this store's
   * next write on that stack (or, if it was already decided, recorded).
   * @default 30000
   */
  readonly timeoutMs?: number;
}

/** The options with every default filled in. */
export interface ResolvedStoreOptions {
  readonly namespace: readonly string[];
  readonly batchSize: number;
  readonly timeoutMs: number;
}

/** Subject of rejected store options. */
export const STORE_OPTIONS = "LangGraph summary store options";

const LABEL_RULE = 'non-empty strings without ".", ":" or NUL, the first one not "langgraph"';

const isLabel = (u: unknown): u is string =>
  typeof u === "string" && u.length > 0 && !u.includes(".") && !u.includes(":") && !u.includes("\u0000");

const namespaceCodec = new t.Type<readonly string[], readonly string[], unknown>(
  "Namespace",
  (u): u is readonly string[] => Array.isArray(u) && u.length > 0 && u.every(isLabel) && u[0] !== "langgraph",
  (u, c) => {
    if (!Array.isArray(u) || u.length === 0)
      return t.failure(u, c, expectation(c, `a non-empty array of ${LABEL_RULE}`, u));
    const bad = u.findIndex((label: unknown, i) => !isLabel(label) || (i === 0 && label === "langgraph"));
    if (bad === -1) return t.success(u as readonly string[]);
    const at = t.appendContext(c, String(bad), t.string, u[bad]);
    return t.failure(
      u[bad],
      at,
      expectation(
        at,
        bad === 0 && u[0] === "langgraph"
          ? 'a label other than "langgraph" (LangGraph reserves it)'
          : 'a non-empty string without ".", ":" or NUL',
        u[bad],
      ),
    );
  },
  t.identity,
);

/**
 * io-ts codec of {@link BaseStoreSummaryStoreOptions} (closed: unknown keys are rejected).
 *
 * @example
 * BaseStoreSummaryStoreOptionsCodec.is({ namespace: ["app"] }); // true
 */
export const BaseStoreSummaryStoreOptionsCodec = objectCodec(
  "BaseStoreSummaryStoreOptions",
  {},
  { namespace: namespaceCodec, batchSize: intIn(1, 100_000), timeoutMs: intIn(1, 2_147_483_647) },
  { expected: "an options object" },
);

const decode = decodeWith(BaseStoreSummaryStoreOptionsCodec, "InvalidOptions", STORE_OPTIONS);

const isFunction = (o: object, name: string): boolean => typeof (o as Record<string, unknown>)[name] === "function";

/** True for an object with a `batch` method (every LangGraph `BaseStore`) or with `get`, `put` and `search`. */
export const isLangGraphStore = (u: unknown): u is LangGraphStore =>
  typeof u === "object" &&
  u !== null &&
  (isFunction(u, "batch") || (isFunction(u, "get") && isFunction(u, "put") && isFunction(u, "search")));

/** Checks the store and decodes the options, filling in the defaults. */
export function decodeStoreOptions(store: unknown, input: unknown): E.Either<InvalidOptions, ResolvedStoreOptions> {
  if (!isLangGraphStore(store)) {
    return E.left(
      invalid("InvalidOptions", STORE_OPTIONS, [
        {
          path: "store",
          field: "store",
          message: `store: expected a LangGraph BaseStore (an object with a batch method, or get, put and search), got ${store === null ? "null" : typeof store}`,
        },
      ]),
    );
  }
  const r = decode(input === undefined ? {} : input);
  if (E.isLeft(r)) return r;
  // A copy: a caller changing its array later cannot move the records.
  return E.right({
    namespace: Object.freeze([...(r.right.namespace ?? ["cc", "summaries"])]),
    batchSize: r.right.batchSize ?? 256,
    timeoutMs: r.right.timeoutMs ?? 30_000,
  });
}
