/**
 * The one failure shape of every validation in @cc: `{ _tag, subject, problems, message }`.
 * `InvalidOptions` for configuration, `InvalidInput` for data (segments, messages, entries).
 *
 * @module decode
 */
import * as E from "fp-ts/lib/Either.js";
import type * as t from "io-ts";
import { CcError, type CcErrorOf } from "./error.js";
import { MAX_PROBLEMS, problemsOf, type Problem } from "./problem.js";

/** The tag of a validation failure: configuration or data. */
export type InvalidTag = "InvalidOptions" | "InvalidInput";

/**
 * A validation failure: what was checked (`subject`, e.g. "compact options", "messages"), every
 * problem found (at most {@link MAX_PROBLEMS}, each naming its path), how many more were not
 * listed, and one readable line.
 */
export interface Invalid<Tag extends InvalidTag = InvalidTag> {
  readonly _tag: Tag;
  readonly subject: string;
  readonly problems: readonly Problem[];
  /** Problems found beyond those listed (0 when all are listed). */
  readonly more: number;
  /** `invalid <subject>: <problem>; <problem>…`. */
  readonly message: string;
}

/** A failure of configuration. */
export type InvalidOptions = Invalid<"InvalidOptions">;
/** A failure of data. */
export type InvalidInput = Invalid<"InvalidInput">;

/**
 * Builds an {@link Invalid} from problem messages (for checks that are not codecs).
 *
 * @example invalid("InvalidOptions", "provider options", ["maxRetries: expected an integer in [0, 20], got NaN"])
 */
export function invalid<Tag extends InvalidTag>(
  tag: Tag,
  subject: string,
  problems: readonly (string | Problem)[],
  more = 0,
): Invalid<Tag> {
  const listed = problems
    .slice(0, MAX_PROBLEMS)
    .map((p): Problem => (typeof p === "string" ? { path: "", message: p } : p));
  const extra = more + Math.max(0, problems.length - MAX_PROBLEMS);
  const tail = extra > 0 ? `; … and ${extra} more` : "";
  return {
    _tag: tag,
    subject,
    problems: listed,
    more: extra,
    message: `invalid ${subject}: ${listed.map((p) => p.message).join("; ")}${tail}`,
  };
}

/**
 * Decodes `input` with `codec`; a failure is an {@link Invalid} of `tag` about `subject`. A codec
 * that throws (a getter that throws, a proxy) is a failure too, never a throw.
 *
 * @example
 * const CompactOptionsCodec = objectCodec("CompactOptions", {}, { maxTokens: positiveInt });
 * decodeWith(CompactOptionsCodec, "InvalidOptions", "compact options")({ maxTokns: 5 })
 * // left({ _tag: "InvalidOptions", subject: "compact options", problems: [{ path: "maxTokns", message: "maxTokns: unknown field (did you mean maxTokens?)" }], … })
 */
export function decodeWith<A, Tag extends InvalidTag>(
  codec: t.Decoder<unknown, A>,
  tag: Tag,
  subject: string,
): (input: unknown) => E.Either<Invalid<Tag>, A> {
  return (input) => {
    let r: t.Validation<A>;
    try {
      r = codec.decode(input);
    } catch (e) {
      return E.left(
        invalid(tag, subject, [`value: could not be read (${e instanceof Error ? e.message : String(e)})`]),
      );
    }
    if (E.isRight(r)) return E.right(r.right);
    const problems = problemsOf(r.left);
    return E.left(
      invalid(tag, subject, problems, Math.max(0, new Set(r.left.map((e) => e.message)).size - problems.length)),
    );
  };
}

/**
 * Thrown by a factory that returns a plain object (not an `Either`) when its options are invalid.
 *
 * @deprecated Use {@link CcError} (the one error class of @cc; this name is the same class) — kept one release.
 * @example
 * try { offlineProvider({ defaultMaxTokns: 500 } as never); }
 * catch (e) { if (e instanceof InvalidOptionsError) console.error(e.error.problems[0]?.path); } // "defaultMaxTokns"
 */
export const InvalidOptionsError = CcError as unknown as CcErrorOf<InvalidOptions>;
/** @deprecated Use {@link CcError}. */
export type InvalidOptionsError = InstanceType<typeof InvalidOptionsError>;

/**
 * Decodes `input` with `decode`, returning the value or throwing a {@link CcError}
 * (for factories that return a plain object).
 *
 * @example const options = decodeOrThrow(decodeWith(objectCodec("MyOptions", {}, { maxRetries: intIn(0, 20) }), "InvalidOptions", "my options"), { maxRetries: 3 });
 */
export function decodeOrThrow<A>(decode: (input: unknown) => E.Either<InvalidOptions, A>, input: unknown): A {
  const r = decode(input);
  if (E.isLeft(r)) throw new CcError(r.left);
  return r.right;
}
