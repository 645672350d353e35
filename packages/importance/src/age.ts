/**
 * How old a segment is, for one call: by the wall clock or in turns.
 *
 * `age: "auto"` measures in turns when the timestamps of the call say nothing about time: fewer
 * than two segments carry one, they are all equal, or three or more are evenly spaced (a synthetic
 * clock such as `t0 + j · step`) — and when the clock cannot be read. Otherwise it uses the clock.
 * The turn of a segment is `turn` when it is a finite number, else its position in the input;
 * the turn it was last used is `lastAccessedTurn`, else its turn. The current turn is the
 * caller's `currentTurn`, else the largest turn seen in the call.
 */
import type { ResolvedOptions } from "./options.js";
import type { Segment } from "./segment.js";

/** The age measure of one call. */
export interface AgeContext {
  readonly mode: "clock" | "turns";
  /** The current turn (age in turns = currentTurn − last-used turn). */
  readonly currentTurn: number;
}

const finite = (x: unknown): number | undefined => (typeof x === "number" && Number.isFinite(x) ? x : undefined);

/** Reads a field of a caller segment, treating a throwing getter or a non-object as absent. */
function read(segment: unknown, key: keyof Segment): unknown {
  try {
    return typeof segment === "object" && segment !== null ? (segment as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

/** The turn a segment entered the context (its `turn`, else its position). */
export function turnOf(segment: unknown, position: number): number {
  return finite(read(segment, "turn")) ?? position;
}

/** The turn a segment was last used (`lastAccessedTurn`, else its turn). */
export function lastTurnOf(segment: unknown, position: number): number {
  return finite(read(segment, "lastAccessedTurn")) ?? turnOf(segment, position);
}

/** True when the creation times (else last-access times) of the segments carry no information. */
export function syntheticTimes(segments: readonly unknown[]): boolean {
  const times: number[] = [];
  for (const s of segments) {
    const t = finite(read(s, "createdAt")) ?? finite(read(s, "lastAccessed"));
    if (t !== undefined) times.push(t);
  }
  if (times.length < 2) return true;
  const step = times[1]! - times[0]!;
  if (times.length === 2) return step === 0;
  for (let i = 2; i < times.length; i++) if (times[i]! - times[i - 1]! !== step) return false;
  return true;
}

/**
 * The age measure of a call over `segments`.
 *
 * @example
 * import { resolveOptions } from "./options.js";
 * ageContext([{ id: "a", content: "" }], resolveOptions({ now: () => 0 })) // { mode: "turns", currentTurn: 0 }
 */
export function ageContext(segments: readonly unknown[], r: ResolvedOptions): AgeContext {
  const mode = r.age === "auto" ? (r.now === undefined || syntheticTimes(segments) ? "turns" : "clock") : r.age;
  if (mode === "clock") return { mode, currentTurn: 0 };
  if (r.currentTurn !== undefined) return { mode, currentTurn: r.currentTurn };
  let current = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < segments.length; i++) {
    const t = Math.max(turnOf(segments[i], i), lastTurnOf(segments[i], i));
    if (t > current) current = t;
  }
  return { mode, currentTurn: current === Number.NEGATIVE_INFINITY ? 0 : current };
}

/**
 * Marks the newest `keep` non-pinned positions (finite score), scanning from the end of the input:
 * they are evicted only after every other non-pinned segment, oldest first.
 *
 * @example newestMask(Float64Array.of(1, Infinity, 2), 1) // [0, 0, 1]
 */
export function newestMask(scores: Float64Array, keep: number): { readonly mask: Uint8Array; readonly count: number } {
  const mask = new Uint8Array(scores.length);
  let count = 0;
  for (let i = scores.length - 1; i >= 0 && count < keep; i--) {
    if (scores[i] === Number.POSITIVE_INFINITY) continue;
    mask[i] = 1;
    count++;
  }
  return { mask, count };
}
