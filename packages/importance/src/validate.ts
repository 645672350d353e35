/**
 * Boundary validation returning fp-ts `Either`: a typed failure listing every problem with its
 * index and field, or the caller's own value unchanged.
 */
import * as E from "fp-ts/lib/Either.js";
import type * as t from "io-ts";
import { EvictionTargetCodec, ImportanceOptionsCodec, SegmentsCodec } from "./codec/codecs.js";
import { problemsOf, type Problem } from "./codec/problem.js";
import type { EvictionTarget, ImportanceOptions, Segment } from "./segment.js";

/** What failed validation. */
export type InvalidSubject = "segments" | "options" | "target";

/** Expected failure of a validation: every problem found, each naming its index and field. */
export interface InvalidInput {
  readonly _tag: "InvalidInput";
  readonly subject: InvalidSubject;
  /** All problems, in input order (the first one is `problems[0]`). */
  readonly problems: readonly Problem[];
  /** All problem messages joined with "; ". */
  readonly message: string;
}

function run<A>(codec: t.Type<A, A, unknown>, subject: InvalidSubject, input: unknown): E.Either<InvalidInput, A> {
  const r = codec.decode(input);
  if (r._tag === "Right") return r;
  const problems = problemsOf(r.left);
  return E.left({ _tag: "InvalidInput", subject, problems, message: `invalid ${subject}: ${problems.map((p) => p.message).join("; ")}` });
}

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
  return run(SegmentsCodec, "segments", input);
}

/** Checks importance options (weights in [0, 1e6], half-life > 0, no unknown fields). */
export function validateImportanceOptions(input: unknown): E.Either<InvalidInput, ImportanceOptions> {
  return run(ImportanceOptionsCodec, "options", input);
}

/** Checks an eviction target (finite maxTokens, integer minKeep ≥ 0, no unknown fields). */
export function validateEvictionTarget(input: unknown): E.Either<InvalidInput, EvictionTarget> {
  return run(EvictionTargetCodec, "target", input);
}

/** Expected failure of {@link decodeSegmentsJson} when the text is not JSON at all. */
export interface MalformedJson {
  readonly _tag: "MalformedJson";
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
    return E.left({ _tag: "MalformedJson", message: e instanceof Error ? e.message : String(e) });
  }
  return ensureSegmentsValid(parsed);
}
