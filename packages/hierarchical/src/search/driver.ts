/**
 * The database drivers of the persistent indexes (better-sqlite3, pg) are loaded with a dynamic
 * `import()` when an index is opened, never when `@cc/hierarchical` is imported: a caller that
 * only uses {@link memoryIndex} or `hierarchicalCompact` with its own writer loads no native
 * module and no network client, and works where no native build of better-sqlite3 exists.
 *
 * Same approach as the session stores of `@cc/lcm`, which keeps its loader internal; this small
 * copy speaks `IndexError` instead of `StoreError`.
 *
 * @module search/driver
 */
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import type { IndexBackend, IndexError } from "./index.js";
import { messageOf } from "./index.js";

/** A database driver package a persistent index needs, with the version this library is tested with. */
export interface DriverPackage {
  readonly name: "better-sqlite3" | "pg";
  readonly testedVersion: string;
}

/** better-sqlite3 (tested with 12.11.1: 13.x crashes on Node 20). */
export const SQLITE_DRIVER: DriverPackage = { name: "better-sqlite3", testedVersion: "12.11.1" };

/** pg (node-postgres). */
export const POSTGRES_DRIVER: DriverPackage = { name: "pg", testedVersion: "8.23.1" };

/**
 * The `IndexUnavailable` of a driver that could not be loaded: names the package and how to install it.
 *
 * @example
 * driverUnavailable("sqlite", SQLITE_DRIVER, new Error("Cannot find package"));
 * // { _tag: "IndexUnavailable", backend: "sqlite", missingPackage: "better-sqlite3", message: "… npm install better-sqlite3@12.11.1 …" }
 */
export function driverUnavailable(backend: IndexBackend, driver: DriverPackage, cause: unknown): IndexError {
  return {
    _tag: "IndexUnavailable",
    backend,
    missingPackage: driver.name,
    message: `the ${backend} index needs the package "${driver.name}", which could not be loaded; install it with \`npm install ${driver.name}@${driver.testedVersion}\` (${messageOf(cause)})`,
  };
}

/**
 * Runs `load` (a dynamic `import()` of the driver) and checks the module with `pick`, which
 * returns the part the index uses or `undefined` when the module does not have it. A failed
 * import or a module of the wrong shape is an `IndexUnavailable` naming the package; never a throw.
 *
 * @example
 * loadDriver("sqlite", SQLITE_DRIVER, () => import("better-sqlite3"), (m) => m.default);
 */
export function loadDriver<M, A>(
  backend: IndexBackend,
  driver: DriverPackage,
  load: () => Promise<M>,
  pick: (mod: M) => A | undefined,
): TaskEither<IndexError, A> {
  return async () => {
    let mod: M;
    try {
      mod = await load();
    } catch (e: unknown) {
      return E.left(driverUnavailable(backend, driver, e));
    }
    let picked: A | undefined;
    try {
      picked = pick(mod);
    } catch (e: unknown) {
      return E.left(driverUnavailable(backend, driver, e));
    }
    return picked === undefined
      ? E.left(driverUnavailable(backend, driver, new Error(`"${driver.name}" has an unexpected shape (an incompatible version?)`)))
      : E.right(picked);
  };
}
