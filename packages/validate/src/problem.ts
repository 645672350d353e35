/**
 * Readable validation problems: every message names the path (index and field) of the bad value.
 *
 * @module problem
 */
import type * as t from "io-ts";

/** One thing wrong with an input, located by `path` such as `[3].tokenCost`. */
export interface Problem {
  /** Location of the value: `[index].field`, `field`, or "" for the root. */
  readonly path: string;
  /** Index in the input array, when the input is an array. */
  readonly index?: number;
  /** Name of the offending field, when the problem is inside an object. */
  readonly field?: string;
  /** Human-readable message that starts with the path. */
  readonly message: string;
}

/** Renders a context path: numeric keys as `[i]`, other keys as `.key`; the root key is dropped. */
export function pathOf(context: t.Context): string {
  let path = "";
  for (let k = 1; k < context.length; k++) {
    const key = context[k]!.key;
    if (key === "") continue;
    path += /^\d+$/.test(key) ? `[${key}]` : path === "" ? key : `.${key}`;
  }
  return path;
}

/** A short, safe rendering of an offending value for a message. */
export function describeValue(u: unknown): string {
  if (u === null) return "null";
  if (u === undefined) return "undefined";
  if (typeof u === "number") return Object.is(u, -0) ? "-0" : String(u);
  if (typeof u === "string") {
    const shown = u.length > 40 ? `${u.slice(0, 40)}…` : u;
    return JSON.stringify(shown);
  }
  if (Array.isArray(u)) return "an array";
  if (typeof u === "function") return "a function";
  return typeof u === "object" ? "an object" : typeof u;
}

/** The message a leaf codec attaches: "`path`: expected …, got …". */
export function expectation(context: t.Context, expected: string, u: unknown): string {
  const path = pathOf(context);
  return `${path === "" ? "value" : path}: expected ${expected}, got ${describeValue(u)}`;
}

/** At most this many problems are kept per validation; the rest are counted (validation stays small on huge inputs). */
export const MAX_PROBLEMS = 100;

/** Converts io-ts errors into {@link Problem}s (deduplicated by message, in input order, at most `max`). */
export function problemsOf(errors: t.Errors, max: number = MAX_PROBLEMS): readonly Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const e of errors) {
    if (out.length >= max) break;
    const path = pathOf(e.context);
    const message =
      e.message ?? expectation(e.context, e.context[e.context.length - 1]?.type.name ?? "a valid value", e.value);
    if (seen.has(message)) continue;
    seen.add(message);
    const index = /^\[(\d+)\]/.exec(path)?.[1];
    const field = /(?:^|\.)([^.[\]]+)$/.exec(path)?.[1];
    out.push({
      path,
      message,
      ...(index === undefined ? {} : { index: Number(index) }),
      ...(field === undefined ? {} : { field }),
    });
  }
  // Report in input order: problems of lower indices first (stable within an index).
  return out.sort((a, b) => (a.index ?? -1) - (b.index ?? -1));
}
