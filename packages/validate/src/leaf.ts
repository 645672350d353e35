/**
 * Leaf codecs whose failures carry a message naming the path of the bad value, and the numeric
 * leaves every options codec of @cc uses (finite, in range, integer).
 *
 * @module leaf
 */
import * as t from "io-ts";
import { expectation } from "./problem.js";

/**
 * A codec of the values that pass `accept`, failing with "`path`: expected `expected`, got …".
 *
 * @example const Even = leaf("Even", "an even number", (u): u is number => typeof u === "number" && u % 2 === 0);
 */
export function leaf<A>(name: string, expected: string, accept: (u: unknown) => u is A): t.Type<A, A, unknown> {
  return new t.Type<A, A, unknown>(
    name,
    accept,
    (u, c) => (accept(u) ? t.success(u) : t.failure(u, c, expectation(c, expected, u))),
    t.identity,
  );
}

/**
 * An integer in `[min, max]` (both finite; NaN and ±Infinity never pass).
 *
 * @example intIn(0, 20).decode(Number.NaN) // failure: "expected an integer in [0, 20], got NaN"
 */
export function intIn(min: number, max: number): t.Type<number, number, unknown> {
  return leaf(
    `Int[${min},${max}]`,
    `an integer in [${min}, ${max}]`,
    (u): u is number => typeof u === "number" && Number.isInteger(u) && u >= min && u <= max,
  );
}

/**
 * A finite number in `[min, max]` (NaN and ±Infinity never pass).
 *
 * @example numberIn(0, 1).decode(1.5) // failure: "expected a finite number in [0, 1], got 1.5"
 */
export function numberIn(min: number, max: number): t.Type<number, number, unknown> {
  return leaf(
    `Number[${min},${max}]`,
    `a finite number in [${min}, ${max}]`,
    (u): u is number => typeof u === "number" && Number.isFinite(u) && u >= min && u <= max,
  );
}

/** A finite number. */
export const finite = leaf(
  "Finite",
  "a finite number",
  (u): u is number => typeof u === "number" && Number.isFinite(u),
);

/** An integer ≥ 1 (at most 2^53 − 1). */
export const positiveInt = leaf(
  "PositiveInt",
  "a positive integer",
  (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 1,
);

/** An integer ≥ 0 (at most 2^53 − 1). */
export const nonNegativeInt = leaf(
  "NonNegativeInt",
  "a non-negative integer",
  (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0,
);

/** A non-empty string. */
export const nonEmptyString = leaf(
  "NonEmptyString",
  "a non-empty string",
  (u): u is string => typeof u === "string" && u.length > 0,
);

/** A function (callbacks such as a clock or an estimator). */
export const fn = leaf("Function", "a function", (u): u is (...args: never[]) => unknown => typeof u === "function");

/**
 * A function, typed as the callback `F` it stands for (a signature cannot be checked at run
 * time, so the type says what the option promises and the check says it can be called).
 *
 * @example
 * const clock = callback<() => number>();
 * clock.decode(Date.now) // success
 * clock.decode(42)       // failure: "expected a function, got 42"
 */
export function callback<F extends (...args: never[]) => unknown>(
  name = "Function",
  expected = "a function",
): t.Type<F, F, unknown> {
  return leaf(name, expected, (u): u is F => typeof u === "function");
}

/**
 * An object with every method in `methods`, typed as the interface `A` it stands for (methods
 * are all a value can be checked for at run time).
 *
 * @example
 * const Counter = withMethods<{ count(text: string): number }>("TokenCounter", ["count"]);
 * Counter.decode({ count: (s: string) => s.length }) // success
 * Counter.decode({})                                 // failure: "expected an object with count, got an object"
 */
export function withMethods<A>(
  name: string,
  methods: readonly string[],
  expected = `an object with ${methods.join(", ")}`,
): t.Type<A, A, unknown> {
  return leaf(
    name,
    expected,
    (u): u is A =>
      typeof u === "object" &&
      u !== null &&
      methods.every((m) => typeof (u as Record<string, unknown>)[m] === "function"),
  );
}
