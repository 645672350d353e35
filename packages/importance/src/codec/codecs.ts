/**
 * io-ts codecs of the data model. Every failure message names the index and field of the bad
 * value, e.g. `[3].tokenCost: expected a non-negative integer, got -5`.
 */
import * as t from "io-ts";
import type { EvictionTarget, ImportanceOptions, Segment } from "../segment.js";
import {
  AgeCodec,
  BudgetCodec,
  ClockCodec,
  CountCodec,
  EstimatorCodec,
  FlagCodec,
  HalfLifeCodec,
  IdCodec,
  TextCodec,
  TimeCodec,
  TurnCodec,
  TurnHalfLifeCodec,
  WeightCodec,
} from "./leaf.js";
import { MAX_PROBLEMS, expectation, isRecord, objectCodec as validateObject, pathOf } from "@cc/validate";

/** An object codec over @cc/validate's: `closed` rejects unknown keys (typos must not pass silently). */
function objectCodec<A>(name: string, expected: string, required: t.Props, optional: t.Props, closed: boolean): t.Type<A, A, unknown> {
  return validateObject(name, required, optional, { closed, expected }) as unknown as t.Type<A, A, unknown>;
}

/**
 * Codec of one {@link Segment}; extra fields are allowed (callers pass their own objects).
 *
 * @example SegmentCodec.is({ id: "a", content: "" }) // true
 */
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
    turn: TurnCodec,
    lastAccessedTurn: TurnCodec,
  },
  false,
);

/**
 * Codec of a segment list: every segment valid and every id unique (duplicates name both indices).
 *
 * @example SegmentsCodec.is([{ id: "a", content: "" }, { id: "a", content: "" }]) // false: duplicate id
 */
export const SegmentsCodec: t.Type<readonly Segment[], readonly Segment[], unknown> = new t.Type<
  readonly Segment[],
  readonly Segment[],
  unknown
>(
  "Segments",
  (u): u is readonly Segment[] => Array.isArray(u) && Array.from(u as readonly unknown[], (s) => SegmentCodec.is(s)).every(Boolean) && duplicateAt(u as readonly Segment[]).length === 0,
  (u, c) => {
    if (!Array.isArray(u)) return t.failure(u, c, expectation(c, "an array of segments", u));
    const errors: t.ValidationError[] = [];
    const items = u as readonly unknown[];
    // Index loop, not forEach: holes in a sparse array are missing segments, not skipped ones.
    // Past MAX_PROBLEMS bad segments the rest are only counted, so validation stays linear and small.
    let bad = 0;
    for (let i = 0; i < items.length; i++) {
      const item = i in items ? items[i] : undefined;
      if (bad >= MAX_PROBLEMS) {
        if (!SegmentCodec.is(item)) bad++;
        continue;
      }
      const r = SegmentCodec.validate(item, t.appendContext(c, String(i), SegmentCodec, item));
      if (r._tag === "Left") {
        bad++;
        errors.push(...r.left);
      }
    }
    if (bad > MAX_PROBLEMS) errors.push({ value: moreInvalid(bad - MAX_PROBLEMS), context: c, message: `… and ${bad - MAX_PROBLEMS} more invalid segments` });
    for (const [i, first] of duplicateAt(items).slice(0, MAX_PROBLEMS)) {
      const item = items[i] as Segment;
      const ctx = t.appendContext(t.appendContext(c, String(i), SegmentCodec, item), "id", IdCodec, item.id);
      errors.push({ value: item.id, context: ctx, message: `${pathOf(ctx)}: duplicate id ${JSON.stringify(item.id)} (first at [${first}])` });
    }
    return errors.length === 0 ? t.success(u as readonly Segment[]) : t.failures(errors);
  },
  t.identity,
);

/**
 * The value of the one summary error of {@link SegmentsCodec}: how many invalid segments were only counted.
 *
 * @example moreInvalidOf(error) // 199900 for the summary error of 200000 bad segments
 */
export interface MoreInvalid {
  readonly _tag: "MoreInvalid";
  readonly count: number;
}

const moreInvalid = (count: number): MoreInvalid => ({ _tag: "MoreInvalid", count });

/**
 * The count of a {@link MoreInvalid} summary error, or `undefined` for any other error.
 *
 * @example const counted = errors.map(moreInvalidOf).find((n) => n !== undefined) ?? 0;
 */
export function moreInvalidOf(e: t.ValidationError): number | undefined {
  const v: unknown = e.value;
  return isRecord(v) && v["_tag"] === "MoreInvalid" && typeof v["count"] === "number" ? v["count"] : undefined;
}

/** Pairs [index, first index] of every string id seen before (entries without a string id are ignored). */
function duplicateAt(items: readonly unknown[]): readonly (readonly [number, number])[] {
  const first = new Map<string, number>();
  const out: [number, number][] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    let id: unknown;
    try {
      id = isRecord(item) ? item["id"] : undefined;
    } catch {
      continue; // a throwing getter is reported by the segment codec
    }
    if (typeof id !== "string" || id === "") continue;
    const at = first.get(id);
    if (at === undefined) first.set(id, i);
    else out.push([i, at]);
  }
  return out;
}

/**
 * Codec of {@link ImportanceOptions}: weights (and kind weights) in [0, 1e6], half-lives > 0, an
 * age measure, whole `keepNewest` ≥ 0, functions for `now`/`estimateTokens`; unknown fields rejected.
 *
 * @example ImportanceOptionsCodec.is({ costWeight: 0 }) // true; { costWeigth: 0 } → false
 */
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
    age: AgeCodec,
    recencyHalfLifeTurns: TurnHalfLifeCodec,
    currentTurn: TurnCodec,
    keepNewest: CountCodec,
    kindWeights: t.record(t.string, WeightCodec),
  },
  true,
);

/**
 * Codec of {@link EvictionTarget}: finite `maxTokens` (≤ 0 = no budget), integer `minKeep` ≥ 0; unknown fields rejected.
 *
 * @example EvictionTargetCodec.is({ maxTokens: 8000, minKeep: 2 }) // true
 */
export const EvictionTargetCodec: t.Type<EvictionTarget, EvictionTarget, unknown> = objectCodec<EvictionTarget>(
  "EvictionTarget",
  "an eviction target object",
  { maxTokens: BudgetCodec },
  { minKeep: CountCodec },
  true,
);
