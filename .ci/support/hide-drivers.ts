// For driver-loading probes run in a fresh Node process: a resolve hook that makes better-sqlite3
// and pg unresolvable, as on a machine where they are not installed.
import { register } from "node:module";

/** Registers the hook; every later import of better-sqlite3 or pg fails with ERR_MODULE_NOT_FOUND. */
export function hideDrivers(): void {
  const hook = `export async function resolve(specifier, context, next) {
    if (/^(better-sqlite3|pg)(\\/|$)/.test(specifier)) {
      const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
      error.code = "ERR_MODULE_NOT_FOUND";
      throw error;
    }
    return next(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}
