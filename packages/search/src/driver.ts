/**
 * The database drivers of the persistent indexes (better-sqlite3, pg) are loaded with a dynamic
 * `import()` when an index is opened, never when `@cc/search` (or `@cc/hierarchical`) is
 * imported: a caller that only uses {@link memoryIndex} or `hierarchicalCompact` with its own writer loads no native
 * module and no network client. The loading itself is `loadOptionalDriver` (`optional-driver`); this
 * module speaks `IndexError`.
 *
 * @module search/driver
 */
import { installCommand, loadOptionalDriver, type DriverPackage } from "./optional-driver.js";
import { pipe } from "fp-ts/lib/function.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import type { IndexBackend, IndexError } from "./contract.js";
import { messageOf } from "./contract.js";

export { POSTGRES_DRIVER, SQLITE_DRIVER, type DriverPackage } from "./optional-driver.js";

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
    message: `the ${backend} index needs the package "${driver.name}", which could not be loaded; install it with \`${installCommand(driver)}\` (${messageOf(cause)})`,
  };
}

/**
 * Loads an index's driver; a failed import or a module of the wrong shape is an
 * `IndexUnavailable` naming the package, never a throw.
 *
 * @example
 * loadDriver("sqlite", SQLITE_DRIVER, () => import("better-sqlite3"), (m) => m.default);
 */
export function loadDriver<M, A>(
  backend: IndexBackend,
  driver: DriverPackage,
  load: () => Promise<M>,
  pick: (mod: M) => A | undefined,
): TE.TaskEither<IndexError, A> {
  return pipe(
    loadOptionalDriver(driver, load, pick),
    TE.mapLeft((f) => driverUnavailable(backend, f.driver, f.reason)),
  );
}
