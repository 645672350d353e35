/**
 * The demo's settings from the environment, checked before anything runs.
 *
 * @module settings
 */
import * as E from "fp-ts/lib/Either.js";

/** The budget when `CC_DEMO_BUDGET` is unset. */
export const DEFAULT_BUDGET = 8000;

/**
 * `CC_DEMO_BUDGET`: decimal digits only, a safe integer ≥ 1 (so "abc", "-5", "0", "1e99", "NaN",
 * "12.5" are refused); `Left` is the one-line message to print. Unset or empty: {@link DEFAULT_BUDGET}.
 *
 * @example parseBudget("abc") // left('CC_DEMO_BUDGET: expected a positive integer (tokens), got "abc"')
 */
export function parseBudget(raw: string | undefined): E.Either<string, number> {
  if (raw === undefined || raw.trim() === "") return E.right(DEFAULT_BUDGET);
  const text = raw.trim();
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 1
    ? E.right(n)
    : E.left(`CC_DEMO_BUDGET: expected a positive integer (tokens), got ${JSON.stringify(raw)}`);
}

/** The policies `CC_DEMO_POLICY` accepts. */
export const DEMO_POLICIES = ["threshold", "hermes", "cost"] as const;

/** One of {@link DEMO_POLICIES}. */
export type DemoPolicy = (typeof DEMO_POLICIES)[number];

/**
 * `CC_DEMO_POLICY`: a compaction policy of the context manager (`threshold`, `hermes`, `cost`);
 * unset or empty: none (the manager compacts whenever the threshold is reached).
 *
 * @example parsePolicy("cost") // right("cost")
 */
export function parsePolicy(raw: string | undefined): E.Either<string, DemoPolicy | undefined> {
  if (raw === undefined || raw.trim() === "") return E.right(undefined);
  const text = raw.trim();
  const known = DEMO_POLICIES.find((p) => p === text);
  return known === undefined
    ? E.left(`CC_DEMO_POLICY: expected one of ${DEMO_POLICIES.join(", ")}, got ${JSON.stringify(raw)}`)
    : E.right(known);
}
