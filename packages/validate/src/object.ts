/**
 * Object codecs that name every bad field and, when closed, reject unknown keys with a
 * "did you mean" suggestion — an option typo never passes silently.
 *
 * @module object
 */
import * as t from "io-ts";
import { expectation, pathOf } from "./problem.js";

/** A plain object (not null, not an array). */
export const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u);

/** Edit distance of two short strings (Levenshtein, case-insensitive), for suggestions. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length]!;
}

/**
 * The known name closest to `key` when it is plausibly a typo of it (edit distance ≤ 2, or ≤ a
 * third of the name), else `undefined`.
 *
 * @example didYouMean("maxTokns", ["maxTokens", "minKeep"]) // "maxTokens"
 */
export function didYouMean(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = distance(key, k);
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

/** Fields of an object codec: each value is a codec. */
export type Fields = Readonly<Record<string, t.Mixed>>;

/** The static type of an object with `required` and `optional` fields. */
export type ObjectOf<R extends Fields, O extends Fields> = { readonly [K in keyof R]: t.TypeOf<R[K]> } & {
  readonly [K in keyof O]?: t.TypeOf<O[K]>;
};

/** How {@link objectCodec} treats keys it does not know. */
export interface ObjectCodecOptions {
  /**
   * Reject unknown keys (options objects) or let them through (caller data with extra fields).
   * @default true
   */
  readonly closed?: boolean;
  /**
   * What the value should be, for the message when it is not an object.
   * @default "an object"
   */
  readonly expected?: string;
}

/**
 * An object codec: fails on non-objects, checks `required` and `optional` fields (an optional
 * field may be absent or `undefined`), and — when `closed` — rejects unknown keys, suggesting the
 * closest known one. Decoding returns the input object itself (no copy). The codec keeps its
 * `required` and `optional` fields, so another codec can extend it (an adapter's options with
 * the manager's).
 *
 * @example
 * const Opts = objectCodec("Opts", {}, { maxTokens: positiveInt });
 * Opts.decode({ maxTokns: 5 }); // failure: "maxTokns: unknown field (did you mean maxTokens?)"
 */
export function objectCodec<R extends Fields, O extends Fields>(
  name: string,
  required: R,
  optional: O,
  options: ObjectCodecOptions = {},
): t.Type<ObjectOf<R, O>, ObjectOf<R, O>, unknown> & { readonly required: R; readonly optional: O } {
  type A = ObjectOf<R, O>;
  const closed = options.closed ?? true;
  const expected = options.expected ?? "an object";
  const known = [...Object.keys(required), ...Object.keys(optional)];
  const knownSet = new Set(known);
  const validate = (u: unknown, c: t.Context): t.Validation<A> => {
    if (!isRecord(u)) return t.failure(u, c, expectation(c, expected, u));
    const errors: t.ValidationError[] = [];
    const check = (key: string, type: t.Mixed, present: boolean): void => {
      if (!present) return;
      let v: unknown;
      try {
        v = u[key];
      } catch (e) {
        const ctx = t.appendContext(c, key, type, undefined);
        errors.push({
          value: undefined,
          context: ctx,
          message: `${pathOf(ctx)}: reading the field threw (${e instanceof Error ? e.message : String(e)})`,
        });
        return;
      }
      const r = type.validate(v, t.appendContext(c, key, type, v));
      if (r._tag === "Left") errors.push(...r.left);
    };
    for (const [key, type] of Object.entries(required)) check(key, type, true);
    for (const [key, type] of Object.entries(optional)) {
      let present: boolean;
      try {
        present = u[key] !== undefined;
      } catch {
        present = true;
      }
      check(key, type, present);
    }
    if (closed) {
      for (const key of Object.keys(u)) {
        if (knownSet.has(key)) continue;
        const ctx = t.appendContext(c, key, t.unknown, undefined);
        const hint = didYouMean(key, known);
        const tail =
          hint !== undefined
            ? `did you mean ${hint}?`
            : known.length === 0
              ? "no fields are accepted"
              : `expected one of ${known.join(", ")}`;
        errors.push({ value: undefined, context: ctx, message: `${pathOf(ctx)}: unknown field (${tail})` });
      }
    }
    return errors.length === 0 ? t.success(u as A) : t.failures(errors);
  };
  const is = (u: unknown): u is A => validate(u, [{ key: "", type: t.unknown, actual: u }])._tag === "Right";
  return Object.assign(new t.Type<A, A, unknown>(name, is, validate, t.identity), { required, optional });
}
