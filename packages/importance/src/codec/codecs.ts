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
  RelevanceCodec,
  TextCodec,
  TimeCodec,
  TurnCodec,
  TurnHalfLifeCodec,
  WeightCodec,
} from "./leaf.js";
import { MAX_PROBLEMS, expectation, isRecord, objectCodec as validateObject, pathOf } from "@cc/validate";

/** An object codec over @cc/validate's: `closed` rejects unknown keys (typos must not pass silently). */
function objectCodec<A>(
  name: string,
  expected: string,
  required: t.Props,
  optional: t.Props,
  closed: boolean,
): t.Type<A, A, unknown> {
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
    relevance: RelevanceCodec,
  },
  false,
);

/**
 * Whether `u` is a valid segment, by one read of each field and the leaf predicates: the same
 * answer as `SegmentCodec.is` without building a validation (no context, no error list), so a
 * list of a million segments, valid or not, is checked in well under a second. A throwing getter
 * or proxy trap makes it `false`, never a throw.
 */
function isSegment(u: unknown, seen: { id: unknown } = { id: undefined }): boolean {
  seen.id = undefined;
  if (!isRecord(u)) return false;
  try {
    seen.id = u["id"];
    if (!IdCodec.is(seen.id) || typeof u["content"] !== "string") return false;
    const tokenCost = u["tokenCost"];
    if (tokenCost !== undefined && !CountCodec.is(tokenCost)) return false;
    const createdAt = u["createdAt"];
    if (createdAt !== undefined && !TimeCodec.is(createdAt)) return false;
    const lastAccessed = u["lastAccessed"];
    if (lastAccessed !== undefined && !TimeCodec.is(lastAccessed)) return false;
    const accessCount = u["accessCount"];
    if (accessCount !== undefined && !CountCodec.is(accessCount)) return false;
    const pinned = u["pinned"];
    if (pinned !== undefined && typeof pinned !== "boolean") return false;
    const kind = u["kind"];
    if (kind !== undefined && typeof kind !== "string") return false;
    const turn = u["turn"];
    if (turn !== undefined && !TurnCodec.is(turn)) return false;
    const lastAccessedTurn = u["lastAccessedTurn"];
    if (lastAccessedTurn !== undefined && !TurnCodec.is(lastAccessedTurn)) return false;
    const relevance = u["relevance"];
    return relevance === undefined || RelevanceCodec.is(relevance);
  } catch {
    return false;
  }
}

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
  (u): u is readonly Segment[] =>
    Array.isArray(u) &&
    Array.from(u as readonly unknown[], (s) => isSegment(s)).every(Boolean) &&
    duplicateAt(readIds(u as readonly unknown[])).length === 0,
  (u, c) => {
    if (!Array.isArray(u)) return t.failure(u, c, expectation(c, "an array of segments", u));
    const errors: t.ValidationError[] = [];
    const items = u as readonly unknown[];
    // Index loop, not forEach: holes in a sparse array are missing segments, not skipped ones.
    // Each segment is checked by the fast predicate; only the first MAX_PROBLEMS bad ones are
    // validated again to describe them, the rest are only counted: linear, and small output.
    // Each field is read once (a throwing getter throws once); the ids read feed the duplicate check.
    let bad = 0;
    const ids = new Array<unknown>(items.length);
    const seen = { id: undefined as unknown };
    for (let i = 0; i < items.length; i++) {
      const item = i in items ? items[i] : undefined;
      const ok = isSegment(item, seen);
      ids[i] = seen.id;
      if (ok) continue;
      if (bad >= MAX_PROBLEMS) {
        bad++;
        continue;
      }
      const r = SegmentCodec.validate(item, t.appendContext(c, String(i), SegmentCodec, item));
      if (r._tag === "Left") {
        bad++;
        errors.push(...r.left);
      }
    }
    if (bad > MAX_PROBLEMS)
      errors.push({
        value: moreInvalid(bad - MAX_PROBLEMS),
        context: c,
        message: `… and ${bad - MAX_PROBLEMS} more invalid segments`,
      });
    for (const [i, first] of duplicateAt(ids).slice(0, MAX_PROBLEMS)) {
      const id = ids[i];
      const ctx = t.appendContext(t.appendContext(c, String(i), SegmentCodec, items[i]), "id", IdCodec, id);
      errors.push({
        value: id,
        context: ctx,
        message: `${pathOf(ctx)}: duplicate id ${JSON.stringify(id)} (first at [${first}])`,
      });
    }
    return errors.length === 0 ? t.success(u as readonly Segment[]) : t.failures(errors);
  },
  t.identity,
);

/**
 * The value of the one summary error of {@link SegmentsCodec}: how many invalid segments were only counted.
 *
 * @example
 * const r = SegmentsCodec.decode(Array.from({ length: 200_000 }, () => ({})));
 * if (E.isLeft(r)) r.left.map(moreInvalidOf).find((n) => n !== undefined) // 199900: the summary error of 200000 bad segments
 */
export interface MoreInvalid {
  readonly _tag: "MoreInvalid";
  readonly count: number;
}

/** The summary values this codec made: recognised by identity, so no caller value is ever read. */
const summaries = new WeakSet<MoreInvalid>();

const moreInvalid = (count: number): MoreInvalid => {
  const m: MoreInvalid = { _tag: "MoreInvalid", count };
  summaries.add(m);
  return m;
};

/**
 * The count of a {@link MoreInvalid} summary error, or `undefined` for any other error.
 *
 * @example
 * const errors = pipe(SegmentsCodec.decode([{ id: 1 }]), E.match((e) => e, () => []));
 * const counted = errors.map(moreInvalidOf).find((n) => n !== undefined) ?? 0;
 */
export function moreInvalidOf(e: t.ValidationError): number | undefined {
  const v: unknown = e.value;
  return typeof v === "object" && v !== null && summaries.has(v as MoreInvalid) ? (v as MoreInvalid).count : undefined;
}

/** The id of each entry as read once (`undefined` for a non-object or a throwing read). */
function readIds(items: readonly unknown[]): unknown[] {
  const seen = { id: undefined as unknown };
  return Array.from(items, (item) => {
    isSegment(item, seen);
    return seen.id;
  });
}

/**
 * Pairs [index, first index] of every string id seen before, over the ids read once per entry
 * (entries without a non-empty string id are ignored).
 */
function duplicateAt(ids: readonly unknown[]): readonly (readonly [number, number])[] {
  const first = new Map<string, number>();
  const out: [number, number][] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
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
export const ImportanceOptionsCodec: t.Type<ImportanceOptions, ImportanceOptions, unknown> =
  objectCodec<ImportanceOptions>(
    "ImportanceOptions",
    "an options object",
    {},
    {
      recencyHalfLifeMs: HalfLifeCodec,
      recencyWeight: WeightCodec,
      reuseWeight: WeightCodec,
      relevanceWeight: WeightCodec,
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
