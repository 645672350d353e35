/**
 * The `SegmentIndex` contract every backend honours (in-memory, SQLite FTS5, PostgreSQL), its
 * entry and hit types, typed errors and the boundary codecs.
 *
 * @module contract
 */
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import * as t from "io-ts";
import {
  decodeWith,
  intIn,
  invalid,
  leaf,
  objectCodec,
  type InvalidInput,
  type InvalidOptions,
  type Problem,
} from "@cc/validate";

/**
 * Namespace used when none is given (one agent, one session).
 *
 * @example await index.expand("s1")() // looks in DEFAULT_NAMESPACE ("default")
 */
export const DEFAULT_NAMESPACE = "default";
/** Hits returned when `k` is not given. */
export const DEFAULT_K = 10;
/** Largest `k` a search accepts. */
export const MAX_K = 1000;

/** JSON value stored as entry metadata. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/**
 * One evicted segment as the index stores it. Identity is `(namespace, id)`: writing the same
 * pair again replaces the entry (a segment re-evicted later carries its newest content).
 *
 * @example
 * const e: IndexEntry = entry({ id: "s1", summary: "pytest: 2 failed", content: "…full output…", tokenCost: 812 });
 */
export interface IndexEntry {
  readonly id: string;
  /** Session, agent or tenant the entry belongs to. */
  readonly namespace: string;
  /** Free-form kind, e.g. "tool_result", "file", "message". */
  readonly kind: string;
  /** Short summary written at eviction (what search matches first). */
  readonly summary: string;
  /** The original content, returned by `expand`. */
  readonly content: string;
  readonly tokenCost: number;
  /** When the segment was created (epoch ms). */
  readonly createdAt: number;
  /** When it was evicted and written (epoch ms). */
  readonly evictedAt: number;
  readonly metadata: { readonly [key: string]: Json };
}

/**
 * Options of `SegmentIndex.search`.
 *
 * @example
 * const hits = await index.search("KeyError reader.py", { k: 5, namespace: "run-1", kinds: ["tool:bash"] } satisfies SearchOptions)();
 */
export interface SearchOptions {
  /**
   * Most hits to return (1..{@link MAX_K}).
   * @default 10 ({@link DEFAULT_K})
   */
  readonly k?: number;
  /**
   * Only this namespace.
   * @default every namespace
   */
  readonly namespace?: string;
  /**
   * Only these kinds (an empty list matches nothing).
   * @default every kind
   */
  readonly kinds?: readonly string[];
}

/**
 * One search result, best first. `score` is backend-specific: higher is better.
 *
 * @example
 * const r = await index.search("app.py")();
 * if (r._tag === "Right") for (const hit of r.right) console.log(hit.id, hit.snippet);
 */
export interface SearchHit {
  readonly id: string;
  readonly namespace: string;
  readonly kind: string;
  readonly summary: string;
  /** An excerpt of the content (or summary) around the match, matched terms marked `**like this**`. */
  readonly snippet: string;
  readonly score: number;
  readonly tokenCost: number;
  readonly createdAt: number;
  readonly evictedAt: number;
}

/**
 * What a write did.
 *
 * @example
 * const r = await index.write([entry({ id: "s1", summary: "read src/app.py" })])(); // Right({ written: 1 })
 */
export interface WriteReceipt {
  readonly written: number;
}

/** A persistent backend, whose database driver is loaded when it is opened. */
export type IndexBackend = "sqlite" | "postgres";

/**
 * Why an index operation failed. `IndexUnavailable` comes from opening a persistent index whose
 * driver package (`missingPackage`) cannot be loaded: install it next to `@cc/search`.
 *
 * @example
 * const r = await index.search("x", { k: 0 })();
 * if (r._tag === "Left" && r.left._tag === "InvalidOptions") console.error(r.left.message);
 */
export type IndexError =
  /** A bad batch of entries (subject "index entries"), every problem naming `entries[i].field`. */
  | InvalidInput
  /**
   * Bad options: of a search (subject "search options"), or of opening an index ("sqlite index
   * options", "postgres index options"); each problem names its field.
   */
  | InvalidOptions
  | { readonly _tag: "IndexClosed"; readonly backend: string }
  | {
      /**
       * The write would have replaced a different original (`content`) under the same
       * (namespace, id), which an earlier note may point to. Nothing of the batch was written.
       * Rewriting an entry with the same content (a new summary, metadata or times) is an upsert.
       */
      readonly _tag: "IdConflict";
      readonly backend: string;
      readonly namespace: string;
      readonly id: string;
      readonly message: string;
    }
  | {
      readonly _tag: "IndexUnavailable";
      readonly backend: IndexBackend;
      readonly missingPackage: "better-sqlite3" | "pg";
      readonly message: string;
    }
  | {
      /**
       * The server could not be reached (connection refused, host unreachable: restarting or
       * failing over) or the connection broke during the call (server restarted, backend
       * terminated); the pool reconnects for the next call. A write that returned this was
       * rolled back, or committed just before the break: writing it again is safe (writes upsert).
       */
      readonly _tag: "ConnectionLost";
      readonly backend: IndexBackend;
      readonly operation: string;
      /** SQLSTATE or socket error code, when known (e.g. 57P01). */
      readonly code?: string;
      readonly message: string;
    }
  | {
      /** Connecting or a statement took longer than its timeout (see `PostgresIndexOptions`). */
      readonly _tag: "Timeout";
      readonly backend: IndexBackend;
      readonly operation: string;
      readonly message: string;
    }
  | {
      readonly _tag: "StorageError";
      readonly backend: string;
      readonly operation: string;
      readonly message: string;
      /** The driver's error code when it has one (e.g. `SQLITE_FULL`, a PostgreSQL SQLSTATE). */
      readonly code?: string;
    };

/**
 * A searchable, durable store of evicted segments. Every method returns a `TaskEither` that
 * never rejects: failures are `Left<IndexError>`.
 *
 * @example
 * const index = memoryIndex();
 * await index.write([entry({ id: "s1", summary: "read src/app.py", content: "…" })])();
 * const hits = await index.search("app.py", { k: 5 })(); // Right([{ id: "s1", … }])
 */
export interface SegmentIndex {
  /** Backend name for reports: "memory", "sqlite", "postgres". */
  readonly backend: string;
  /** Writes (upserts) entries atomically: all of them or none. */
  write(entries: readonly IndexEntry[]): TaskEither<IndexError, WriteReceipt>;
  /** Ranked hits for a user query; an empty or term-less query returns no hits. */
  search(query: string, options?: SearchOptions): TaskEither<IndexError, readonly SearchHit[]>;
  /** The full entry (original content included), or `undefined` when there is none. */
  expand(id: string, namespace?: string): TaskEither<IndexError, IndexEntry | undefined>;
  /** Deletes every entry of a namespace; returns how many went. */
  deleteNamespace(namespace: string): TaskEither<IndexError, number>;
  /** Number of entries (in a namespace, or in total). */
  count(namespace?: string): TaskEither<IndexError, number>;
  /** Releases the backend's resources; later calls return `IndexClosed`. */
  close(): TaskEither<IndexError, void>;
}

const JsonCodec: t.Type<Json> = t.recursion("Json", () =>
  t.union([t.null, t.boolean, finite, t.string, t.readonlyArray(JsonCodec), t.record(t.string, JsonCodec)]),
);

const finite = new t.Type<number, number, unknown>(
  "FiniteNumber",
  (u): u is number => typeof u === "number" && Number.isFinite(u),
  (u, c) => (typeof u === "number" && Number.isFinite(u) ? t.success(u) : t.failure(u, c, "expected a finite number")),
  t.identity,
);

const nonNegative = new t.Type<number, number, unknown>(
  "NonNegativeNumber",
  (u): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0,
  (u, c) =>
    typeof u === "number" && Number.isFinite(u) && u >= 0
      ? t.success(u)
      : t.failure(u, c, "expected a finite number ≥ 0"),
  t.identity,
);

const anyString = new t.Type<string, string, unknown>(
  "String",
  (u): u is string => typeof u === "string",
  (u, c) => (typeof u === "string" ? t.success(u) : t.failure(u, c, "expected a string")),
  t.identity,
);

const nonEmpty = new t.Type<string, string, unknown>(
  "NonEmptyString",
  (u): u is string => typeof u === "string" && u.length > 0,
  (u, c) => (typeof u === "string" && u.length > 0 ? t.success(u) : t.failure(u, c, "expected a non-empty string")),
  t.identity,
);

/**
 * io-ts codec of {@link IndexEntry}. Any string is accepted, NUL and lone surrogates included:
 * every backend stores it losslessly (see `search/lossless`).
 */
export const IndexEntryCodec: t.Type<IndexEntry> = t.readonly(
  t.type({
    id: nonEmpty,
    namespace: nonEmpty,
    kind: anyString,
    summary: anyString,
    content: anyString,
    tokenCost: nonNegative,
    createdAt: nonNegative,
    evictedAt: nonNegative,
    metadata: t.record(t.string, JsonCodec),
  }),
  "IndexEntry",
) as t.Type<IndexEntry>;

function describe(errors: t.Errors, prefix: string): string[] {
  return errors.map((e) => {
    const path = e.context
      .slice(1)
      .map((c) => c.key)
      .filter((k) => k !== "" && !/^\d+$/.test(k) === true)
      .join(".");
    const shown = typeof e.value === "string" ? JSON.stringify(e.value.slice(0, 40)) : String(e.value);
    return `${prefix}${path === "" ? "" : `.${path}`}: ${e.message ?? "invalid value"} (got ${shown})`;
  });
}

/**
 * Validates a batch: every entry against {@link IndexEntryCodec} and no `(namespace, id)` twice.
 * Messages name the index and the field, e.g. `entries[2].tokenCost: expected a finite number ≥ 0 (got NaN)`.
 */
export function validateEntries(entries: unknown): E.Either<IndexError, readonly IndexEntry[]> {
  if (!Array.isArray(entries))
    return E.left(
      invalid("InvalidInput", "index entries", [{ path: "entries", message: "entries: expected an array" }]),
    );
  const errors: string[] = [];
  const seen = new Map<string, number>();
  const valid: IndexEntry[] = [];
  entries.forEach((raw: unknown, i) => {
    const r = IndexEntryCodec.decode(raw);
    if (E.isLeft(r)) {
      errors.push(...describe(r.left, `entries[${i}]`));
      return;
    }
    const key = entryKey(r.right.namespace, r.right.id);
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push(
        `entries[${i}].id: duplicate id ${JSON.stringify(r.right.id)} in namespace ${JSON.stringify(r.right.namespace)} (first at entries[${first}])`,
      );
      return;
    }
    seen.set(key, i);
    valid.push(r.right);
  });
  return errors.length > 0
    ? E.left(invalid("InvalidInput", "index entries", errors.map(entryProblem)))
    : E.right(valid);
}

/** A problem of an entry batch, located by the `entries[i].field` prefix of its message. */
function entryProblem(message: string): Problem {
  const m = /^entries\[(\d+)\]((?:\.[^:]+)?):/.exec(message);
  if (m === null) return { path: "", message };
  const field = m[2] === "" ? undefined : m[2]!.slice(1);
  return { path: `entries[${m[1]}]${m[2]}`, index: Number(m[1]), ...(field === undefined ? {} : { field }), message };
}

/** One string per `(namespace, id)`, injective for any strings (NUL and surrogates included). */
export function entryKey(namespace: string, id: string): string {
  return `${namespace.length}:${namespace}${id}`;
}

/** Search options after validation, with defaults applied. */
export interface ResolvedSearch {
  readonly k: number;
  readonly namespace: string | undefined;
  readonly kinds: readonly string[] | undefined;
}

const StringArray = leaf(
  "Strings",
  "an array of strings",
  (u): u is readonly string[] => Array.isArray(u) && u.every((x) => typeof x === "string"),
);

/** Closed codec of {@link SearchOptions}: an unknown field gets a "did you mean". */
/** io-ts codec of {@link SearchOptions} (closed). */
export const SearchOptionsCodec = objectCodec(
  "SearchOptions",
  {},
  { k: intIn(1, MAX_K), namespace: t.string, kinds: StringArray },
  { expected: "a search options object" },
);

const decodeSearchOptions = decodeWith(SearchOptionsCodec, "InvalidOptions", "search options");

/**
 * Validates search options: `k` an integer in 1..{@link MAX_K}, `namespace` a string, `kinds`
 * strings, no unknown field (closed codec).
 *
 * @example resolveSearchOptions({ k: 0 }) // Left({ _tag: "InvalidOptions", subject: "search options", … "k: expected an integer in [1, 1000], got 0" })
 */
export function resolveSearchOptions(options: SearchOptions | undefined): E.Either<IndexError, ResolvedSearch> {
  const r = decodeSearchOptions(options ?? {});
  if (E.isLeft(r)) return r;
  return E.right({ k: r.right.k ?? DEFAULT_K, namespace: r.right.namespace, kinds: r.right.kinds });
}

/**
 * Builds an entry with defaults (namespace "default", kind "segment", times 0, no metadata).
 *
 * @example entry({ id: "s1", summary: "read src/app.py" }) // namespace "default", kind "segment", times 0
 */
export function entry(fields: Pick<IndexEntry, "id"> & Partial<IndexEntry>): IndexEntry {
  return {
    namespace: DEFAULT_NAMESPACE,
    kind: "segment",
    summary: "",
    content: "",
    tokenCost: 0,
    createdAt: 0,
    evictedAt: 0,
    metadata: {},
    ...fields,
  };
}

/** Renders a caught value as a message. */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  try {
    return typeof e === "object" && e !== null ? JSON.stringify(e) : String(e);
  } catch {
    return "unprintable error";
  }
}

/** The {@link IndexError} of a write that would replace a different original under (`namespace`, `id`). */
export function idConflict(backend: string, namespace: string, id: string): IndexError {
  return {
    _tag: "IdConflict",
    backend,
    namespace,
    id,
    message: `id ${JSON.stringify(id)} in namespace ${JSON.stringify(namespace)} already holds a different original; nothing was written`,
  };
}
