// The cap on indexed terms that keeps every backend (PostgreSQL's 1 MB tsvector included) agreeing.
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_FIELD_TERM_BYTES, MAX_FIELD_TERMS, distinctTerms, indexedTerms } from "../src/query.js";
import { runs } from "./support/contract.js";

const bytes = (terms: readonly string[]): number => terms.reduce((n, t) => n + Buffer.byteLength(t, "utf8") + 5, 0);

describe("indexedTerms", () => {
  it("property: a first-seen prefix of the distinct terms, within the count and byte caps", () => {
    const word = fc.oneof(
      fc.string({ minLength: 1, maxLength: 70 }),
      fc.constantFrom("数据压缩", "🧠x", "e\u0301", "a".repeat(80)),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 300 }), fc.integer({ min: 1, max: 3 }), (words, repeat) => {
        const text = Array.from({ length: repeat }, () => words.join(" ")).join(" ");
        const capped = indexedTerms(text);
        const all = distinctTerms(text, MAX_FIELD_TERMS);
        expect(all.slice(0, capped.length)).toEqual(capped);
        expect(capped.length).toBeLessThanOrEqual(MAX_FIELD_TERMS);
        expect(bytes(capped)).toBeLessThanOrEqual(MAX_FIELD_TERM_BYTES);
        // Nothing is cut below the caps: the next term (if any) would not have fitted.
        const following = all[capped.length];
        if (following !== undefined)
          expect(capped.length === MAX_FIELD_TERMS || bytes([...capped, following]) > MAX_FIELD_TERM_BYTES).toBe(true);
      }),
      { numRuns: runs(200) },
    );
  });

  it("stops at the byte cap on long distinct terms (two fields stay under PostgreSQL's 1 MB tsvector)", () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `t${i}${"é".repeat(30)}`).join(" ");
    const capped = indexedTerms(text);
    expect(capped.length).toBeLessThan(20_000);
    expect(bytes(capped)).toBeLessThanOrEqual(MAX_FIELD_TERM_BYTES);
    expect(2 * bytes(capped)).toBeLessThan(1_048_575);
  });
});
