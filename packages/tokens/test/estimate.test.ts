import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { classCounts, estimateWeights, rawTiktoken } from "@cc/test-support/tokens";
import { estimateCounter, estimateTokens, type Encoding } from "@cc/tokens";
import { anyText } from "./corpus/arbitraries.js";
import { calibrationCorpora } from "./corpus/corpora.js";
import { numRuns } from "./corpus/runs.js";

const encodings: readonly Encoding[] = ["o200k_base", "cl100k_base"];
const corpora = calibrationCorpora();

describe.each(encodings)("estimate calibration (%s)", (encoding) => {
  const raw = rawTiktoken(encoding);
  const estimate = estimateCounter({ encoding });
  afterAll(() => raw.dispose());

  it.each([...corpora.keys()])("is never more than 10% low in total on %s, and not wildly high", (corpus) => {
    const texts = corpora.get(corpus)!;
    const exact = texts.reduce((s, t) => s + raw.count(t), 0);
    const est = texts.reduce((s, t) => s + estimate.count(t), 0);
    expect(est).toBeGreaterThanOrEqual(exact * 0.9);
    expect(est).toBeLessThanOrEqual(exact * 1.2);
  });
});

describe("estimateTokens", () => {
  it("is a non-negative integer, 0 only for empty text, and sub-additive under concatenation", () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        const n = estimateTokens(a);
        expect(Number.isInteger(n)).toBe(true);
        expect(n >= 0).toBe(true);
        expect(n === 0).toBe(a.length === 0);
        expect(estimateTokens(a + b)).toBeLessThanOrEqual(estimateTokens(a) + estimateTokens(b) + 1);
      }),
      { numRuns },
    );
  });

  it("counts every UTF-16 unit in exactly one class (a surrogate pair once, as astral)", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const c = classCounts(text);
        const units = c.letters + c.digits + c.punct + c.space + c.cjk + c.otherBmp + c.astral * 2;
        expect(units).toBe(text.length);
      }),
      { numRuns },
    );
    expect(classCounts("😀\ud800")).toMatchObject({ astral: 1, otherBmp: 1 });
  });

  it("does not under-count CJK and emoji the way bytes/4 or chars/4 do", () => {
    const raw = rawTiktoken("o200k_base");
    try {
      for (const text of ["これは日本語の文章です。", "我们今天讨论上下文压缩的问题。", "🎉🚀🔥👍🏽👨‍👩‍👧‍👦"]) {
        const exact = raw.count(text);
        expect(estimateTokens(text)).toBeGreaterThanOrEqual(exact * 0.9);
        expect(Math.ceil(text.length / 4)).toBeLessThan(exact * 0.9);
      }
    } finally {
      raw.dispose();
    }
  });

  it("Go original defect 9: counts characters, not bytes (ééé is three letters' worth, not six bytes)", () => {
    // The Go original fell back to byte length: "ééé" (6 UTF-8 bytes) → 2 tokens by bytes/4.
    expect(classCounts("ééé")).toMatchObject({ otherBmp: 3 });
    expect(estimateTokens("ééé")).toBe(Math.ceil(3 * estimateWeights.o200k_base.otherBmp));
  });
});
