/**
 * Turns io-ts validation errors into messages a person can act on: the path of the field at
 * fault (with array indexes), what was expected and what was given.
 *
 * @module session/report
 */
import type * as t from "io-ts";

const show = (value: unknown): string => {
  if (value === undefined) return "nothing";
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return Array.isArray(value) ? "an array" : typeof value;
};

const tagOf = (type: t.Decoder<unknown, unknown>): string | undefined => (type as { readonly _tag?: string })._tag;

const arrayTags = new Set(["ArrayType", "ReadonlyArrayType"]);
const fieldTags = new Set(["InterfaceType", "PartialType", "ExactType", "StrictType", "DictionaryType"]);

/** The dotted path of one error (`messages[3].content`), rooted at `root`. */
export function errorPath(error: t.ValidationError, root: string): string {
  let path = root;
  const ctx = error.context;
  for (let i = 1; i < ctx.length; i++) {
    const parentTag = tagOf(ctx[i - 1]!.type);
    const key = ctx[i]!.key;
    if (parentTag !== undefined && arrayTags.has(parentTag)) path += `[${key}]`;
    else if (parentTag !== undefined && fieldTags.has(parentTag)) path += `.${key}`;
  }
  return path;
}

/** One line per distinct failing path, e.g. `messages[2].content: expected string, got 42`. */
export function describeErrors(errors: t.Errors, root: string): string {
  const lines = new Map<string, string>();
  for (const error of errors) {
    const path = errorPath(error, root);
    if (lines.has(path)) continue;
    const last = error.context[error.context.length - 1];
    const expected = error.message ?? `expected ${last?.type.name ?? "a valid value"}`;
    lines.set(path, `${path}: ${expected}, got ${show(error.value)}`);
  }
  return [...lines.values()].join("; ");
}
