// The tsvector text form the PostgreSQL index loads its postings cache from.
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseTsvector } from "../src/postgres-cache.js";
import { tsvectorLiteral } from "../src/query.js";
import { runs } from "./support/contract.js";

describe("parseTsvector", () => {
  it("splits lexemes by weight: A is the summary, unweighted (D) or none the content, both when both", () => {
    expect(parseTsvector("'app':2A 'main':1A,4 'py':3")).toEqual({ summary: ["app", "main"], content: ["main", "py"] });
    expect(parseTsvector("'x' 'y':5D")).toEqual({ summary: [], content: ["x", "y"] });
    expect(parseTsvector("'b':1B 'c':2C")).toEqual({ summary: [], content: ["b", "c"] });
    expect(parseTsvector("")).toEqual({ summary: [], content: [] });
  });

  it("reads quoted lexemes: a doubled quote and a backslash escape", () => {
    expect(parseTsvector("'it''s':1A 'a\\\\b':2 'spa ce':3")).toEqual({
      summary: ["it's"],
      content: ["a\\b", "spa ce"],
    });
  });

  it("property: reads back what tsvectorLiteral wrote, for terms of our tokenizer's alphabet", () => {
    const term = fc.stringMatching(/^[a-z0-9éü数]{1,12}$/);
    fc.assert(
      fc.property(fc.uniqueArray(term, { maxLength: 30 }), (terms) => {
        expect(parseTsvector(tsvectorLiteral(terms, "A"))).toEqual({ summary: terms, content: [] });
        expect(parseTsvector(tsvectorLiteral(terms))).toEqual({ summary: [], content: terms });
      }),
      { numRuns: runs(200) },
    );
  });
});
