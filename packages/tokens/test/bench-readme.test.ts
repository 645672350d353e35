import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  renderBenchSection,
  sectionEnd,
  sectionStart,
  withSection,
  type TokensBenchData,
} from "./support/bench-readme.js";

const results = JSON.parse(readFileSync(new URL("../../../bench/results/tokens.json", import.meta.url), "utf8")) as {
  readonly quick: boolean;
  readonly date: string;
  readonly data: TokensBenchData;
};
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("the README's benchmark section", () => {
  it("is what bench/results/tokens.json renders to (a full `bench/tokens.bench.ts` run rewrites both)", () => {
    expect(results.quick).toBe(false);
    expect(withSection(readme, renderBenchSection(results.data, results.date, results.quick))).toBe(readme);
  });

  it("is replaced between its markers only", () => {
    const doc = `a\n${sectionStart}\nold\n${sectionEnd}\nb`;
    expect(withSection(doc, "new")).toBe(`a\n${sectionStart}\nnew\n${sectionEnd}\nb`);
    expect(withSection("no markers", "new")).toBeUndefined();
  });
});
