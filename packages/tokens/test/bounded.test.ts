import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { countChunked, defaultChunkLimits, hasLongRun, planChunks, rawTiktoken } from "@cc/test-support/tokens";
import { tiktokenCounter } from "@cc/tokens";
import { anyText } from "./corpus/arbitraries.js";
import { pathological } from "./corpus/generate.js";
import { o200kPieces } from "./corpus/pretokenize.js";
import { numRuns } from "./corpus/runs.js";

const { maxPieceChars, maxChunkChars } = defaultChunkLimits;

describe("bounded work on pathological input", () => {
  const inputs = pathological(7, 1_000_000);

  it.each([...inputs.keys()])("1 MB of %s reaches the encoder in bounded pieces and chunks", (name) => {
    const text = inputs.get(name)!;
    const seen: string[] = [];
    const total = countChunked((chunk) => (seen.push(chunk), chunk.length), text);
    expect(total).toBe(text.length); // every code unit went to the encoder exactly once
    expect(seen.join("")).toBe(text);
    const longestChunk = seen.reduce((m, c) => Math.max(m, c.length), 0);
    const longestPiece = seen.reduce((m, c) => o200kPieces(c).reduce((mm, p) => Math.max(mm, p.length), m), 0);
    expect(longestChunk).toBeLessThanOrEqual(maxChunkChars);
    expect(longestPiece).toBeLessThanOrEqual(maxPieceChars + 1);
    // Near-linear: the work bound Σ piece² is at most (maxPieceChars + 1) × length.
    const work = seen.reduce((s, c) => s + o200kPieces(c).reduce((w, p) => w + p.length * p.length, 0), 0);
    expect(work).toBeLessThanOrEqual((maxPieceChars + 1) * text.length);
  });

  it("unchunked, the same inputs would hand the encoder one piece of the whole megabyte", () => {
    expect(o200kPieces(inputs.get("repeated 'a'")!)).toEqual(["a".repeat(1_000_000)]);
  });
});

describe("the whole-text fast path", () => {
  it("no long run proves no piece exceeds the limit (so the text may go to the encoder whole)", () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 2, max: 40 }), (text, limit) => {
        if (!hasLongRun(text, limit)) for (const p of o200kPieces(text)) expect(p.length).toBeLessThanOrEqual(limit);
      }),
      { numRuns },
    );
  });

  it.each([
    ["punctuation glued by U+FEFF (whitespace to JavaScript, not to the tokenizer)", "!\ufeff".repeat(50_000)],
    ["o200k punctuation tail of newlines and slashes", `.${"\n/".repeat(50_000)}`],
    ["U+0085 runs (whitespace to the tokenizer, not to JavaScript)", "\u0085".repeat(100_000)],
  ])("%s still reaches the encoder in bounded pieces", (_name, text) => {
    const seen: string[] = [];
    countChunked((chunk) => (seen.push(chunk), chunk.length), text);
    expect(seen.join("")).toBe(text);
    const longestPiece = seen.reduce((m, c) => o200kPieces(c).reduce((mm, p) => Math.max(mm, p.length), m), 0);
    expect(longestPiece).toBeLessThanOrEqual(maxPieceChars + 1);
  });
});

describe("planChunks invariants", () => {
  const limitsArb = fc.record({
    maxPieceChars: fc.integer({ min: 2, max: 64 }),
    maxChunkChars: fc.integer({ min: 66, max: 300 }),
  });

  it("bounds cover the text in order, never split a surrogate pair, and respect both limits", () => {
    fc.assert(
      fc.property(anyText, limitsArb, (text, limits) => {
        const { bounds, forced } = planChunks(text, limits);
        expect(bounds[0]).toBe(0);
        expect(bounds[bounds.length - 1]).toBe(text.length);
        for (let k = 1; k < bounds.length; k++) {
          const [a, b] = [bounds[k - 1]!, bounds[k]!];
          expect(b).toBeGreaterThan(a);
          expect(b - a).toBeLessThanOrEqual(limits.maxChunkChars);
          const hi = text.charCodeAt(b - 1);
          const lo = text.charCodeAt(b);
          expect(hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff).toBe(false);
        }
        for (const f of forced) expect(bounds).toContain(f);
        for (let k = 1; k < bounds.length; k++) {
          for (const p of o200kPieces(text.slice(bounds[k - 1], bounds[k])))
            expect(p.length).toBeLessThanOrEqual(limits.maxPieceChars + 1);
        }
      }),
      { numRuns },
    );
  });

  it("a text with no run longer than the piece limit is never cut by force", () => {
    expect(planChunks("word ".repeat(10_000)).forced).toEqual([]);
    expect(planChunks("a".repeat(maxPieceChars)).forced).toEqual([]);
    expect(planChunks("a".repeat(maxPieceChars + 1)).forced).toEqual([maxPieceChars]);
  });

  it("empty text is one empty plan", () => {
    expect(planChunks("")).toEqual({ bounds: [0], forced: [] });
  });
});

describe("accuracy cost of forced cuts (vs raw, at sizes raw finishes quickly)", () => {
  const raw = rawTiktoken("o200k_base");
  const counter = tiktokenCounter();
  afterAll(() => {
    counter.dispose();
    raw.dispose();
  });
  const small = pathological(11, 8192);

  it.each([...small.keys()])("%s: chunked count within 3% of raw and never below raw by more than 1%", (name) => {
    const text = small.get(name)!;
    const exact = raw.count(text);
    const chunked = counter.count(text);
    expect(Math.abs(chunked - exact)).toBeLessThanOrEqual(Math.ceil(exact * 0.03));
    expect(chunked).toBeGreaterThanOrEqual(Math.floor(exact * 0.99));
  });
});
