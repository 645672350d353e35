// The construction rule, checked the same way in every package: a factory given bad options
// throws the one CcError of @cc/validate, carrying `{ _tag: "InvalidOptions", subject, problems }`.
import { expect } from "vitest";

/** What the helper reads of `CcError` (passed in: `.ci` does not resolve the workspace packages). */
interface CcErrorLike {
  readonly name: string;
  readonly message: string;
  readonly _tag: string;
  readonly subject: string;
  readonly problems: readonly (string | { readonly path: string })[];
  readonly error: unknown;
}

/**
 * Asserts that `make` throws a `CcError` (the class, given as `cls`) tagged "InvalidOptions" about `subject` whose problems
 * name `path`, with a message naming it too.
 *
 * @example expectInvalidOptions(CcError, () => createContextManager({ maxTokns: 1 } as never), "manager options", "maxTokns")
 */
export function expectInvalidOptions(
  cls: abstract new (error: never) => CcErrorLike,
  make: () => unknown,
  subject: string,
  path: string,
): void {
  let thrown: unknown;
  try {
    make();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(cls);
  if (!(thrown instanceof cls)) return;
  expect({ name: thrown.name, _tag: thrown._tag, subject: thrown.subject }).toEqual({
    name: "CcError",
    _tag: "InvalidOptions",
    subject,
  });
  expect(thrown.problems.map((p) => (typeof p === "string" ? p : p.path))).toContain(path);
  expect(thrown.message).toContain(path);
  expect(thrown.error).toMatchObject({ _tag: "InvalidOptions", subject });
}
