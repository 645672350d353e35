import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import {
  callback,
  decodeWith,
  didYouMean,
  intIn,
  invalid,
  MAX_PROBLEMS,
  numberIn,
  objectCodec,
  positiveInt,
  withMethods,
} from "@cc/validate";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = runsFor(200, 1000);
const Opts = objectCodec("Opts", { maxTokens: positiveInt }, { maxRetries: intIn(0, 20), ratio: numberIn(0, 1) });
const decode = decodeWith(Opts, "InvalidOptions", "test options");

describe("objectCodec + decodeWith", () => {
  it("accepts valid input and returns the same object", () => {
    const input = { maxTokens: 5, ratio: 0.5 };
    const r = decode(input);
    expect(E.isRight(r) && r.right).toBe(input);
  });

  it("rejects an unknown key with a did-you-mean, and lists the expected fields otherwise", () => {
    const r = decode({ maxTokns: 5 });
    expect(E.isLeft(r) && r.left.message).toContain("maxTokns: unknown field (did you mean maxTokens?)");
    const far = decode({ maxTokens: 5, zzz: 1 });
    expect(E.isLeft(far) && far.left.message).toContain(
      "zzz: unknown field (expected one of maxTokens, maxRetries, ratio)",
    );
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 21, 1.5, "3"])(
    "rejects maxRetries %s by name",
    (bad) => {
      const r = decode({ maxTokens: 1, maxRetries: bad });
      expect(E.isLeft(r)).toBe(true);
      if (E.isLeft(r)) {
        expect(r.left).toMatchObject({ _tag: "InvalidOptions", subject: "test options", more: 0 });
        expect(r.left.problems[0]?.path).toBe("maxRetries");
        expect(r.left.message).toContain("expected an integer in [0, 20]");
      }
    },
  );

  it("a getter that throws is a problem, not a throw", () => {
    const evil = {
      maxTokens: 1,
      get ratio(): number {
        throw new Error("boom");
      },
    };
    const r = decode(evil);
    expect(E.isLeft(r) && r.left.message).toContain("ratio: reading the field threw (boom)");
  });

  it("non-objects are named", () => {
    for (const bad of [null, undefined, [], "x", 3]) expect(E.isLeft(decode(bad))).toBe(true);
  });

  it("caps the problems it lists and counts the rest", () => {
    const many = t.readonlyArray(positiveInt);
    const r = decodeWith(many, "InvalidInput", "numbers")(Array.from({ length: 500 }, (_, i) => -i - 1));
    expect(E.isLeft(r)).toBe(true);
    if (E.isLeft(r)) {
      expect(r.left.problems).toHaveLength(MAX_PROBLEMS);
      expect(r.left.more).toBe(400);
      expect(r.left.message).toContain("… and 400 more");
    }
    expect(
      invalid(
        "InvalidOptions",
        "x",
        Array.from({ length: 150 }, (_, i) => `p${i}`),
      ).more,
    ).toBe(50);
  });

  it("property: didYouMean suggests a known name for any one-edit typo of it, and never an unrelated one", () => {
    const known = ["maxTokens", "preserveLast", "threshold", "namespace", "concurrency"];
    fc.assert(
      fc.property(fc.constantFrom(...known), fc.nat(), fc.string({ minLength: 1, maxLength: 1 }), (name, at, ch) => {
        const i = at % name.length;
        const typo = name.slice(0, i) + (ch === name[i] ? "" : ch) + name.slice(i + 1);
        expect(didYouMean(typo, known)).toBeDefined();
        expect(didYouMean("qqqqqqqqqqqqqqqqqq", known)).toBeUndefined();
      }),
      { numRuns: runs },
    );
  });
});

describe("callback and withMethods (typed leaves for collaborators)", () => {
  interface Counter {
    count(text: string): number;
  }
  const Deps = objectCodec(
    "Deps",
    { counter: withMethods<Counter>("TokenCounter", ["count"]) },
    { now: callback<() => number>() },
  );
  const decodeDeps = decodeWith(Deps, "InvalidOptions", "deps");

  it("accepts an object with the methods and a function, as given", () => {
    const deps = { counter: { count: (s: string) => s.length }, now: () => 7 };
    const r = decodeDeps(deps);
    expect(E.isRight(r) && r.right).toBe(deps);
    if (E.isRight(r)) expect(r.right.counter.count("abc") + (r.right.now?.() ?? 0)).toBe(10);
  });

  it.each([null, 3, "count", [], {}, { count: 1 }])("rejects counter %j by name, listing the methods", (bad) => {
    const r = decodeDeps({ counter: bad });
    expect(E.isLeft(r) && r.left.problems[0]).toMatchObject({
      path: "counter",
      message: expect.stringContaining("an object with count"),
    });
  });

  it.each([null, 0, "Date.now", {}])("rejects now %j by name", (bad) => {
    const r = decodeDeps({ counter: { count: () => 0 }, now: bad });
    expect(E.isLeft(r) && r.left.problems[0]).toMatchObject({
      path: "now",
      message: expect.stringContaining("expected a function"),
    });
  });

  it("names a custom expectation", () => {
    const Store = withMethods<{ close(): void }>("Store", ["close"], "a store (openStore())");
    const r = decodeWith(Store, "InvalidOptions", "store")(42);
    expect(E.isLeft(r) && r.left.message).toContain("expected a store (openStore()), got 42");
  });
});
