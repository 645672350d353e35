/**
 * The PostgreSQL connection of the index: a pool adapted to `SqlClient`, the client made from
 * what the caller gave (a URL, a pool or a client), retries of whole operations, and a caught
 * error as a typed `IndexError`.
 *
 * @module search/postgres-client
 */
import * as E from "fp-ts/lib/Either.js";
import { createRequire } from "node:module";
import type * as pg from "pg";
import type * as TE from "fp-ts/lib/TaskEither.js";
import type { PgPoolLike } from "./optional-driver.js";
import {
  classifyPgError,
  ownPgPool,
  pgErrorCode,
  pgPoolTimeoutSettings,
  pgTransaction,
  PG_TRANSACTION_ATTEMPTS,
  type PgTimeouts,
} from "./pg-resilience.js";
import { isRecord } from "@cc/validate";
import { loadDriver, POSTGRES_DRIVER } from "./driver.js";
import type { IndexError } from "./contract.js";
import { messageOf } from "./contract.js";
import type { SqlClient, SqlRunner } from "./sql.js";
import { copyOut, isNodePgClient, withCopyOut } from "./pg-copy.js";

/**
 * Adapts a `pg.Pool` (or anything of its shape, see `PgPoolLike`) to {@link SqlClient}.
 * Every client checked out for a transaction has an `'error'` listener while it is out, and one
 * whose connection broke is destroyed rather than returned. When the checked-out clients are
 * node-postgres' own, a namespace's rows are read by binary `COPY … TO STDOUT` (fewer
 * short-lived objects); any other pool's are read with plain queries. The pool itself is yours: give it an
 * `'error'` listener (an idle connection that is lost raises `'error'` on the pool, and an event
 * nobody listens to ends the process).
 *
 * @example
 * import pg from "pg";
 * const pool = new pg.Pool({ connectionString: process.env["DATABASE_URL"] });
 * pool.on("error", (e) => console.warn("idle PostgreSQL connection lost", e.message));
 * const client = pgClient(pool);
 */
export function pgClient(pool: PgPoolLike): SqlClient {
  return {
    query: async <R>(text: string, params: readonly unknown[] = []) => {
      const r = await pool.query(text, [...params]);
      return { rows: r.rows as R[] };
    },
    // One attempt: the index retries whole operations (see `make`), for any SqlClient.
    transaction: <A>(fn: (tx: SqlRunner) => Promise<A>): Promise<A> =>
      pgTransaction(
        pool,
        (c) => {
          const tx: SqlRunner = {
            query: async <R>(text: string, params: readonly unknown[] = []) => ({
              rows: (await c.query(text, [...params])).rows as R[],
            }),
          };
          // A node-postgres client also reads a namespace's rows by binary COPY (see `search/pg-copy`).
          return fn(isNodePgClient(c) ? withCopyOut(tx, (text, onData) => copyOut(c, text, onData)) : tx);
        },
        1,
      ),
    end: () => pool.end(),
  };
}

const hasFunctions = (u: unknown, names: readonly string[]): boolean =>
  isRecord(u) && names.every((m) => typeof u[m] === "function");
/** A ready client: `query`, `transaction` and `end`. Checked first, so a client that also has `connect` stays a client. */
export const isSqlClient = (u: unknown): u is SqlClient => hasFunctions(u, ["query", "transaction", "end"]);
/** A pool (`PgPoolLike`): `query`, `connect`, `end` and `on`. */
export const isPgPoolLike = (u: unknown): u is PgPoolLike => hasFunctions(u, ["query", "connect", "end", "on"]);

/** A caught error as an `IndexError`: a lost connection, a timeout, or a storage error with its SQLSTATE. */
export function storageError(operation: string, e: unknown): IndexError {
  const code = pgErrorCode(e);
  const message = messageOf(e);
  switch (classifyPgError(e)) {
    case "connectionLost":
      return {
        _tag: "ConnectionLost",
        backend: "postgres",
        operation,
        ...(code === undefined ? {} : { code }),
        message,
      };
    case "timeout":
      return { _tag: "Timeout", backend: "postgres", operation, message };
    default:
      return { _tag: "StorageError", backend: "postgres", operation, message, ...(code === undefined ? {} : { code }) };
  }
}

const requireHere = createRequire(import.meta.url);

/**
 * Loads node-postgres. pg tells Cloudflare Workers from Node by `navigator.userAgent`; where there
 * is no `navigator` (Node 20) it constructs a fetch `Response` instead, which loads Node's whole
 * fetch implementation: about 23 ms, half of pg's load, paid by every fresh worker (measured on
 * Node 20.20: pg loaded in 45–58 ms, 24 ms with a `navigator`). Node 21 and later define
 * `navigator` ("Node.js/<major>"). On a Node without one, when `pg` resolves for this module (as
 * `import("pg")` would resolve it, loader hooks included), its CommonJS modules are first
 * evaluated synchronously with that same answer in place, taken back before anything else runs;
 * the `import("pg")` that follows finds them evaluated. A `navigator` the host defined is never
 * touched, and a pg that does not resolve fails in the `import` as before.
 */
async function importPg(): Promise<typeof pg> {
  if (!("navigator" in globalThis) && resolves("pg")) {
    Object.defineProperty(globalThis, "navigator", {
      value: { userAgent: `Node.js/${process.versions.node.split(".")[0] ?? ""}` },
      configurable: true,
      writable: true,
      enumerable: false,
    });
    try {
      requireHere("pg");
    } catch {
      // The import below reports what is wrong.
    } finally {
      Reflect.deleteProperty(globalThis, "navigator");
    }
  }
  return import("pg");
}

/** Whether `specifier` resolves from this module as an `import` would resolve it. */
function resolves(specifier: string): boolean {
  try {
    import.meta.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

/** How to get the client: a pool on pg (loaded now) for a URL, the caller's own pool adapted, or the caller's own client as it is. */
export function clientFactory(
  connection: string | PgPoolLike | SqlClient,
  timeouts: PgTimeouts,
): TE.TaskEither<IndexError, () => SqlClient> {
  if (typeof connection !== "string")
    return async () => E.right(() => (isSqlClient(connection) ? connection : pgClient(connection)));
  return async () => {
    const driver = await loadDriver("postgres", POSTGRES_DRIVER, importPg, (mod) =>
      typeof mod.default?.Pool === "function" ? mod.default.Pool : undefined,
    )();
    if (E.isLeft(driver)) return driver;
    const Pool = driver.right;
    return E.right(() => {
      // The pool and every client it opens get an 'error' listener; `end` waits for the sockets.
      const owned = ownPgPool(new Pool({ connectionString: connection, max: 4, ...pgPoolTimeoutSettings(timeouts) }));
      return { ...pgClient(owned.pool), end: () => owned.end() };
    });
  };
}

/**
 * Runs `fn` again when it fails with a deadlock or a serialization failure (up to
 * `PG_TRANSACTION_ATTEMPTS` in all: the server rolled the transaction back), and once more after a
 * lost connection when `idempotent` (the pool has dropped the broken connection by then).
 */
export async function withRetries<A>(fn: () => Promise<A>, idempotent: boolean): Promise<A> {
  let reconnected = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const kind = classifyPgError(e);
      if (kind === "retryable" && attempt < PG_TRANSACTION_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
        continue;
      }
      if (kind === "connectionLost" && idempotent && !reconnected) {
        reconnected = true;
        continue;
      }
      throw e;
    }
  }
}
