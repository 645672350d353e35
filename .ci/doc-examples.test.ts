// Every `@example` of packages/*/src type-checks (see doc-examples.ts), and the extraction of
// examples from doc comments finds what a reader sees.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkExamples, examplesOf, type ExampleFailure } from "./doc-examples.js";
import { runsFor } from "./support/runs.js";

const describeFailure = (f: ExampleFailure): string =>
  `${f.file}:${f.line}\n  ${f.code.split("\n").join("\n  ")}\n  -> ${f.messages.join("\n  -> ")}`;

describe("doc examples", () => {
  it("every @example of packages/*/src type-checks", () => {
    const failures = checkExamples();
    expect(
      failures,
      `${failures.length} examples do not type-check:\n\n${failures.map(describeFailure).join("\n\n")}`,
    ).toEqual([]);
  });
});

describe("examplesOf", () => {
  it("finds an example on the tag line, a multi-line one and several in one comment", () => {
    const text = [
      "/** One. @example is not a tag here",
      " *",
      " * @example f(1) // 2",
      " */",
      "export const f = (n: number): number => n + 1;",
      "",
      "/**",
      " * Two.",
      " *",
      " * @example",
      " * const a = g(1);",
      " * const b = g(a);",
      " *",
      " * @example g(0)",
      " * @param n a number",
      " */",
      "export const g = (n: number): number => n * 2;",
    ].join("\n");
    expect(examplesOf("x.ts", text)).toEqual([
      { file: "x.ts", line: 3, code: "f(1) // 2" },
      { file: "x.ts", line: 10, code: "const a = g(1);\nconst b = g(a);" },
      { file: "x.ts", line: 14, code: "g(0)" },
    ]);
  });

  it("ignores comments that are not doc comments and empty examples", () => {
    expect(examplesOf("x.ts", "/* @example f() */\n// @example g()\n/**\n * @example\n * @returns x\n */")).toEqual([]);
  });

  it("returns the code lines of an example as written (property)", () => {
    const line = fc
      .stringMatching(/^[a-z0-9 ();=.,"+]{0,30}$/)
      .map((s) => s.trim())
      .filter((s) => s !== "");
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.nat(5), (lines, before) => {
        const text = `${"\n".repeat(before)}/**\n * Doc.\n *\n * @example\n${lines.map((l) => ` * ${l}`).join("\n")}\n */`;
        expect(examplesOf("x.ts", text)).toEqual([{ file: "x.ts", line: before + 4, code: lines.join("\n") }]);
      }),
      { numRuns: runsFor(100, 300) },
    );
  });
});
