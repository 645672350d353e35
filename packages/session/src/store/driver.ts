/**
 * The database drivers of the persistent stores (better-sqlite3, pg) are loaded with a dynamic
 * `import()` when a store is opened, never when `@cc/lcm` is imported: a caller that only uses
 * the in-memory compactor or {@link memoryStore} loads no native module and no network client,
 * and works where no native build of better-sqlite3 exists. The loading itself is `../../driver.ts`.
 *
 * @module session/store/driver
 */
import { pipe } from "fp-ts/lib/function.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { installCommand } from "@cc/search/internal";
import { loadOptionalDriver, type DriverPackage } from "@cc/search";
import type { StoreBackend, StoreError } from "./store.js";

export { POSTGRES_DRIVER, SQLITE_DRIVER, type DriverPackage } from "@cc/search";

/** The `StoreUnavailable` of a driver that could not be loaded: names the package and how to install it. */
export function driverUnavailable(backend: StoreBackend, driver: DriverPackage, cause: unknown): StoreError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return {
    _tag: "StoreUnavailable",
    backend,
    missingPackage: driver.name,
    message: `the ${backend} store needs the package "${driver.name}", which could not be loaded; install it with \`${installCommand(driver)}\` (${reason})`,
  };
}

/**
 * Loads a store's driver (see `loadOptionalDriver`); a failure is a `StoreUnavailable` naming the
 * package, never a throw.
 *
 * @example
 * loadDriver("sqlite", SQLITE_DRIVER, () => import("better-sqlite3"), (m) => m.default);
 */
export function loadDriver<M, A>(
  backend: StoreBackend,
  driver: DriverPackage,
  load: () => Promise<M>,
  pick: (mod: M) => A | undefined,
): TE.TaskEither<StoreError, A> {
  return pipe(
    loadOptionalDriver(driver, load, pick),
    TE.mapLeft((f) => driverUnavailable(backend, f.driver, f.reason)),
  );
}
