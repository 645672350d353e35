/**
 * `compact` and `rank` behind the boundary codecs: the segments, the target and the options are
 * validated first, so a bad value — a wrong type, a NaN, an unknown option, a getter or proxy
 * trap that throws — is a typed `Left` naming its index and field, never a throw and never a
 * silent stand-in value. The plain `compact` and `rank` stay total on the same input (a segment
 * they cannot read counts as an empty unpinned one); these variants say what was wrong instead.
 *
 * @module checked
 */
import * as E from "fp-ts/lib/Either.js";
import { invalid, type InvalidInput, type InvalidOptions } from "@cc/validate";
import { compact, type CompactResult } from "./compact.js";
import { rank } from "./rank.js";
import type { EvictionTarget, ScoringOptions, Segment } from "./segment.js";
import { ensureSegmentsValid, validateEvictionTarget, validateImportanceOptions } from "./validate.js";

/**
 * {@link compact} after validating its three arguments: `Left<InvalidInput>` (subject
 * "segments") or `Left<InvalidOptions>` (subjects "eviction target", "importance options"), each
 * problem naming its index and field (`[3].id: reading the field threw (…)`). Validation lists the
 * first 100 problems and counts the rest in `more`, so a million bad segments are refused fast.
 *
 * @example
 * const r = compactChecked(segments, { maxTokens: 8000 }, { now: () => Date.now() });
 * if (E.isLeft(r)) console.error(r.left.message); else console.log(r.right.evict.length);
 */
export function compactChecked<S extends Segment>(
  segments: readonly S[],
  target: EvictionTarget,
  options: ScoringOptions,
): E.Either<InvalidInput | InvalidOptions, CompactResult<S>> {
  const checked = checkAll(segments, options);
  if (E.isLeft(checked)) return checked;
  const t = validateEvictionTarget(target);
  if (E.isLeft(t)) return t;
  return guarded(() => compact(segments, t.right, options));
}

/**
 * {@link rank} after validating the segments and the options (see {@link compactChecked}).
 *
 * @example
 * const r = rankChecked(segments, { now: () => Date.now() });
 * if (E.isRight(r)) console.log(r.right[0]?.id); // the first to go
 */
export function rankChecked<S extends Segment>(
  segments: readonly S[],
  options: ScoringOptions,
): E.Either<InvalidInput | InvalidOptions, S[]> {
  const checked = checkAll(segments, options);
  return E.isLeft(checked) ? checked : guarded(() => rank(segments, options));
}

/**
 * Runs the pass over input already validated; an input that changes between two reads (a getter
 * or proxy that throws only later) is still a `Left`, not a throw.
 */
function guarded<A>(pass: () => A): E.Either<InvalidInput, A> {
  try {
    return E.right(pass());
  } catch (e) {
    return E.left(
      invalid("InvalidInput", "segments", [
        {
          path: "",
          message: `reading the input threw during the pass (${e instanceof Error ? e.message : String(e)})`,
        },
      ]),
    );
  }
}

function checkAll(segments: unknown, options: unknown): E.Either<InvalidInput | InvalidOptions, void> {
  const s = ensureSegmentsValid(segments);
  if (E.isLeft(s)) return s;
  const o = validateImportanceOptions(options);
  return E.isLeft(o) ? o : E.right(undefined);
}
