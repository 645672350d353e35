/**
 * Boundary validation returning fp-ts `Either`: a typed failure listing every problem with its
 * index and field, or the caller's own value unchanged.
 */
import * as E from "fp-ts/lib/Either.js";
import { decodeWith, invalid, problemsOf, type InvalidInput, type InvalidOptions } from "@cc/validate";
import { EvictionTargetCodec, ImportanceOptionsCodec, moreInvalidOf, SegmentsCodec } from "./codec/codecs.js";
import type { EvictionTarget, ImportanceOptions, Segment } from "./segment.js";

const decodeSegmentsRaw = decodeWith(SegmentsCodec, "InvalidInput", "segments");

/**
 * Segments decoded with the count of invalid segments beyond the listed ones in `more` (the codec
 * stops describing after MAX_PROBLEMS bad segments and only counts the rest, so it stays linear).
 */
function decodeSegments(input: unknown): E.Either<InvalidInput, readonly Segment[]> {
  let r: ReturnType<typeof SegmentsCodec.validate>;
  try {
    r = SegmentsCodec.validate(input, [{ key: "", type: SegmentsCodec, actual: input }]);
  } catch {
    return decodeSegmentsRaw(input); // reports the throw as a problem
  }
  if (E.isRight(r)) return E.right(r.right);
  let counted = 0;
  const described = r.left.filter((e) => {
    const n = moreInvalidOf(e);
    if (n !== undefined) counted += n;
    return n === undefined;
  });
  const problems = problemsOf(described);
  const unlisted = Math.max(0, new Set(described.map((e) => e.message)).size - problems.length);
  return E.left(invalid("InvalidInput", "segments", problems, unlisted + counted));
}
const decodeImportanceOptions = decodeWith(ImportanceOptionsCodec, "InvalidOptions", "importance options");
const decodeEvictionTarget = decodeWith(EvictionTargetCodec, "InvalidOptions", "eviction target");

/**
 * Checks a segment list: an array of objects with a non-empty, well-formed id, string content,
 * non-negative integer tokenCost/accessCount, finite non-negative times, boolean pinned, and
 * unique ids. Returns the same array on success.
 *
 * @example
 * ensureSegmentsValid([{ id: "a", content: "x" }, { id: "a", content: "y" }]);
 * // Left: "invalid segments: [1].id: duplicate id \"a\" (first at [0])"
 */
export function ensureSegmentsValid(input: unknown): E.Either<InvalidInput, readonly Segment[]> {
  return decodeSegments(input);
}

/**
 * Checks importance options (weights in [0, 1e6], half-life > 0, no unknown fields).
 *
 * @example validateImportanceOptions({ recencyWeigth: 1 }) // Left: "invalid importance options: recencyWeigth: unknown field (did you mean recencyWeight?)"
 */
export function validateImportanceOptions(input: unknown): E.Either<InvalidOptions, ImportanceOptions> {
  return decodeImportanceOptions(input);
}

/**
 * Checks an eviction target (finite maxTokens, integer minKeep ≥ 0, no unknown fields).
 *
 * @example validateEvictionTarget({ maxTokens: Number.NaN }) // Left: "invalid eviction target: maxTokens: expected a finite number, got NaN"
 */
export function validateEvictionTarget(input: unknown): E.Either<InvalidOptions, EvictionTarget> {
  return decodeEvictionTarget(input);
}

/**
 * Expected failure of {@link decodeSegmentsJson} when the text is not JSON at all.
 *
 * @example decodeSegmentsJson("[{") // Left({ _tag: "MalformedJson", subject: "segments", message: "…" })
 */
export interface MalformedJson {
  readonly _tag: "MalformedJson";
  /** What was being parsed ("segments"). */
  readonly subject: string;
  /** The parser's message, e.g. "Unexpected token } in JSON at position 12". */
  readonly message: string;
}

/**
 * Parses JSON text and validates it as a segment list (see {@link ensureSegmentsValid}).
 *
 * @example
 * decodeSegmentsJson('[{"id":"a","content":"hi"}]'); // Right([{ id: "a", content: "hi" }])
 * decodeSegmentsJson("[{"); // Left({ _tag: "MalformedJson", … })
 */
export function decodeSegmentsJson(text: string): E.Either<MalformedJson | InvalidInput, readonly Segment[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return E.left({ _tag: "MalformedJson", subject: "segments", message: e instanceof Error ? e.message : String(e) });
  }
  return ensureSegmentsValid(parsed);
}
