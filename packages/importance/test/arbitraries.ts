/**
 * fast-check generators shared by the property tests: segments with many ties and duplicates,
 * options spanning disabled axes and extreme half-lives, targets around the total.
 */
import fc from "fast-check";
import type { EvictionTarget, ScoringOptions, Segment } from "../src/index.js";
import { runsFor } from "../../../.ci/support/runs.js";

/** The fixed clock of the property tests. */
export const NOW = 1_735_689_600_000;

/** Runs per property: at least 1,000 in CI. */
export const numRuns = runsFor(200, 1000);

/** A segment; small value domains make equal scores (ties) and duplicate ids common. */
export const segmentArb: fc.Arbitrary<Segment> = fc.record(
  {
    id: fc.constantFrom("a", "b", "c", "d", "x", "y", "dup"),
    content: fc.oneof(fc.constant(""), fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 10 })),
    tokenCost: fc.oneof(fc.constantFrom(0, 1, 10, 100, 1000), fc.integer({ min: 0, max: 5000 })),
    lastAccessed: fc.oneof(
      fc.constantFrom(NOW, NOW - 60_000, NOW - 3_600_000),
      fc.integer({ min: NOW - 86_400_000, max: NOW + 60_000 }),
    ),
    createdAt: fc.integer({ min: NOW - 86_400_000, max: NOW }),
    accessCount: fc.oneof(fc.constantFrom(0, 1, 5), fc.integer({ min: 0, max: 1000 })),
    pinned: fc.integer({ min: 0, max: 4 }).map((k) => k === 0), // pinned one time in five
    kind: fc.constantFrom("task", "tool_result", "assistant", "demo"),
    turn: fc.integer({ min: 0, max: 80 }),
    lastAccessedTurn: fc.integer({ min: 0, max: 80 }),
  },
  { requiredKeys: ["id", "content"] },
);

/** A list of segments (up to `max`). */
export const segmentsArb = (max = 60): fc.Arbitrary<Segment[]> => fc.array(segmentArb, { maxLength: max });

/** Options: default, disabled or extreme weights and half-lives; always a fixed clock. */
export const optionsArb: fc.Arbitrary<ScoringOptions> = fc
  .record(
    {
      recencyHalfLifeMs: fc.oneof(
        fc.constantFrom(1, 60_000, 1_800_000, 1e12),
        fc.double({ min: 1, max: 1e9, noNaN: true }),
      ),
      recencyWeight: fc.oneof(fc.constantFrom(0, 1, 1e6), fc.double({ min: 0, max: 10, noNaN: true })),
      reuseWeight: fc.oneof(fc.constantFrom(0, 0.7), fc.double({ min: 0, max: 10, noNaN: true })),
      costWeight: fc.oneof(fc.constantFrom(0, 0.5), fc.double({ min: 0, max: 10, noNaN: true })),
      age: fc.constantFrom("clock" as const, "turns" as const, "auto" as const),
      recencyHalfLifeTurns: fc.oneof(fc.constantFrom(1, 10, 1e9), fc.double({ min: 0.01, max: 100, noNaN: true })),
      currentTurn: fc.integer({ min: 0, max: 100 }),
      keepNewest: fc.integer({ min: 0, max: 5 }),
      kindWeights: fc.dictionary(
        fc.constantFrom("task", "tool_result", "other"),
        fc.oneof(fc.constantFrom(0, 3), fc.double({ min: 0, max: 10, noNaN: true })),
        { maxKeys: 2 },
      ),
    },
    { requiredKeys: [] },
  )
  .map((o) => ({ ...o, now: () => NOW }));

/** A target: budget anywhere from "no budget" to above the total; optional minKeep. */
export const targetArb: fc.Arbitrary<EvictionTarget> = fc.record(
  {
    maxTokens: fc.oneof(fc.constantFrom(-1, 0, 1), fc.integer({ min: 1, max: 100_000 })),
    minKeep: fc.integer({ min: 0, max: 20 }),
  },
  { requiredKeys: ["maxTokens"] },
);

/**
 * Many segments drawn from a few templates: long runs of equal scores, so whole buckets are
 * ties and the comparator path of the ordering is exercised; ages spread over many half-lives
 * squeeze most scores into the lowest bucket.
 */
export const tiedSegmentsArb = (max = 400): fc.Arbitrary<Segment[]> =>
  fc.array(
    fc.record({
      id: fc.constantFrom("t", "u"),
      content: fc.constant(""),
      tokenCost: fc.constantFrom(10, 100),
      lastAccessed: fc.oneof(
        fc.constant(NOW),
        fc.integer({ min: 0, max: 60 }).map((k) => NOW - k * 3_600_000),
      ),
      accessCount: fc.constantFrom(0, 3),
      pinned: fc.integer({ min: 0, max: 9 }).map((k) => k === 0),
    }),
    { minLength: 30, maxLength: max },
  );
