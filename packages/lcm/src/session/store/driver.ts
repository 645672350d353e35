/**
 * The database drivers of the persistent stores (better-sqlite3, pg) are loaded with a dynamic
 * `import()` when a store is opened, never when `@cc/lcm` is imported: a caller that only uses
 * the in-memory compactor or {@link memoryStore} loads no native module and no network client,
 * and works where no native build of better-sqlite3 exists.
 *
 * @module session/store/driver
 */
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import type { StoreBackend, StoreError } from "./store.js";

/** A database driver package a persistent store needs, with the version this library is tested with. */
export interface DriverPackage {
  readonly name: "better-sqlite3" | "pg";
  readonly testedVersion: string;
}

/** better-sqlite3 (tested with 12.11.1: 13.x crashes on Node 20). */
export const SQLITE_DRIVER: DriverPackage = { name: "better-sqlite3", testedVersion: "12.11.1" };

/** pg (node-postgres). */
export const POSTGRES_DRIVER: DriverPackage = { name: "pg", testedVersion: "8.23.1" };

/** The `StoreUnavailable` of a driver that could not be loaded: names the package and how to install it. */
export function driverUnavailable(backend: StoreBackend, driver: DriverPackage, cause: unknown): StoreError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return {
    _tag: "StoreUnavailable",
    backend,
    missingPackage: driver.name,
    message: `the ${backend} store needs the package "${driver.name}", which could not be loaded; install it with \`npm install ${driver.name}@${driver.testedVersion}\` (${reason})`,
  };
}

/**
 * Runs `load` (a dynamic `import()` of the driver) and checks the module with `pick`, which
 * returns the part the store uses or `undefined` when the module does not have it. A failed
 * import or a module of the wrong shape is a `StoreUnavailable` naming the package; never a throw.
 *
 * @example
 * loadDriver("sqlite", SQLITE_DRIVER, () => import("better-sqlite3"), (m) => m.default);
 */
export function loadDriver<M, A>(
  backend: StoreBackend,
  driver: DriverPackage,
  load: () => Promise<M>,
  pick: (mod: M) => A | undefined,
): TaskEither<StoreError, A> {
  return async () => {
    let mod: M;
    try {
      mod = await load();
    } catch (e: unknown) {
      return E.left(driverUnavailable(backend, driver, e));
    }
    const picked = pick(mod);
    return picked === undefined
      ? E.left(driverUnavailable(backend, driver, new Error(`"${driver.name}" has an unexpected shape (an incompatible version?)`)))
      : E.right(picked);
  };
}
