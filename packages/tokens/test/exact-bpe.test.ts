import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { loadRanks, mergeCountHeap, mergeCountScan, rawTiktoken, TokenTrie, utf8Bytes } from "@cc/test-support/tokens";
import { tiktokenCounter, type Encoding } from "@cc/tokens";
import { anyText } from "./corpus/arbitraries.js";
import {
  digitRuns,
  emojiRuns,
  exactnessText,
  letterRuns,
  mixedScripts,
  surrogates,
  whitespaceRuns,
} from "./corpus/exactness.js";
import { pathological } from "./corpus/generate.js";
import { rng } from "./corpus/random.js";
import { numRuns } from "./corpus/runs.js";

const encodings: readonly Encoding[] = ["o200k_base", "cl100k_base"];

describe.each(encodings)("the exact counter equals raw encode_ordinary on every string (%s)", (encoding) => {
  const raw = rawTiktoken(encoding);
  const counter = tiktokenCounter({ encoding });
  afterAll(() => {
    counter.dispose();
    raw.dispose();
  });
  const same = (text: string): void => {
    expect(counter.count(text)).toBe(raw.count(text));
  };

  it("a 1,700-digit run (cut by three-digit groups before: +4 tokens)", () => {
    const r = rng(17);
    same(Array.from({ length: 1700 }, () => String(r.int(10))).join(""));
    same("1".repeat(1700));
  });

  it("a long whitespace run holding newlines", () => {
    same(" \n \n\n   \n".repeat(400));
    same(`x${" ".repeat(700)}\n${" ".repeat(700)}y`);
  });

  it("random letters with no whitespace (cut before: +0.13 %)", () => {
    same(pathological(11, 8192).get("random letters, no whitespace")!);
  });

  it("short pieces the ASCII scanner ends that hold a non-ASCII letter (cl100k's 'ſ folds to 's)", () => {
    for (const t of ["'ſ ", "x'ſ", "'ſt'K", "aſ'ſ'S", "'K'ſ"]) same(t);
  });

  it("a piece counts the same on its first sighting, its second (enters the cache) and later ones (read from it)", () => {
    const r = rng(23);
    const letters = (n: number): string =>
      Array.from({ length: n }, () => String.fromCharCode(97 + r.int(26))).join("");
    // Short and long ASCII pieces (in place; 25–128 chars cached; longer never), CJK and mixed pieces (by the pattern).
    const pieces = [
      letters(7),
      letters(30),
      letters(128),
      letters(129),
      letters(400),
      "中文字符测试一下",
      "naïveté",
      "Привет",
      `x${"é".repeat(90)}`,
    ];
    const text = pieces.join(" ");
    const expected = raw.count(text);
    for (let sighting = 0; sighting < 4; sighting++) expect(counter.count(text)).toBe(expected);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces, ...pieces.map((p) => ` ${p}`)), { maxLength: 30 }), (parts) =>
        same(parts.join("")),
      ),
      { numRuns },
    );
  });

  it("counts right across the doorkeeper's and the cache's clearings (150,000 distinct pieces, three times)", () => {
    const r = rng(29);
    const words = Array.from({ length: 150_000 }, () =>
      Array.from({ length: 25 + r.int(6) }, () => String.fromCharCode(97 + r.int(26))).join(""),
    );
    const text = words.join(" ");
    const expected = raw.count(text);
    for (let sighting = 0; sighting < 3; sighting++) expect(counter.count(text)).toBe(expected);
  });

  it.each([...pathological(5, 6000).keys()])("pathological input: %s", (name) => {
    same(pathological(5, 6000).get(name)!);
  });

  it.each([
    ["digit runs", digitRuns],
    ["whitespace runs with newlines", whitespaceRuns],
    ["letter runs without whitespace", letterRuns],
    ["mixed scripts and combining marks", mixedScripts],
    ["emoji (ZWJ sequences, flags)", emojiRuns],
    ["lone surrogates", surrogates],
    ["concatenations of every class and special-token look-alikes", exactnessText],
    ["any text", anyText],
  ] as const)("property: %s", (_name, arb) => {
    fc.assert(fc.property(arb, same), { numRuns });
  });
});

describe("heap merge and scan merge", () => {
  const table = loadRanks("o200k_base");
  const pairs = new TokenTrie(table);

  it("give the same count on any piece (the heap is the scan's O(n log n) twin)", () => {
    fc.assert(
      fc.property(fc.oneof(letterRuns, digitRuns, mixedScripts, anyText), (text) => {
        const bytes = utf8Bytes(text);
        expect(mergeCountHeap(bytes, bytes.length, table, pairs)).toBe(
          mergeCountScan(bytes, bytes.length, table, pairs),
        );
      }),
      { numRuns },
    );
  });

  it("merge a megabyte piece without cutting it", () => {
    const text = pathological(3, 1_000_000).get("random letters, no whitespace")!;
    const counter = tiktokenCounter();
    const n = counter.count(text);
    counter.dispose();
    expect(n).toBeGreaterThan(400_000);
    expect(n).toBeLessThan(600_000);
  });
});
