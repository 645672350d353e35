// compactChecked / rankChecked: bad input — wrong types, throwing getters, proxies whose traps
// throw — is a typed Left naming the index and field; nothing here ever throws.
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { compact, compactChecked, ensureSegmentsValid, rank, rankChecked, type Segment } from "../src/index.js";
import { NOW, numRuns, segmentArb } from "./arbitraries.js";

const options = { now: () => NOW };

/** A segment whose `field` getter throws. */
const throwingAt = (field: string, base: Record<string, unknown> = { id: "t", content: "x" }): Segment => {
  const s = { ...base };
  Object.defineProperty(s, field, {
    get: () => {
      throw new Error(`no ${field}`);
    },
    enumerable: true,
  });
  return s as unknown as Segment;
};

/** A proxy whose traps throw for every string key (symbol keys answer, so fast-check can hold it). */
const hostile = (): object =>
  new Proxy(
    {},
    {
      get: (t, k) => {
        if (typeof k === "string") throw new Error("get trap");
        return Reflect.get(t, k);
      },
      has: (t, k) => {
        if (typeof k === "string") throw new Error("has trap");
        return Reflect.has(t, k);
      },
      ownKeys: () => {
        throw new Error("ownKeys trap");
      },
      getOwnPropertyDescriptor: (t, k) => {
        if (typeof k === "string") throw new Error("descriptor trap");
        return Reflect.getOwnPropertyDescriptor(t, k);
      },
    },
  );

describe("compactChecked and rankChecked", () => {
  it.each(["id", "content", "tokenCost", "pinned", "lastAccessed", "turn"])(
    "a segment whose %s getter throws is Left naming its index and field",
    (field) => {
      const segments = [{ id: "a", content: "aaaa" }, throwingAt(field), { id: "b", content: "bbbb" }];
      const lefts = [compactChecked(segments, { maxTokens: 1 }, options), rankChecked(segments, options)].map((r) =>
        E.isLeft(r) ? r.left : undefined,
      );
      for (const left of lefts) {
        expect(left?._tag).toBe("InvalidInput");
        expect(left?.problems[0]).toMatchObject({ index: 1, field, path: `[1].${field}` });
        expect(left?.problems[0]?.message).toContain(`no ${field}`);
      }
    },
  );

  it("a bad target or bad options is Left<InvalidOptions> naming the field", () => {
    const segments = [{ id: "a", content: "aaaa" }];
    const target = throwingAt("maxTokens", {}) as unknown as { maxTokens: number };
    const t = compactChecked(segments, target, options);
    expect(
      E.isLeft(t) &&
        t.left._tag === "InvalidOptions" &&
        t.left.subject === "eviction target" &&
        t.left.problems[0]?.field === "maxTokens",
    ).toBe(true);
    const o = rankChecked(segments, { ...options, costWeight: Number.NaN });
    expect(E.isLeft(o) && o.left._tag === "InvalidOptions" && o.left.problems[0]?.path === "costWeight").toBe(true);
  });

  it("valid input gives exactly what compact and rank give", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(segmentArb, { selector: (s) => s.id, maxLength: 7 }),
        fc.integer({ min: 0, max: 3000 }),
        (segments, maxTokens) => {
          const c = compactChecked(segments, { maxTokens }, options);
          expect(c).toEqual(E.right(compact(segments, { maxTokens }, options)));
          expect(rankChecked(segments, options)).toEqual(E.right(rank(segments, options)));
        },
      ),
      { numRuns },
    );
  });

  it("plain compact reads a throwing or missing target as no budget instead of throwing", () => {
    const segments = [{ id: "a", content: "aaaa" }];
    const target = throwingAt("maxTokens", {}) as unknown as { maxTokens: number };
    expect(compact(segments, target, options).evict).toEqual([]);
    expect(compact(segments, null as unknown as { maxTokens: number }, options).budgetMet).toBe(true);
  });
});

/** Anything: plain values, records, arrays, throwing getters, proxies whose traps throw. */
const anything: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.anything(),
    fc.constant(null),
    fc
      .constantFrom("id", "content", "tokenCost", "pinned", "kind", "turn", "createdAt", "accessCount")
      .map((f) => throwingAt(f)),
    fc.constant(0).map(hostile),
    fc.dictionary(
      fc.constantFrom("id", "content", "tokenCost", "pinned", "kind", "maxTokens", "minKeep", "now", "costWeight"),
      tie("value"),
      { maxKeys: 4 },
    ),
    fc.array(tie("value"), { maxLength: 4 }),
  ),
})).value;

describe("never throws", () => {
  it("compact, rank, their checked forms and validation on arbitrary values", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(anything, { maxLength: 6 }), anything),
        anything,
        anything,
        (segments, target, opts) => {
          const s = segments as readonly Segment[];
          const t = target as { maxTokens: number };
          const o = opts as typeof options;
          expect(() => ensureSegmentsValid(s)).not.toThrow();
          expect(() => compactChecked(s, t, o)).not.toThrow();
          expect(() => rankChecked(s, o)).not.toThrow();
          if (Array.isArray(segments)) {
            expect(() => compact(s, t, options)).not.toThrow();
            expect(() => rank(s, options)).not.toThrow();
          }
        },
      ),
      { numRuns },
    );
  });
});

describe("validation of many bad segments", () => {
  it("reads each field once per segment, describes the first 100 bad segments and counts the rest", () => {
    let reads = 0;
    const n = 5000;
    const segments = Array.from({ length: n }, (_, i) =>
      Object.defineProperty({ content: "x" }, "id", {
        get: () => {
          reads++;
          throw new Error(`bad ${i}`);
        },
        enumerable: true,
      }),
    );
    const r = ensureSegmentsValid(segments);
    expect(E.isLeft(r)).toBe(true);
    if (E.isRight(r)) return;
    expect(r.left.problems).toHaveLength(100);
    expect(r.left.problems[99]?.path).toBe("[99].id");
    expect(r.left.more).toBe(n - 100);
    // One read per segment, plus one for each of the 100 described again.
    expect(reads).toBe(n + 100);
  });
});
