import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { classCounts, rawTiktoken } from "@cc/test-support/tokens";
import { estimateCounter, type Encoding } from "@cc/tokens";
import { encodedCorpora } from "./corpus/corpora.js";
import { encodedKinds, encodedText } from "./corpus/generate.js";
import { numRuns } from "./corpus/runs.js";

const encodings: readonly Encoding[] = ["o200k_base", "cl100k_base"];

describe.each(encodings)("the estimate on encoded data (%s)", (encoding) => {
  const raw = rawTiktoken(encoding);
  const estimate = estimateCounter({ encoding });
  afterAll(() => raw.dispose());

  it.each([...encodedCorpora().keys()])(
    "%s: no sample of 20 tokens or more is over 10 %% low (was up to 60 %% low)",
    (kind) => {
      const lows = encodedCorpora()
        .get(kind)!
        .filter((t) => raw.count(t) >= 20 && estimate.count(t) < raw.count(t) * 0.9);
      expect(lows).toEqual([]);
    },
  );

  it("property: any generated encoded text of two lines or more (and 20 tokens or more), any seed, is never over 10 % low", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...encodedKinds),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 160, max: 4000 }),
        (kind, seed, chars) => {
          const text = encodedText(kind, seed, chars);
          const exact = raw.count(text);
          if (exact >= 20) expect(estimate.count(text)).toBeGreaterThanOrEqual(exact * 0.9);
        },
      ),
      { numRuns: Math.min(numRuns, 300) },
    );
  });
});

describe("seams", () => {
  it("count letter/digit seams and case changes inside ASCII runs, and spaces before digits", () => {
    expect(classCounts("hello world")).toMatchObject({ mixes: 0, spaceDigits: 0 });
    expect(classCounts("h4x0r")).toMatchObject({ mixes: 4, caseChanges: 0 });
    expect(classCounts("aB1")).toMatchObject({ mixes: 1, caseChanges: 1 });
    expect(classCounts("a-1 2")).toMatchObject({ mixes: 0, spaceDigits: 1 });
    expect(classCounts("é1")).toMatchObject({ mixes: 0 });
  });
});
