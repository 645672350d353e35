/**
 * Prefetch on relevance (pure): when the agent reads a segment, record the access and find the
 * segments around it, which are likely to be needed next.
 *
 * @module prefetch
 */
import type { Segment } from "@cc/importance";
import * as E from "fp-ts/lib/Either.js";
import { invalid, type InvalidInput, type Problem } from "@cc/validate";

/**
 * Why a prefetch helper refused its input: the one failure shape of `@cc/validate`
 * (`InvalidInput`, subject "prefetch arguments"), each problem naming the argument.
 *
 * @example
 * const r: E.Either<InvalidPrefetch, readonly number[]> = neighbourPositions(0, 0, 1);
 * // Left({ _tag: "InvalidInput", subject: "prefetch arguments", problems: [{ path: "length", … }], … })
 */
export type InvalidPrefetch = InvalidInput;

const refused = (errors: readonly string[]): InvalidPrefetch =>
  invalid(
    "InvalidInput",
    "prefetch arguments",
    errors.map((m): Problem => ({ path: m.slice(0, m.indexOf(":")), field: m.slice(0, m.indexOf(":")), message: m })),
  );

const checkNow = (now: number, errors: string[]): void => {
  if (!Number.isFinite(now) || now < 0) errors.push(`now: expected a finite time ≥ 0 in epoch ms (got ${String(now)})`);
};

const checkPosition = (position: number, length: number, errors: string[]): void => {
  if (!Number.isInteger(position) || position < 0 || position >= length)
    errors.push(`position: expected an integer in 0..${length - 1} (got ${String(position)})`);
};

/**
 * A copy of `segment` read at `now`: `lastAccessed = now` (never moved backwards) and
 * `accessCount + 1`. The input is not modified.
 *
 * @example recordAccess({ id: "a", content: "…", accessCount: 2 }, 1_700_000_000_000) // accessCount 3
 */
export function recordAccess<S extends Segment>(segment: S, now: number): E.Either<InvalidPrefetch, S> {
  const errors: string[] = [];
  checkNow(now, errors);
  if (errors.length > 0) return E.left(refused(errors));
  const last = segment.lastAccessed;
  const count = segment.accessCount;
  return E.right({
    ...segment,
    lastAccessed: typeof last === "number" && Number.isFinite(last) && last > now ? last : now,
    accessCount: (typeof count === "number" && Number.isFinite(count) && count >= 0 ? Math.floor(count) : 0) + 1,
  });
}

/**
 * The positions within `radius` of `position` (itself excluded), nearest first and, at equal
 * distance, the earlier one first. Clipped to the list.
 *
 * @example neighbourPositions(10, 4, 2) // [3, 5, 2, 6]
 */
export function neighbourPositions(
  length: number,
  position: number,
  radius: number,
): E.Either<InvalidPrefetch, readonly number[]> {
  const errors: string[] = [];
  if (!Number.isInteger(length) || length < 1) errors.push(`length: expected an integer ≥ 1 (got ${String(length)})`);
  else checkPosition(position, length, errors);
  if (!Number.isInteger(radius) || radius < 0) errors.push(`radius: expected an integer ≥ 0 (got ${String(radius)})`);
  if (errors.length > 0) return E.left(refused(errors));
  const out: number[] = [];
  const reach = Math.min(radius, length);
  for (let d = 1; d <= reach; d++) {
    if (position - d >= 0) out.push(position - d);
    if (position + d < length) out.push(position + d);
  }
  return E.right(out);
}

/**
 * The segments within `radius` of the one at `position`, nearest first.
 *
 * @example neighbours(segments, 4, 1) // [segments[3], segments[5]]
 */
export function neighbours<S extends Segment>(
  segments: readonly S[],
  position: number,
  radius: number,
): E.Either<InvalidPrefetch, readonly S[]> {
  return E.map((ps: readonly number[]) => ps.map((p) => segments[p]!))(
    neighbourPositions(segments.length, position, radius),
  );
}

/**
 * Records a read of the segment at `position` and returns the new list (a copy, input order)
 * plus the positions of its neighbours to prefetch. With `touchNeighbours`, the neighbours count
 * as accessed too, so the next eviction pass keeps the whole neighbourhood.
 *
 * @example const r = prefetch(segments, 7, 2, now); // r.right.segments[7].accessCount + 1
 */
export function prefetch<S extends Segment>(
  segments: readonly S[],
  position: number,
  radius: number,
  now: number,
  touchNeighbours = false,
): E.Either<InvalidPrefetch, { readonly segments: readonly S[]; readonly neighbours: readonly number[] }> {
  const near = neighbourPositions(segments.length, position, radius);
  if (E.isLeft(near)) return near;
  const touched = new Set([position, ...(touchNeighbours ? near.right : [])]);
  const out: S[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (!touched.has(i)) {
      out.push(s);
      continue;
    }
    const r = recordAccess(s, now);
    if (E.isLeft(r)) return r;
    out.push(r.right);
  }
  return E.right({ segments: out, neighbours: near.right });
}
