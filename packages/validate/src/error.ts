/**
 * The one error class of @cc: what every factory throws for bad options, and what every Promise
 * facade rejects with, carrying the typed failure `{ _tag, subject, problems }`.
 *
 * @module error
 */
import type { Problem } from "./problem.js";

/**
 * The shape every typed failure of @cc shares: a PascalCase `_tag`, what was checked or attempted
 * (`subject`), the problems found, and (when it has one) a readable line and the original cause.
 */
export interface Failure {
  readonly _tag: string;
  readonly subject: string;
  readonly problems: readonly (Problem | string)[];
  readonly message?: string;
  readonly cause?: unknown;
}

/**
 * The one error class of @cc. `createX` with bad options throws it (a programming error, reported
 * at once; `decodeX` returns the same failure as a `Left`), and the Promise facades of the adapters
 * and the manager reject with it. Its `_tag`, `subject` and `problems` are the typed failure's, the
 * whole failure is in `error` and a failed dependency's original error is the standard `cause`.
 *
 * @example
 * try { createContextManager({ maxTokns: 8000 } as never); }
 * catch (e) { if (e instanceof CcError && e._tag === "InvalidOptions") console.error(e.subject, e.problems); }
 */
export class CcError extends Error {
  /** The failure's tag, e.g. "InvalidOptions", "IndexWriteFailed", "Aborted". */
  readonly _tag: string;
  /** What was checked or attempted, e.g. "manager options". */
  readonly subject: string;
  /** Every problem found (a path and a message, or a line). */
  readonly problems: readonly (Problem | string)[];
  /** The whole typed failure. */
  readonly error: Failure;
  constructor(error: Failure) {
    super(
      error.message ??
        (error._tag === "Aborted" ? `the ${error.subject} was aborted` : `${error.subject}: ${error._tag}`),
      "cause" in error ? { cause: error.cause } : undefined,
    );
    this.name = "CcError";
    this._tag = error._tag;
    this.subject = error.subject;
    this.problems = error.problems;
    this.error = error;
  }
}

/**
 * The {@link CcError} constructor typed for one failure union `F`: `instanceof` narrows `error` to
 * `F`. What the deprecated per-package class names are.
 *
 * @example
 * type Boom = { readonly _tag: "Boom"; readonly subject: string; readonly problems: readonly string[] };
 * const BoomError = CcError as unknown as CcErrorOf<Boom>;
 * try { throw new BoomError({ _tag: "Boom", subject: "demo", problems: [] }); } catch (e) { if (e instanceof BoomError) console.log(e.error._tag); }
 */
export type CcErrorOf<F extends Failure> = new (
  error: F,
) => Omit<CcError, "error" | "problems"> & { readonly error: F; readonly problems: F["problems"] };
