// Keeps the docs honest: every runnable TypeScript snippet in a README (a ```ts block with an
// import) must appear, line for line, in a test file of the same package, where it is executed.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const readmes = ["packages", "examples"].flatMap((group) =>
  readdirSync(join(root, group)).flatMap((name) => {
    const dir = join(root, group, name);
    const candidates = [join(dir, "README.md"), join(dir, "src", "session", "README.md")];
    return candidates.filter((f) => exists(f)).map((file) => ({ file, testDir: join(dir, "test") }));
  }),
);

function exists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function walk(dir: string): string[] {
  if (!exists(dir) && !isDir(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return isDir(p) ? walk(p) : p.endsWith(".ts") ? [p] : [];
  });
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The ```ts blocks of a markdown text that import something (runnable examples, not API listings). */
export function runnableSnippets(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
  return blocks.filter((b) => /^import\s/m.test(b));
}

const normalise = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** True when every line of `snippet` occurs in `source` in the same order, contiguously. */
export function containsSnippet(source: string, snippet: string): boolean {
  // Import declarations (one line or wrapped by the formatter) differ between a README and a test.
  const want = normalise(snippet.replace(/^import\s[^;]*?\sfrom\s+["'][^"']+["'];?$/gms, ""));
  const have = normalise(source);
  if (want.length === 0) return true;
  for (let i = 0; i + want.length <= have.length; i++) {
    if (want.every((l, k) => have[i + k] === l)) return true;
  }
  return false;
}

/**
 * What is wrong with a markdown text's structure: a heading (`#`, `##`, …) that occurs twice
 * outside code blocks (a section pasted twice), or a code block still open at the end (a fence
 * pasted without its pair).
 */
export function structureProblems(markdown: string): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    if (inCode || !/^#{1,6} /.test(line)) continue;
    if (seen.has(line)) problems.push(`repeated heading: ${line}`);
    seen.add(line);
  }
  if (inCode) problems.push("a code block is never closed");
  return problems;
}

describe("README snippets run as tests", () => {
  it("finds the package READMEs", () => {
    expect(readmes.length).toBeGreaterThanOrEqual(5);
  });
  it("detects a snippet that is missing from the tests", () => {
    expect(containsSnippet("a();\nb();\nc();", "b();\nc();")).toBe(true);
    expect(containsSnippet("a();\nb();\nc();", "c();\nb();")).toBe(false);
    expect(containsSnippet("x();\na();\nb();", 'import {\n  a,\n  b,\n} from "m";\na();\nb();')).toBe(true);
    expect(containsSnippet("a();\nb();", 'import {\n  a,\n  b,\n} from "m";\nb();\na();')).toBe(false);
  });
  it("detects a section pasted twice", () => {
    expect(structureProblems("# a\n## b\ntext\n## c\n## b\n")).toEqual(["repeated heading: ## b"]);
    expect(structureProblems("# a\n```sh\n# a comment\n```\n## b\n")).toEqual([]);
    expect(structureProblems("# a\ntext\n```\n## b\n")).toEqual(["a code block is never closed"]);
  });
  for (const file of [join(root, "README.md"), join(root, "bench", "README.md")]) {
    it(`${relative(root, file)}: no section repeats and every code block is closed`, () => {
      expect(structureProblems(readFileSync(file, "utf8"))).toEqual([]);
    });
  }
  for (const { file, testDir } of readmes) {
    it(`${relative(root, file)}: no section repeats and every code block is closed`, () => {
      expect(structureProblems(readFileSync(file, "utf8"))).toEqual([]);
    });
    const snippets = runnableSnippets(readFileSync(file, "utf8"));
    it(`${relative(root, file)}: ${snippets.length} runnable snippet(s) are executed by a test`, () => {
      const sources = walk(testDir).map((f) => readFileSync(f, "utf8"));
      snippets.forEach((snippet, i) => {
        const found = sources.some((s) => containsSnippet(s, snippet));
        expect(
          found,
          `snippet ${i + 1} of ${relative(root, file)} is not in any test under ${relative(root, testDir)}`,
        ).toBe(true);
      });
    });
  }
});
