import { estimateCounter } from "@cc/tokens";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clipHeadTail, headOf, safeIndex, tailOf } from "../src/clip.js";
import { truncateToBudget } from "../src/truncate.js";
import { runs } from "../../messages/test/support/conversation.js";

const counter = estimateCounter();
const MARKER = /\n\[… (\d+) chars omitted …\]\n/;

const hasSplitPair = (s: string, at: number): boolean => {
  const before = s.charCodeAt(at - 1);
  const after = s.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
};

describe("clip", () => {
  it("never cuts inside a surrogate pair", () => {
    expect(safeIndex("a😀b", 2)).toBe(1);
    expect(headOf("a😀b", 2)).toBe("a");
    expect(tailOf("a😀b", 2)).toBe("b");
    expect(clipHeadTail("abcdefghij", 2, 2)).toBe("ab\n[… 6 chars omitted …]\nij");
    expect(clipHeadTail("short", 3, 3)).toBe("short");
  });
  it("keeps lone surrogates as data", () => {
    expect(headOf("a\ud800b", 2)).toBe("a\ud800");
  });
});

describe("truncateToBudget", () => {
  it("returns the source unchanged (not cut) when it fits", () => {
    const r = truncateToBudget("hello world", 100, counter);
    expect(r).toEqual({ text: "hello world", cut: false, omittedChars: 0, tokens: counter.count("hello world") });
  });
  it("keeps head and tail with a marker counting what was left out", () => {
    const source = "HEAD " + "x y z ".repeat(2000) + " TAIL";
    const r = truncateToBudget(source, 100, counter);
    expect(r.cut).toBe(true);
    expect(r.tokens).toBeLessThanOrEqual(100);
    expect(r.text.startsWith("HEAD")).toBe(true);
    expect(r.text.endsWith("TAIL")).toBe(true);
    const m = MARKER.exec(r.text);
    expect(Number(m?.[1])).toBe(r.omittedChars);
  });
  it("falls back to a short marker for tiny budgets and to empty for 0, NaN, negative", () => {
    const source = "word ".repeat(500);
    const one = truncateToBudget(source, 1, counter);
    expect(one.tokens).toBeLessThanOrEqual(1);
    expect(one.text.length).toBeGreaterThan(0);
    for (const bad of [0, -3, Number.NaN]) expect(truncateToBudget(source, bad, counter).text).toBe("");
  });
  it("handles CJK, emoji and lone surrogates", () => {
    const source = "日本語のテキスト😀".repeat(300) + "\ud800" + "終わり";
    const r = truncateToBudget(source, 50, counter);
    expect(r.tokens).toBeLessThanOrEqual(50);
    expect(r.text.endsWith("終わり")).toBe(true);
  });

  it("property: fits, is smaller than its source, is surrogate-safe, and is prefix + marker + suffix", () => {
    const text = fc.string({ unit: fc.constantFrom("a", " ", "é", "日", "😀", "\n", "x1", "{}"), maxLength: 600 });
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 200 }), (source, budget) => {
        const sourceTokens = counter.count(source);
        const r = truncateToBudget(source, budget, counter);
        expect(r.tokens).toBeLessThanOrEqual(Math.max(budget, 0));
        expect(r.tokens).toBe(counter.count(r.text));
        if (!r.cut) {
          expect(r.text).toBe(source);
          return;
        }
        expect(r.tokens).toBeLessThan(sourceTokens);
        const m = MARKER.exec(r.text);
        if (m !== null) {
          const head = r.text.slice(0, m.index);
          const tail = r.text.slice(m.index + m[0].length);
          expect(source.startsWith(head)).toBe(true);
          expect(source.endsWith(tail)).toBe(true);
          expect(head.length + tail.length + r.omittedChars).toBe(source.length);
          if (head.length > 0) expect(hasSplitPair(source, head.length)).toBe(false);
          if (tail.length > 0) expect(hasSplitPair(source, source.length - tail.length)).toBe(false);
        }
      }),
      { numRuns: runs },
    );
  });
});
