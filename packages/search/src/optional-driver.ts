/**
 * Optional database drivers (better-sqlite3, pg), loaded with a dynamic `import()` only when a
 * persistent store or index is opened — never when a package is imported. Shared by the segment
 * indexes here and the summary stores of `@cc/session`; each maps a load failure to its own
 * typed error.
 *
 * @module optional-driver
 */
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";

/** A driver package, with the version this library is tested with. */
export interface DriverPackage {
  readonly name: "better-sqlite3" | "pg";
  readonly testedVersion: string;
}

/** better-sqlite3 (tested with 12.11.1: 13.x crashes on Node 20). */
export const SQLITE_DRIVER: DriverPackage = { name: "better-sqlite3", testedVersion: "12.11.1" };

/** pg (node-postgres). */
export const POSTGRES_DRIVER: DriverPackage = { name: "pg", testedVersion: "8.23.1" };

/** Why a driver could not be loaded: the package and the cause's message. */
export interface DriverLoadFailure {
  readonly driver: DriverPackage;
  readonly reason: string;
}

/** The command that installs `driver`, e.g. `npm install better-sqlite3@12.11.1`. */
export const installCommand = (driver: DriverPackage): string => `npm install ${driver.name}@${driver.testedVersion}`;

const reasonOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause));

/**
 * Runs `load` (a dynamic `import()` of the driver) and checks the module with `pick`, which
 * returns the part the caller uses or `undefined` when the module does not have it. A failed
 * import, a throwing `pick` or a module of the wrong shape is a `Left`; never a throw.
 *
 * @example
 * loadOptionalDriver(SQLITE_DRIVER, () => import("better-sqlite3"), (m) => m.default);
 */
export function loadOptionalDriver<M, A>(
  driver: DriverPackage,
  load: () => Promise<M>,
  pick: (mod: M) => A | undefined,
): TaskEither<DriverLoadFailure, A> {
  return async () => {
    try {
      const picked = pick(await load());
      return picked === undefined
        ? E.left({ driver, reason: `"${driver.name}" has an unexpected shape (an incompatible version?)` })
        : E.right(picked);
    } catch (e: unknown) {
      return E.left({ driver, reason: reasonOf(e) });
    }
  };
}

/**
 * The rows of one statement, as node-postgres returns them. Only `rows` is read; the row type is
 * what the statement's columns are known to be (the caller's decoders still check each row).
 */
export interface PgResultLike<R> {
  readonly rows: R[];
}

/** Something that runs one parameterised statement: a pg pool or a pooled client. */
export interface PgQueryable {
  query<R>(text: string, values?: unknown[]): Promise<PgResultLike<R>>;
}

/**
 * A connection checked out of a {@link PgPoolLike}; `release()` returns it to the pool, and
 * `release(error)` destroys it (a connection that broke). When it is an event emitter (a pg
 * client is), the library listens for its `'error'` events while it is checked out.
 */
export interface PgPoolClientLike extends PgQueryable {
  release(destroy?: Error | boolean): void;
}

/**
 * The part of a node-postgres `Pool` this library uses, as a structural type, so the published
 * declarations do not need the `pg` types: a real `pg.Pool` is assignable to it, and so is any
 * pool-shaped object (a wrapper, a test double over a real server).
 *
 * @example
 * import pg from "pg"; // node-postgres
 * const pool: PgPoolLike = new pg.Pool({ connectionString: process.env["DATABASE_URL"] });
 */
export interface PgPoolLike extends PgQueryable {
  /** Checks out one connection (for a transaction). */
  connect(): Promise<PgPoolClientLike>;
  /** Closes every connection. */
  end(): Promise<void>;
  /**
   * Listens for idle-client errors. A pool without an `'error'` listener crashes the process when
   * an idle connection is lost (server restart, `pg_terminate_backend`): attach one to a pool you
   * pass in, e.g. `pool.on("error", (e) => log(e))`.
   */
  on(event: "error", listener: (error: Error) => void): unknown;
}
