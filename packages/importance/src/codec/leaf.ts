/**
 * Leaf codecs whose failures carry a message naming the path of the bad value.
 */
import { MAX_WEIGHT } from "../segment.js";
import { leaf } from "@cc/validate";

const LONE_SURROGATE = /\p{Surrogate}/u;

/** A non-empty, well-formed Unicode string (lone surrogates would not survive a UTF-8 store). */
export const IdCodec = leaf(
  "Id",
  "a non-empty string of well-formed Unicode",
  (u): u is string => typeof u === "string" && u.length > 0 && !LONE_SURROGATE.test(u),
);

/** Any string. */
export const TextCodec = leaf("Text", "a string", (u): u is string => typeof u === "string");

/** A whole number in [0, 2^53 − 1]. */
export const CountCodec = leaf(
  "Count",
  "a non-negative integer",
  (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0,
);

/** A finite epoch-millisecond time ≥ 0. */
export const TimeCodec = leaf(
  "Time",
  "a finite, non-negative epoch-millisecond time",
  (u): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0,
);

/** A boolean. */
export const FlagCodec = leaf("Flag", "a boolean", (u): u is boolean => typeof u === "boolean");

/** A weight in [0, MAX_WEIGHT] (0 disables its axis). */
export const WeightCodec = leaf(
  "Weight",
  `a finite number in [0, ${MAX_WEIGHT}]`,
  (u): u is number => typeof u === "number" && u >= 0 && u <= MAX_WEIGHT,
);

/** A finite duration > 0 (milliseconds). */
export const HalfLifeCodec = leaf(
  "HalfLife",
  "a finite number of milliseconds > 0",
  (u): u is number => typeof u === "number" && u > 0 && Number.isFinite(u),
);

/** A finite number (may be ≤ 0: `maxTokens <= 0` means "no budget"). */
export const BudgetCodec = leaf(
  "Budget",
  "a finite number",
  (u): u is number => typeof u === "number" && Number.isFinite(u),
);

/** The clock: a function returning epoch milliseconds. */
export const ClockCodec = leaf("Clock", "a function () => number", (u): u is () => number => typeof u === "function");

/** A token estimator: a function from content to a token count. */
export const EstimatorCodec = leaf(
  "Estimator",
  "a function (content: string) => number",
  (u): u is (content: string) => number => typeof u === "function",
);

/** How age is measured: "clock", "turns" or "auto". */
export const AgeCodec = leaf(
  "Age",
  'one of "clock", "turns", "auto"',
  (u): u is "clock" | "turns" | "auto" => u === "clock" || u === "turns" || u === "auto",
);

/** A finite number of turns > 0. */
export const TurnHalfLifeCodec = leaf(
  "TurnHalfLife",
  "a finite number of turns > 0",
  (u): u is number => typeof u === "number" && u > 0 && Number.isFinite(u),
);

/** A finite turn number ≥ 0. */
export const TurnCodec = leaf(
  "Turn",
  "a finite number ≥ 0",
  (u): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0,
);

/** A relevance: a number in [0, 1] (NaN and ±Infinity never pass). */
export const RelevanceCodec = leaf(
  "Relevance",
  "a number in [0, 1]",
  (u): u is number => typeof u === "number" && u >= 0 && u <= 1,
);
