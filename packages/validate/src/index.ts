/**
 * @cc/validate — the one validation vocabulary of @cc: codecs that name the path of every bad
 * value, reject unknown keys with a "did you mean", and one failure shape
 * `{ _tag: "InvalidOptions" | "InvalidInput", subject, problems, more, message }`.
 *
 * @example
 * import { decodeWith, objectCodec, intIn } from "@cc/validate";
 * const decode = decodeWith(objectCodec("RetryOptions", {}, { maxRetries: intIn(0, 20) }), "InvalidOptions", "retry options");
 * decode({ maxRetry: 3 }); // left: "invalid retry options: maxRetry: unknown field (did you mean maxRetries?)"
 *
 * @module @cc/validate
 */
export { CcError, type CcErrorOf, type Failure } from "./error.js";
export {
  decodeOrThrow,
  decodeWith,
  invalid,
  InvalidOptionsError,
  type Invalid,
  type InvalidInput,
  type InvalidOptions,
  type InvalidTag,
} from "./decode.js";
export { didYouMean, isRecord, objectCodec, type Fields, type ObjectCodecOptions, type ObjectOf } from "./object.js";
export {
  callback,
  finite,
  fn,
  intIn,
  leaf,
  nonEmptyString,
  nonNegativeInt,
  numberIn,
  positiveInt,
  withMethods,
} from "./leaf.js";
export { describeValue, expectation, MAX_PROBLEMS, pathOf, problemsOf, type Problem } from "./problem.js";
