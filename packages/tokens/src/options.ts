/**
 * io-ts codecs for the options that arrive from configuration, with messages that name the field.
 *
 * @module options
 */
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import * as t from "io-ts";

interface PositiveIntBrand {
  readonly PositiveInt: unique symbol;
}

/** A finite integer ≥ 1 (rejects NaN, ±Infinity, 0, negatives and fractions). */
export const PositiveInt = t.brand(
  t.number,
  (n): n is t.Branded<number, PositiveIntBrand> => Number.isSafeInteger(n) && n >= 1,
  "PositiveInt",
);

/** Options of `memoCounter`, as a codec. */
export const MemoOptionsCodec = t.exact(
  t.partial({
    maxEntries: PositiveInt,
    maxBytes: PositiveInt,
  }),
);

/** Options rejected by a codec: one message per problem, each naming the field and the value. */
export interface InvalidOptions {
  readonly _tag: "InvalidOptions";
  readonly errors: readonly string[];
}

function describe(errors: t.Errors): readonly string[] {
  return errors.map((e) => {
    // An intersection adds its member index to the path; it names no field, so drop it.
    const path = e.context
      .filter((c, j) => c.key !== "" && !(e.context[j - 1]?.type instanceof t.IntersectionType))
      .map((c) => c.key)
      .join(".");
    const expected = e.context[e.context.length - 1]?.type.name ?? "value";
    return `${path === "" ? "options" : path}: expected ${expected}, got ${String(e.value)}`;
  });
}

/** Decodes `input` with `codec`, mapping failures to {@link InvalidOptions}. */
export function decodeOptions<A, O>(codec: t.Type<A, O, unknown>, input: unknown): E.Either<InvalidOptions, A> {
  return pipe(
    codec.decode(input),
    E.mapLeft((errors) => ({ _tag: "InvalidOptions" as const, errors: describe(errors) })),
  );
}
