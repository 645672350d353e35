/**
 * Configuration of a history strategy, validated at the boundary with io-ts.
 *
 * @module compat/config
 */
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { invalid, type InvalidOptions } from "@cc/validate";
import { STRATEGY_NAMES } from "../strategy.js";

/** A refinement codec: values that pass `test`, else a failure saying `expected`. */
function refined<A>(name: string, test: (u: unknown) => u is A, expected: string): t.Type<A, A, unknown> {
  return new t.Type<A, A, unknown>(
    name,
    test,
    (u, c) => (test(u) ? t.success(u) : t.failure(u, c, expected)),
    t.identity,
  );
}

const nonNegativeInt = refined(
  "NonNegativeInteger",
  (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0,
  "expected a non-negative integer",
);
const concurrency = refined(
  "Concurrency",
  (u): u is number => typeof u === "number" && Number.isInteger(u) && u >= 1 && u <= 256,
  "expected an integer in 1..256",
);
const nonEmpty = refined(
  "NonEmptyString",
  (u): u is string => typeof u === "string" && u.length > 0,
  "expected a non-empty string",
);

/** `lcm`: summarise the older prefix by escalation (detailed → bullets → truncation). */
export const LcmStrategyConfigCodec = t.intersection([
  t.type({ strategy: t.literal("lcm") }),
  t.partial({ preserveLast: nonNegativeInt, compactionModel: t.string }),
]);

/** `hierarchical`: evict the lowest-importance message units into a searchable index. */
export const HierarchicalStrategyConfigCodec = t.intersection([
  t.type({ strategy: t.literal("hierarchical") }),
  t.partial({ preserveLast: nonNegativeInt, namespace: nonEmpty, noteTokens: nonNegativeInt, concurrency }),
]);

/** io-ts codec of {@link StrategyConfig}. */
export const StrategyConfigCodec = t.union([LcmStrategyConfigCodec, HierarchicalStrategyConfigCodec], "StrategyConfig");

/** Which strategy to build and how (missing fields take the documented defaults). */
export type StrategyConfig = t.TypeOf<typeof StrategyConfigCodec>;

/** The configuration was rejected; each problem names its field. */
export type InvalidStrategyConfig = InvalidOptions;

function show(u: unknown): string {
  try {
    return typeof u === "number" ? String(u) : (JSON.stringify(u) ?? String(u));
  } catch {
    return typeof u;
  }
}

/**
 * Validates raw configuration (e.g. parsed JSON or YAML).
 *
 * @example decodeStrategyConfig({ strategy: "hierarchical", preserveLast: -1 })
 * // left({ _tag: "InvalidOptions", subject: "strategy config", problems: [{ message: "preserveLast: expected a non-negative integer, got -1" }], … })
 */
export function decodeStrategyConfig(input: unknown): E.Either<InvalidStrategyConfig, StrategyConfig> {
  const tag =
    typeof input === "object" && input !== null ? (input as { readonly strategy?: unknown }).strategy : undefined;
  if (typeof tag !== "string" || !(STRATEGY_NAMES as readonly string[]).includes(tag)) {
    return E.left(
      invalid("InvalidOptions", "strategy config", [
        `strategy: expected one of ${STRATEGY_NAMES.map((n) => JSON.stringify(n)).join(", ")}, got ${show(tag)}`,
      ]),
    );
  }
  const r: t.Validation<StrategyConfig> =
    tag === "lcm" ? LcmStrategyConfigCodec.decode(input) : HierarchicalStrategyConfigCodec.decode(input);
  if (E.isRight(r)) return E.right(r.right);
  const problems = [
    ...new Set(
      r.left.map(
        (e) =>
          `${e.context[e.context.length - 1]?.key || "config"}: ${e.message ?? "invalid value"}, got ${show(e.value)}`,
      ),
    ),
  ];
  return E.left(invalid("InvalidOptions", "strategy config", problems));
}
