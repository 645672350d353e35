import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateCounter, withTokenCost } from "@cc/tokens";
import { anyText } from "./corpus/arbitraries.js";
import { numRuns } from "./corpus/runs.js";

const counter = estimateCounter();

describe("withTokenCost", () => {
  it("fills missing and invalid costs, keeps valid ones, never mutates", () => {
    const items = [
      { id: "a", content: "hello world" },
      { id: "b", content: "kept", tokenCost: 7 },
      { id: "c", content: "nan", tokenCost: Number.NaN },
      { id: "d", content: "negative", tokenCost: -3 },
      { id: "e", content: "inf", tokenCost: Number.POSITIVE_INFINITY },
      { id: "f", content: "frac", tokenCost: 1.5 },
      { id: "a", content: "hello world" },
      { id: "g", content: "", tokenCost: 0 },
    ];
    const frozen = Object.freeze(items.map((i) => Object.freeze({ ...i })));
    const out = withTokenCost(frozen, counter);
    expect(out.map((o) => o.tokenCost)).toEqual([
      counter.count("hello world"),
      7,
      counter.count("nan"),
      counter.count("negative"),
      counter.count("inf"),
      counter.count("frac"),
      counter.count("hello world"),
      0,
    ]);
    expect(out[0]).not.toBe(frozen[0]);
    expect(out.map((o) => o.id)).toEqual(frozen.map((i) => i.id));
    expect(frozen[2]!.tokenCost).toBeNaN();
  });

  it("every output cost is a finite non-negative integer", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ content: anyText, tokenCost: fc.option(fc.double(), { nil: undefined }) }), {
          maxLength: 20,
        }),
        (items) => {
          for (const o of withTokenCost(items, counter))
            expect(Number.isSafeInteger(o.tokenCost) && o.tokenCost >= 0).toBe(true);
        },
      ),
      { numRuns },
    );
  });
});
