/**
 * PostgreSQL {@link SummaryStore} (pg): one store shared by many agent processes on many hosts.
 * Message ids come from a per-stack counter row updated in the same transaction as the insert,
 * so concurrent appenders get consecutive, unique ids and a rolled-back append leaves no gap.
 * The schema is created on first use under a transaction-scoped advisory lock, so processes
 * that race to create it all succeed. pg is loaded when a store is opened from a connection
 * string, not when this module is imported (see `driver.ts`).
 *
 * @module session/store/postgres
 */
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import type { PgPoolClientLike } from "@cc/search/internal";
import type { PgPoolLike } from "@cc/search";
import type { Message } from "@cc/messages";
import {
  classifyPgError,
  ownPgPool,
  pgErrorCode,
  pgPoolTimeoutSettings,
  pgTransaction,
  resolvePgTimeouts,
  type OwnedPgPool,
} from "@cc/search/internal";
import { decodeWith, intIn, invalid, isRecord, leaf, objectCodec } from "@cc/validate";
import { loadDriver, POSTGRES_DRIVER } from "./driver.js";
import type { StackId, StoreError, StoredMessage, StoredSummary, SummaryDraft, SummaryStore } from "./store.js";
import {
  checkDraft,
  checkId,
  checkMessages,
  checkNow,
  checkStackId,
  decodeContent,
  decodeMessage,
  encodeContent,
  encodeMessage,
  watermarkProblem,
} from "./validate.js";

/** Schema migrations of the `session` component, applied in order under an advisory lock. */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE cc_chat_stacks (
     stack_id TEXT PRIMARY KEY,
     last_message_id BIGINT NOT NULL DEFAULT 0
   );
   CREATE TABLE cc_chat_history (
     stack_id TEXT NOT NULL,
     id BIGINT NOT NULL,
     role TEXT NOT NULL,
     body TEXT NOT NULL,
     created_at DOUBLE PRECISION NOT NULL,
     PRIMARY KEY (stack_id, id)
   );
   CREATE TABLE cc_chat_summaries (
     id BIGSERIAL PRIMARY KEY,
     stack_id TEXT NOT NULL,
     content TEXT NOT NULL,
     covers_up_to_message_id BIGINT NOT NULL,
     previous_id BIGINT REFERENCES cc_chat_summaries(id),
     created_at DOUBLE PRECISION NOT NULL
   );
   CREATE INDEX idx_cc_chat_summaries_stack ON cc_chat_summaries (stack_id, id);
   CREATE UNIQUE INDEX uq_cc_chat_summaries_chain ON cc_chat_summaries (stack_id, coalesce(previous_id, 0));`,
];

/** Key of the advisory lock that serialises schema creation across processes. */
const SCHEMA_LOCK_KEY = 0x63635f73; // "cc_s"

/**
 * Options of {@link openPostgresStore} (the style of `openPostgresIndex` of @cc/hierarchical),
 * decoded by a closed codec: an unknown key (with a "did you mean"), NaN, ±Infinity or an
 * out-of-range value is `Left(InvalidOptions)` with subject "store options", each problem naming
 * its field.
 *
 * `connection` is a URL (the store creates a pool, owns it and ends it on close) or a pool you
 * own — a `pg.Pool` or anything of the same shape ({@link PgPoolLike}; no `pg` types needed to
 * compile), not ended on close. A pool you own must have an `'error'` listener
 * (`pool.on("error", …)`): pg raises an `'error'` event on the pool when an idle connection is
 * lost, and an event nobody listens to ends the process. The store listens on every client it
 * checks out itself. `maxConnections` and the timeouts configure the pool the store creates, so
 * they are refused next to a pool you own (set them on your pool).
 *
 * @example openPostgresStore({ connection: "postgres://app@127.0.0.1/agent", maxConnections: 4 })
 */
export interface PostgresStoreOptions {
  /** A connection URL (a pool is created and owned) or a pool you own ({@link PgPoolLike}, not ended on close). */
  readonly connection: string | PgPoolLike;
  /**
   * With a URL: most connections of the pool (integer 1..1000).
   * @default 4
   */
  readonly maxConnections?: number;
  /**
   * With a URL: longest wait for a connection in ms, 0 for none (else `connect_timeout` of the URL, in seconds).
   * @default 10000
   */
  readonly connectTimeoutMs?: number;
  /**
   * With a URL: longest run of one statement in ms, 0 for none (else `statement_timeout` of the URL).
   * @default 30000
   */
  readonly statementTimeoutMs?: number;
}

/** The longest timeout accepted, in ms (as `resolvePgTimeouts`). */
const MAX_TIMEOUT = 2_147_483_647;

const isPgPoolLike = (u: unknown): u is PgPoolLike =>
  isRecord(u) && ["query", "connect", "end", "on"].every((m) => typeof u[m] === "function");

/** Closed codec of {@link PostgresStoreOptions}. */
export const PostgresStoreOptionsCodec = objectCodec(
  "PostgresStoreOptions",
  {
    connection: leaf(
      "Connection",
      "a non-empty URL or a pool (query, connect, end, on)",
      (u): u is string | PgPoolLike => (typeof u === "string" && u !== "") || isPgPoolLike(u),
    ),
  },
  {
    maxConnections: intIn(1, 1000),
    connectTimeoutMs: intIn(0, MAX_TIMEOUT),
    statementTimeoutMs: intIn(0, MAX_TIMEOUT),
  },
  { expected: "a store options object" },
);

const decodeStoreOptions = decodeWith(PostgresStoreOptionsCodec, "InvalidOptions", "store options");

/** Settings that configure the pool the store creates: refused next to a pool you own, never ignored. */
const URL_ONLY = ["maxConnections", "connectTimeoutMs", "statementTimeoutMs"] as const;

interface SummaryRow {
  readonly id: string;
  readonly content: string;
  readonly covers_up_to_message_id: string;
  readonly previous_id: string | null;
  readonly created_at: number;
}

const unavailable = (e: unknown): StoreError => {
  const code = pgErrorCode(e);
  const message = e instanceof Error ? e.message : String(e);
  switch (classifyPgError(e)) {
    case "connectionLost":
      return { _tag: "StoreConnectionLost", backend: "postgres", ...(code === undefined ? {} : { code }), message };
    case "timeout":
      return { _tag: "StoreTimeout", backend: "postgres", message };
    default:
      return {
        _tag: "StoreUnavailable",
        backend: "postgres",
        message: `${message}${code === undefined ? "" : ` (${code})`}`,
      };
  }
};

const isUniqueViolation = (e: unknown): boolean => pgErrorCode(e) === "23505";

/** One transaction on a guarded client; deadlocks and serialization failures are run again (see `pg-resilience`). */
const inTransaction = <A>(pool: PgPoolLike, body: (client: PgPoolClientLike) => Promise<A>): Promise<A> =>
  pgTransaction(pool, body);

async function migrate(pool: PgPoolLike): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK_KEY]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS cc_schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL)",
    );
    const found = await client.query<{ version: number }>(
      "SELECT version FROM cc_schema_versions WHERE component = 'session'",
    );
    const version = found.rows[0]?.version ?? 0;
    if (version > POSTGRES_MIGRATIONS.length) {
      throw new Error(
        `database schema version ${version} is newer than this library supports (${POSTGRES_MIGRATIONS.length})`,
      );
    }
    for (const sql of POSTGRES_MIGRATIONS.slice(version)) await client.query(sql);
    await client.query(
      `INSERT INTO cc_schema_versions (component, version) VALUES ('session', $1)
       ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version`,
      [POSTGRES_MIGRATIONS.length],
    );
  });
}

/**
 * Connects, creates or migrates the schema (safe when many processes do it at once) and returns
 * the store. With a URL, pg is loaded on first run; when it cannot be loaded the result is a
 * `StoreUnavailable` whose `missingPackage` is `"pg"`. A pool you pass in needs no loading.
 * Invalid options are `Left(InvalidOptions)` (see {@link PostgresStoreOptions}).
 *
 * @example
 * const store = await openPostgresStore({ connection: "postgres://app@db/agents" })();
 * const onMine = await openPostgresStore({ connection: pool })(); // pool.on("error", …) is yours
 */
export function openPostgresStore(options: PostgresStoreOptions): TE.TaskEither<StoreError, SummaryStore> {
  const decoded = decodeStoreOptions(options);
  if (E.isLeft(decoded)) return TE.left(decoded.left);
  const { connection, maxConnections } = decoded.right;
  if (typeof connection !== "string") {
    const misplaced = URL_ONLY.filter((k) => decoded.right[k] !== undefined);
    if (misplaced.length > 0) {
      return TE.left(
        invalid(
          "InvalidOptions",
          "store options",
          misplaced.map((k) => ({
            path: k,
            message: `${k}: applies only to the pool the store creates from a URL; set it on your own pool`,
          })),
        ),
      );
    }
    return openWithPool(connection, undefined);
  }
  const timeouts = resolvePgTimeouts(decoded.right, connection);
  if (E.isLeft(timeouts))
    return TE.left(
      invalid(
        "InvalidOptions",
        "store options",
        timeouts.left.map((message) => ({ path: message.split(":")[0]!, message })),
      ),
    );
  return pipe(
    loadDriver(
      "postgres",
      POSTGRES_DRIVER,
      () => import("pg"),
      (mod) => (typeof mod.default?.Pool === "function" ? mod.default.Pool : undefined),
    ),
    TE.chainEitherK((Pool) =>
      // Every pool and client gets an 'error' listener: a lost connection is a typed error of the
      // next call, never an unhandled event.
      E.tryCatch(
        () =>
          ownPgPool(
            new Pool({
              connectionString: connection,
              max: maxConnections ?? 4,
              ...pgPoolTimeoutSettings(timeouts.right),
            }),
          ),
        unavailable,
      ),
    ),
    TE.chain((owned) => openWithPool(owned.pool, owned)),
  );
}

function openWithPool(pool: PgPoolLike, owned: OwnedPgPool | undefined): TE.TaskEither<StoreError, SummaryStore> {
  return async () => {
    try {
      await migrate(pool);
      return E.right(postgresStore(pool, owned));
    } catch (e) {
      if (owned !== undefined) await owned.end().catch(() => undefined);
      return E.left(unavailable(e));
    }
  };
}

const toNumber = (value: string | number): number => (typeof value === "number" ? value : Number(value));

function toSummary(stackId: StackId, row: SummaryRow): E.Either<StoreError, StoredSummary> {
  const id = toNumber(row.id);
  return pipe(
    decodeContent(row.content),
    E.mapLeft((message): StoreError => ({ _tag: "StoreCorruptRow", backend: "postgres", stackId, id, message })),
    E.map((content) => ({
      stackId,
      id,
      content,
      coversUpTo: toNumber(row.covers_up_to_message_id),
      previousId: row.previous_id === null ? null : toNumber(row.previous_id),
      createdAt: row.created_at,
    })),
  );
}

/** Reads the messages of one stack past a watermark, in id order. */
const SELECT_AFTER = "SELECT id, body, created_at FROM cc_chat_history WHERE stack_id = $1 AND id > $2 ORDER BY id";

/** A `cc_chat_history` row (BIGINT ids arrive as text). */
interface MessageRow {
  readonly id: string | number;
  readonly body: string;
  readonly created_at: number;
}

/**
 * Turns rows of one stack into stored messages, stopping at the first row whose body does not
 * decode (a `StoreCorruptRow` naming its id). A plain loop: one result object per row, nothing else.
 */
function toMessages(stackId: StackId, rows: readonly MessageRow[]): E.Either<StoreError, readonly StoredMessage[]> {
  const out: StoredMessage[] = new Array<StoredMessage>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const id = toNumber(row.id);
    const message = decodeMessage(row.body);
    if (E.isLeft(message))
      return E.left({ _tag: "StoreCorruptRow", backend: "postgres", stackId, id, message: message.left });
    out[i] = { stackId, id, message: message.right, createdAt: row.created_at };
  }
  return E.right(out);
}

const SELECT_LATEST = `SELECT id, content, covers_up_to_message_id, previous_id, created_at
  FROM cc_chat_summaries WHERE stack_id = $1 ORDER BY id DESC LIMIT 1`;

function postgresStore(pool: PgPoolLike, owned: OwnedPgPool | undefined): SummaryStore {
  let closed = false;
  const run = <A>(body: () => Promise<E.Either<StoreError, A>>): TE.TaskEither<StoreError, A> =>
    closed
      ? TE.left({ _tag: "StoreUnavailable", backend: "postgres", message: "store is closed" })
      : pipe(
          TE.tryCatch(body, unavailable),
          TE.chainEitherK((r) => r),
        );

  // One statement (so one round trip, atomic on its own): bump the stack's counter row, which
  // locks it until the statement ends, and insert the batch under the ids it reserved.
  const append = async (
    stackId: StackId,
    messages: readonly Message[],
    now: number,
  ): Promise<readonly StoredMessage[]> => {
    const inserted = await pool.query<{ id: string }>(
      `WITH bump AS (
         INSERT INTO cc_chat_stacks (stack_id, last_message_id) VALUES ($1, $2::bigint)
         ON CONFLICT (stack_id) DO UPDATE SET last_message_id = cc_chat_stacks.last_message_id + EXCLUDED.last_message_id
         RETURNING last_message_id
       )
       INSERT INTO cc_chat_history (stack_id, id, role, body, created_at)
       SELECT $1, bump.last_message_id - $2::bigint + u.ord, u.role, u.body, $5
       FROM bump, unnest($3::text[], $4::text[]) WITH ORDINALITY AS u(role, body, ord)
       RETURNING id`,
      [stackId, messages.length, messages.map((m) => m.role), messages.map(encodeMessage), now],
    );
    const first = inserted.rows.reduce((min, r) => Math.min(min, toNumber(r.id)), Number.POSITIVE_INFINITY);
    return messages.map((message, i): StoredMessage => ({ stackId, id: first + i, message, createdAt: now }));
  };

  const save = (stackId: StackId, draft: SummaryDraft, now: number): Promise<E.Either<StoreError, StoredSummary>> =>
    inTransaction(pool, async (client): Promise<E.Either<StoreError, StoredSummary>> => {
      // Locks the stack's counter row: appends and saves of one stack are serialised.
      const stack = await client.query<{ last_message_id: string }>(
        "SELECT last_message_id FROM cc_chat_stacks WHERE stack_id = $1 FOR UPDATE",
        [stackId],
      );
      const latest = (await client.query<SummaryRow>(SELECT_LATEST, [stackId])).rows[0];
      const actual = latest === undefined ? null : toNumber(latest.id);
      if (actual !== draft.previousId) {
        return E.left({
          _tag: "SummaryConflict",
          stackId,
          expectedPreviousId: draft.previousId,
          actualPreviousId: actual,
        });
      }
      const lastId = stack.rows[0] === undefined ? 0 : toNumber(stack.rows[0].last_message_id);
      const problem = watermarkProblem(
        draft.coversUpTo,
        lastId,
        latest === undefined ? 0 : toNumber(latest.covers_up_to_message_id),
      );
      if (problem !== undefined)
        return E.left({ _tag: "InvalidWatermark", stackId, coversUpTo: draft.coversUpTo, message: problem });
      const inserted = await client.query<SummaryRow>(
        `INSERT INTO cc_chat_summaries (stack_id, content, covers_up_to_message_id, previous_id, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING id, content, covers_up_to_message_id, previous_id, created_at`,
        [stackId, encodeContent(draft.content), draft.coversUpTo, draft.previousId, now],
      );
      return toSummary(stackId, inserted.rows[0]!);
    }).catch(async (e: unknown): Promise<E.Either<StoreError, StoredSummary>> => {
      if (!isUniqueViolation(e)) throw e;
      const latest = (await pool.query<SummaryRow>(SELECT_LATEST, [stackId])).rows[0];
      return E.left({
        _tag: "SummaryConflict",
        stackId,
        expectedPreviousId: draft.previousId,
        actualPreviousId: latest === undefined ? null : toNumber(latest.id),
      });
    });

  return {
    backend: "postgres",
    append: (stackId, messages, now) =>
      run(async () => {
        const checked = pipe(
          E.Do,
          E.apS("stackId", checkStackId(stackId)),
          E.apS("messages", checkMessages(messages)),
          E.apS("now", checkNow(now)),
        );
        if (E.isLeft(checked)) return checked;
        const v = checked.right;
        return E.right(v.messages.length === 0 ? [] : await append(v.stackId, v.messages, v.now));
      }),
    saveSummary: (stackId, draft, now) =>
      run(async () => {
        const checked = pipe(
          E.Do,
          E.apS("stackId", checkStackId(stackId)),
          E.apS("draft", checkDraft(draft)),
          E.apS("now", checkNow(now)),
        );
        return E.isLeft(checked) ? checked : save(checked.right.stackId, checked.right.draft, checked.right.now);
      }),
    latestSummary: (stackId) =>
      run(async () => {
        const checked = checkStackId(stackId);
        if (E.isLeft(checked)) return checked;
        const row = (await pool.query<SummaryRow>(SELECT_LATEST, [checked.right])).rows[0];
        return row === undefined
          ? E.right(O.none)
          : E.map((s: StoredSummary) => O.some(s))(toSummary(checked.right, row));
      }),
    messagesAfter: (stackId, afterId) =>
      run(async () => {
        const checked = pipe(
          E.Do,
          E.apS("stackId", checkStackId(stackId)),
          E.apS("afterId", checkId("afterId", afterId)),
        );
        if (E.isLeft(checked)) return checked;
        const { stackId: id, afterId: after } = checked.right;
        const result = await pool.query<MessageRow>(SELECT_AFTER, [id, after]);
        return toMessages(id, result.rows);
      }),
    lastMessageId: (stackId) =>
      run(async () => {
        const checked = checkStackId(stackId);
        if (E.isLeft(checked)) return checked;
        const row = (
          await pool.query<{ last_message_id: string }>(
            "SELECT last_message_id FROM cc_chat_stacks WHERE stack_id = $1",
            [checked.right],
          )
        ).rows[0];
        return E.right(row === undefined ? 0 : toNumber(row.last_message_id));
      }),
    close: () =>
      TE.tryCatch(async () => {
        if (closed) return;
        closed = true;
        if (owned !== undefined) await owned.end();
      }, unavailable),
  };
}
