import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { chunksOf, planChunks, rawTiktoken } from "@cc/test-support/tokens";
import { tiktokenCounter, type Encoding } from "@cc/tokens";
import { anyText } from "./corpus/arbitraries.js";
import { numRuns } from "./corpus/runs.js";
import { trajectoryTexts } from "./corpus/trajectories.js";

const encodings: readonly Encoding[] = ["o200k_base", "cl100k_base"];
const raws = new Map(encodings.map((e) => [e, rawTiktoken(e)]));
const counters = new Map(encodings.map((e) => [e, tiktokenCounter({ encoding: e })]));
afterAll(() => {
  for (const c of counters.values()) c.dispose();
  for (const r of raws.values()) r.dispose();
});

describe.each(encodings)("exact counts (%s)", (encoding) => {
  const raw = raws.get(encoding)!;
  const counter = counters.get(encoding)!;

  it("equals raw encode_ordinary on every shared trajectory message", () => {
    const texts = trajectoryTexts();
    expect(texts.length).toBeGreaterThan(200);
    const mismatches = texts
      .filter((t) => counter.count(t.text) !== raw.count(t.text))
      .map((t) => `${t.file}#${t.index}`);
    expect(mismatches).toEqual([]);
    // None of them needs a forced cut: the default limits sit well above their longest runs.
    expect(texts.filter((t) => planChunks(t.text).forced.length > 0)).toEqual([]);
  });

  it("equals raw encode_ordinary on random strings (lone surrogates, emoji, CJK, special tokens)", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const plan = planChunks(text);
        if (plan.forced.length === 0) expect(counter.count(text)).toBe(raw.count(text));
      }),
      { numRuns },
    );
  });

  it("cutting at every safe position keeps the sum equal to the whole", () => {
    // maxChunkChars 1 makes every safe cut a chunk boundary; the huge piece limit forbids forced cuts.
    const limits = { maxPieceChars: 1e9, maxChunkChars: 1 };
    fc.assert(
      fc.property(anyText, (text) => {
        const plan = planChunks(text, limits);
        expect(plan.forced).toEqual([]);
        const sum = chunksOf(text, plan).reduce((s, c) => s + raw.count(c), 0);
        expect(sum).toBe(raw.count(text));
      }),
      { numRuns },
    );
  });

  it("counts special-token strings as ordinary text instead of throwing", () => {
    expect(counter.count("<|endoftext|>")).toBe(raw.count("<|endoftext|>"));
    expect(counter.count("<|endoftext|>")).toBeGreaterThan(1);
    expect(counter.count("a<|endofprompt|>b<|fim_prefix|>")).toBe(raw.count("a<|endofprompt|>b<|fim_prefix|>"));
  });

  it("handles empty, whitespace-only and odd Unicode input", () => {
    expect(counter.count("")).toBe(0);
    for (const s of ["   ", "\n\n\n", "\ud800", "\udfff\ud800", "👨‍👩‍👧‍👦", "中文字符", "e\u0301"])
      expect(counter.count(s)).toBe(raw.count(s));
  });

  it("is exact on long ordinary text that spans many chunks", () => {
    const text = trajectoryTexts()
      .map((t) => t.text)
      .join("\n");
    expect(text.length).toBeGreaterThan(100_000);
    expect(planChunks(text).bounds.length).toBeGreaterThan(10);
    expect(counter.count(text)).toBe(raw.count(text));
  });
});
