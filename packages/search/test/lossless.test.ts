import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ESCAPED, decodeText, encodeText, isPlainJson, isPlainText, searchable } from "../src/lossless.js";
import { tokenize } from "../src/query.js";
import { runs } from "./support/contract.js";
import { anyString } from "./support/lossless-contract.js";

describe("lossless text encoding", () => {
  it("property: decode(encode(s)) === s, the stored form is plain, and plain strings are stored as they are", () => {
    fc.assert(
      fc.property(anyString, (s) => {
        const stored = encodeText(s);
        expect(decodeText(stored)).toBe(s);
        expect(isPlainText(stored)).toBe(true);
        if (isPlainText(s) && !s.startsWith(ESCAPED)) expect(stored).toBe(s);
      }),
      { numRuns: runs(2000) },
    );
  });

  it("property: the encoding is injective", () => {
    fc.assert(
      fc.property(anyString, anyString, (a, b) => {
        expect(encodeText(a) === encodeText(b)).toBe(a === b);
      }),
      { numRuns: runs(2000) },
    );
  });

  it("keeps look-alikes apart: lone surrogates, U+FFFD, NUL, space, U+FFFF-led text", () => {
    const xs = [
      "a\uD800",
      "a\uDC00",
      "a\uFFFD",
      "a\u0000",
      "a ",
      "\uFFFF",
      '\uFFFF"\uFFFF"',
      "\uFFFF\uFFFF",
      '"\uFFFF"',
    ];
    expect(new Set(xs.map(encodeText)).size).toBe(xs.length);
    expect(encodeText("a\u0000")).toBe('\uFFFF"a\\u0000"');
    expect(encodeText("x\uD800")).toBe('\uFFFF"x\\ud800"');
    expect(encodeText("plain 数据 🔥")).toBe("plain 数据 🔥");
  });

  it("property: the searchable copy has the same length, is plain, and tokenises like the original", () => {
    fc.assert(
      fc.property(anyString, (s) => {
        const clean = searchable(s);
        expect(clean.length).toBe(s.length);
        expect(isPlainText(clean)).toBe(true);
        expect(tokenize(clean)).toEqual(tokenize(s));
      }),
      { numRuns: runs(1000) },
    );
    expect(searchable("a\u0000b\uD800c\uDC00🔥")).toBe("a b\uFFFDc\uFFFD🔥");
  });

  it("finds NUL and lone surrogates in metadata keys and values, at any depth", () => {
    expect(isPlainJson({ a: [1, "x", { b: null }] })).toBe(true);
    expect(isPlainJson({ "k\u0000": 1 })).toBe(false);
    expect(isPlainJson({ a: [{ b: "\uD800" }] })).toBe(false);
    expect(isPlainJson("\uFFFF")).toBe(true);
  });
});
