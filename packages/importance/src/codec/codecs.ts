/**
 * io-ts codecs of the data model. Every failure message names the index and field of the bad
 * value, e.g. `[3].tokenCost: expected a non-negative integer, got -5`.
 */
import * as t from "io-ts";
import type { EvictionTarget, ImportanceOptions, Segment } from "../segment.js";
import {
  BudgetCodec,
  ClockCodec,
  CountCodec,
  EstimatorCodec,
  FlagCodec,
  HalfLifeCodec,
  IdCodec,
  TextCodec,
  TimeCodec,
  WeightCodec,
  isRecord,
} from "./leaf.js";
import { expectation, pathOf } from "./problem.js";

/**
 * An object codec: fails with "expected `expected`" on non-objects, checks `required` and
 * `optional` fields (an optional field may be absent or `undefined`), and — when `closed` —
 * rejects unknown keys (typos in options must not pass silently). Returns the input object.
 */
function objectCodec<A>(
  name: string,
  expected: string,
  required: t.Props,
  optional: t.Props,
  closed: boolean,
): t.Type<A, A, unknown> {
  const known = new Set([...Object.keys(required), ...Object.keys(optional)]);
  const is = (u: unknown): u is A => isRecord(u) && validate(u, [{ key: "", type: codec, actual: u }])._tag === "Right";
  const validate = (u: unknown, c: t.Context): t.Validation<A> => {
    if (!isRecord(u)) return t.failure(u, c, expectation(c, expected, u));
    const errors: t.ValidationError[] = [];
    const check = (key: string, type: t.Mixed, present: boolean): void => {
      if (!present) return;
      const v = u[key];
      const r = type.validate(v, t.appendContext(c, key, type, v));
      if (r._tag === "Left") errors.push(...r.left);
    };
    for (const [key, type] of Object.entries(required)) check(key, type, true);
    for (const [key, type] of Object.entries(optional)) check(key, type, u[key] !== undefined);
    if (closed) {
      for (const key of Object.keys(u)) {
        if (known.has(key)) continue;
        const ctx = t.appendContext(c, key, t.unknown, u[key]);
        const at = pathOf(ctx);
        errors.push({ value: u[key], context: ctx, message: `${at}: unknown field (expected one of ${[...known].join(", ")})` });
      }
    }
    return errors.length === 0 ? t.success(u as A) : t.failures(errors);
  };
  const codec: t.Type<A, A, unknown> = new t.Type<A, A, unknown>(name, is, validate, t.identity);
  return codec;
}

/** Codec of one {@link Segment}; extra fields are allowed (callers pass their own objects). */
export const SegmentCodec: t.Type<Segment, Segment, unknown> = objectCodec<Segment>(
  "Segment",
  "a segment object",
  { id: IdCodec, content: TextCodec },
  {
    tokenCost: CountCodec,
    createdAt: TimeCodec,
    lastAccessed: TimeCodec,
    accessCount: CountCodec,
    pinned: FlagCodec,
    kind: TextCodec,
  },
  false,
);

/** Codec of a segment list: every segment valid and every id unique (duplicates name both indices). */
export const SegmentsCodec: t.Type<readonly Segment[], readonly Segment[], unknown> = new t.Type<
  readonly Segment[],
  readonly Segment[],
  unknown
>(
  "Segments",
  (u): u is readonly Segment[] => Array.isArray(u) && u.every((s) => SegmentCodec.is(s)) && duplicateAt(u as readonly Segment[]).length === 0,
  (u, c) => {
    if (!Array.isArray(u)) return t.failure(u, c, expectation(c, "an array of segments", u));
    const errors: t.ValidationError[] = [];
    const items = u as readonly unknown[];
    items.forEach((item, i) => {
      const r = SegmentCodec.validate(item, t.appendContext(c, String(i), SegmentCodec, item));
      if (r._tag === "Left") errors.push(...r.left);
    });
    for (const [i, first] of duplicateAt(items)) {
      const item = items[i] as Segment;
      const ctx = t.appendContext(t.appendContext(c, String(i), SegmentCodec, item), "id", IdCodec, item.id);
      errors.push({ value: item.id, context: ctx, message: `${pathOf(ctx)}: duplicate id ${JSON.stringify(item.id)} (first at [${first}])` });
    }
    return errors.length === 0 ? t.success(u as readonly Segment[]) : t.failures(errors);
  },
  t.identity,
);

/** Pairs [index, first index] of every string id seen before (entries without a string id are ignored). */
function duplicateAt(items: readonly unknown[]): readonly (readonly [number, number])[] {
  const first = new Map<string, number>();
  const out: [number, number][] = [];
  items.forEach((item, i) => {
    if (!isRecord(item) || typeof item["id"] !== "string" || item["id"] === "") return;
    const id = item["id"];
    const at = first.get(id);
    if (at === undefined) first.set(id, i);
    else out.push([i, at]);
  });
  return out;
}

/** Codec of {@link ImportanceOptions}: weights in [0, 1e6], half-life > 0, functions for `now`/`estimateTokens`; unknown fields rejected. */
export const ImportanceOptionsCodec: t.Type<ImportanceOptions, ImportanceOptions, unknown> = objectCodec<ImportanceOptions>(
  "ImportanceOptions",
  "an options object",
  {},
  {
    recencyHalfLifeMs: HalfLifeCodec,
    recencyWeight: WeightCodec,
    reuseWeight: WeightCodec,
    costWeight: WeightCodec,
    now: ClockCodec,
    estimateTokens: EstimatorCodec,
  },
  true,
);

/** Codec of {@link EvictionTarget}: finite `maxTokens` (≤ 0 = no budget), integer `minKeep` ≥ 0; unknown fields rejected. */
export const EvictionTargetCodec: t.Type<EvictionTarget, EvictionTarget, unknown> = objectCodec<EvictionTarget>(
  "EvictionTarget",
  "an eviction target object",
  { maxTokens: BudgetCodec },
  { minKeep: CountCodec },
  true,
);
