/**
 * Optional database drivers (better-sqlite3, pg), loaded with a dynamic `import()` only when a
 * persistent store or index is opened — never when a package is imported. Shared by the summary
 * stores here and the segment indexes of `@cc/hierarchical`; each maps a load failure to its own
 * typed error.
 *
 * @module driver
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
