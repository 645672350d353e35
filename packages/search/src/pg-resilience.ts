/**
 * What the PostgreSQL backends (the segment index here, the summary store of `@cc/session`)
 * do about faults: a lost connection, a server that stops answering, a deadlock.
 *
 * - Every pool this library creates, and every client it checks out, has an `'error'` listener:
 *   a backend terminated while idle or inside a transaction never raises an unhandled `'error'`
 *   event (which would end the process); the call that sees it gets a typed error, and the pool
 *   replaces the connection for the next call.
 * - Pools created from a URL get a connection timeout and a statement timeout (options, or
 *   `connect_timeout` (seconds) and `statement_timeout` (ms) in the URL, or the defaults).
 * - Transactions that fail with a serialization failure or a deadlock (SQLSTATE 40001, 40P01)
 *   were rolled back by the server and are run again, a bounded number of times.
 *
 * @module pg-resilience
 */
import * as E from "fp-ts/lib/Either.js";
import type { PgPoolClientLike, PgPoolLike } from "./optional-driver.js";

/** Connection timeout of a pool created from a URL, in ms. */
export const DEFAULT_PG_CONNECT_TIMEOUT_MS = 10_000;
/** Statement timeout of a pool created from a URL, in ms. */
export const DEFAULT_PG_STATEMENT_TIMEOUT_MS = 30_000;
/** Attempts of a transaction that keeps failing with a serialization failure or a deadlock. */
export const PG_TRANSACTION_ATTEMPTS = 5;

/**
 * What kind of failure a caught PostgreSQL error is:
 * - `connectionLost`: the server could not be reached (connection refused, host or network
 *   unreachable: a server restarting, a fleet's database failing over) or the connection broke
 *   (backend terminated, server shut down, socket reset): transient, the next call reconnects;
 * - `timeout`: the connection or the statement took longer than its timeout;
 * - `retryable`: serialization failure or deadlock (40001, 40P01), the transaction was rolled back;
 * - `other`: anything else (an SQL error, an unknown host, a refused login, …).
 */
export type PgFailureKind = "connectionLost" | "timeout" | "retryable" | "other";

/** The SQLSTATE (or Node error code, e.g. `ECONNRESET`) of a caught error, when it has one. */
export function pgErrorCode(e: unknown): string | undefined {
  if (typeof e !== "object" || e === null || !("code" in e)) return undefined;
  const code = (e as { readonly code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

const LOST_CODES = new Set([
  "57P01",
  "57P02",
  "57P03",
  "ECONNRESET",
  "EPIPE",
  "ECONNABORTED",
  "ECONNREFUSED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
const LOST_MESSAGE =
  /connection terminated|terminating connection|connection error|not queryable|socket hang up|server closed the connection|Client was closed/i;
const TIMEOUT_MESSAGE = /timeout|timed out/i;

/**
 * Classifies a caught error (see {@link PgFailureKind}).
 *
 * @example classifyPgError({ code: "40P01", message: "deadlock detected" }) // "retryable"
 */
export function classifyPgError(e: unknown): PgFailureKind {
  const code = pgErrorCode(e);
  const message =
    e instanceof Error
      ? e.message
      : typeof e === "object" && e !== null && "message" in e
        ? String((e as { message: unknown }).message)
        : String(e);
  if (code === "40001" || code === "40P01") return "retryable";
  if (code === "57014" && /timeout/i.test(message)) return "timeout";
  if (code !== undefined && (LOST_CODES.has(code) || code.startsWith("08"))) return "connectionLost";
  if (TIMEOUT_MESSAGE.test(message) && code === undefined) return "timeout";
  if (LOST_MESSAGE.test(message)) return "connectionLost";
  return "other";
}

/** Timeouts of a pool created from a URL, in ms (0 turns one off). */
export interface PgTimeouts {
  /** Longest wait for a connection (TCP connect, startup, or a free pooled client). @default 10000 */
  readonly connectTimeoutMs: number;
  /** Longest run of one statement (server-side `statement_timeout`, and a client-side read timeout just above it). @default 30000 */
  readonly statementTimeoutMs: number;
}

/** Timeout options as given by a caller (each optional). */
export interface PgTimeoutOptions {
  /** See {@link PgTimeouts.connectTimeoutMs}. @default 10000 */
  readonly connectTimeoutMs?: number;
  /** See {@link PgTimeouts.statementTimeoutMs}. @default 30000 */
  readonly statementTimeoutMs?: number;
}

const MAX_TIMEOUT_MS = 2_147_483_647;

function timeoutValue(field: string, given: unknown): E.Either<string, number | undefined> {
  if (given === undefined) return E.right(undefined);
  return typeof given === "number" && Number.isInteger(given) && given >= 0 && given <= MAX_TIMEOUT_MS
    ? E.right(given)
    : E.left(
        `${field}: expected an integer number of ms in 0..${MAX_TIMEOUT_MS} (got ${typeof given === "number" ? String(given) : typeof given})`,
      );
}

/** `connect_timeout` (seconds) and `statement_timeout` (ms) from a connection URL, when present and valid. */
function urlTimeouts(connectionString: string): { connect?: number; statement?: number } {
  try {
    const params = new URL(connectionString).searchParams;
    const num = (v: string | null): number | undefined => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);
    const connect = num(params.get("connect_timeout"));
    const statement = num(params.get("statement_timeout"));
    return {
      ...(connect === undefined ? {} : { connect: connect * 1000 }),
      ...(statement === undefined ? {} : { statement }),
    };
  } catch {
    return {};
  }
}

/**
 * Decodes timeout options: integers in ms, 0 turns one off; NaN, negative, fractional and infinite
 * values are refused with the field named. Missing ones come from the URL (`connect_timeout` in
 * seconds, `statement_timeout` in ms), then from the defaults.
 *
 * @example resolvePgTimeouts({ connectTimeoutMs: 300 }, "postgres://db/x") // Right({ connectTimeoutMs: 300, statementTimeoutMs: 30000 })
 */
export function resolvePgTimeouts(
  options: PgTimeoutOptions,
  connectionString: string,
): E.Either<readonly string[], PgTimeouts> {
  const connect = timeoutValue("connectTimeoutMs", options.connectTimeoutMs);
  const statement = timeoutValue("statementTimeoutMs", options.statementTimeoutMs);
  const errors = [connect, statement].flatMap((r) => (E.isLeft(r) ? [r.left] : []));
  if (E.isLeft(connect) || E.isLeft(statement)) return E.left(errors);
  const fromUrl = urlTimeouts(connectionString);
  return E.right({
    connectTimeoutMs: connect.right ?? fromUrl.connect ?? DEFAULT_PG_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: statement.right ?? fromUrl.statement ?? DEFAULT_PG_STATEMENT_TIMEOUT_MS,
  });
}

/** The pool settings (for `new pg.Pool(...)`) that apply {@link PgTimeouts}. */
export function pgPoolTimeoutSettings(t: PgTimeouts): {
  readonly connectionTimeoutMillis: number;
  readonly statement_timeout?: number;
  readonly query_timeout?: number;
} {
  return {
    connectionTimeoutMillis: t.connectTimeoutMs,
    ...(t.statementTimeoutMs > 0
      ? { statement_timeout: t.statementTimeoutMs, query_timeout: t.statementTimeoutMs + 1000 }
      : {}),
  };
}

/** A pool that emits pg-pool's `'connect'` and `'remove'` events (a `pg.Pool` does). */
export interface PgPoolEvents {
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/** Anything with `on`/`removeListener` for events (a pg pool or client is one). */
interface Emitter {
  on(event: string, listener: (...args: never[]) => void): unknown;
  removeListener?(event: string, listener: (...args: never[]) => void): unknown;
}

const isEmitter = (u: unknown): u is Emitter =>
  typeof u === "object" && u !== null && typeof (u as { on?: unknown }).on === "function";

const ignore = (): void => undefined;

/** A pool created and owned by this library, and how to end it completely. */
export interface OwnedPgPool {
  readonly pool: PgPoolLike;
  /** The last connection error seen on an idle client, if any (the pool has already dropped that client). */
  readonly lastIdleError: () => Error | undefined;
  /**
   * Ends the pool and waits until every connection's socket is closed (pg's `end()` resolves
   * earlier), at most `waitMs`.
   */
  readonly end: (waitMs?: number) => Promise<void>;
}

/**
 * Wraps a pool this library just created: an `'error'` listener on the pool (an idle client that
 * loses its connection is dropped by the pool and reported here, never as an unhandled event), an
 * `'error'` listener on every client it opens, and an `end` that waits for the sockets to close.
 *
 * @example
 * import pg from "pg";
 * const owned = ownPgPool(new pg.Pool({ connectionString: "postgres://agent@db/journal", max: 4 }));
 */
export function ownPgPool(pool: PgPoolLike & PgPoolEvents): OwnedPgPool {
  let lastIdleError: Error | undefined;
  const live = new Set<unknown>();
  let drained: (() => void) | undefined;
  pool.on("error", (error: Error) => {
    lastIdleError = error;
  });
  pool.on("connect", (client: unknown) => {
    live.add(client);
    if (isEmitter(client)) client.on("error", ignore);
  });
  pool.on("remove", (client: unknown) => {
    live.delete(client);
    if (live.size === 0) drained?.();
  });
  return {
    pool,
    lastIdleError: () => lastIdleError,
    end: async (waitMs = 5000) => {
      await pool.end();
      if (live.size === 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        timer.unref?.();
        drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}

/**
 * Checks out a client with an `'error'` listener attached for as long as it is out (pg's pool
 * takes its own idle listener off on checkout: without one, a connection lost mid-transaction
 * raises an unhandled `'error'` event). `release(broken)` gives it back; a broken one is destroyed.
 */
export async function checkoutGuarded(
  pool: PgPoolLike,
): Promise<{ readonly client: PgPoolClientLike; readonly release: (broken: unknown) => void }> {
  const client = await pool.connect();
  let lost: unknown;
  const onError = (error: Error): void => {
    lost = error;
  };
  if (isEmitter(client)) client.on("error", onError);
  return {
    client,
    release: (broken: unknown) => {
      const destroy = broken ?? lost;
      client.release(
        destroy === undefined ? undefined : destroy instanceof Error ? destroy : new Error(String(destroy)),
      );
      if (isEmitter(client)) client.removeListener?.("error", onError);
    },
  };
}

/**
 * Runs `body` in one transaction on a guarded client (see {@link checkoutGuarded}): BEGIN, COMMIT,
 * ROLLBACK when `body` rejects. A transaction that fails with a serialization failure or a
 * deadlock is run again, up to `attempts` times in all, after a short random pause. A client
 * whose connection broke (or whose ROLLBACK failed) is destroyed, not returned to the pool.
 *
 * @example await pgTransaction(pool, async (c) => c.query("INSERT …"));
 */
export async function pgTransaction<A>(
  pool: PgPoolLike,
  body: (client: PgPoolClientLike) => Promise<A>,
  attempts: number = PG_TRANSACTION_ATTEMPTS,
): Promise<A> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transactionOnce(pool, body);
    } catch (e) {
      if (attempt >= attempts || classifyPgError(e) !== "retryable") throw e;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

async function transactionOnce<A>(pool: PgPoolLike, body: (client: PgPoolClientLike) => Promise<A>): Promise<A> {
  const { client, release } = await checkoutGuarded(pool);
  let broken: unknown;
  try {
    await client.query("BEGIN");
    const result = await body(client);
    await client.query("COMMIT");
    return result;
  } catch (e) {
    const kind = classifyPgError(e);
    if (kind === "connectionLost" || kind === "timeout") broken = e;
    else await client.query("ROLLBACK").catch((rollbackError: unknown) => (broken = rollbackError));
    throw e;
  } finally {
    release(broken);
  }
}
