// Counts and documents each package's public names (the exports of packages/<name>/src/index.ts,
// types included), using the TypeScript compiler. `--table` prints the README table; the
// public-api test compares the lists with .ci/public-api.json and checks every name has a doc comment.
//   npx tsx .ci/public-api.ts [--write] [--readme]   (--write pins the lists, --readme updates the README table)
import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const PINNED = join(root, ".ci", "public-api.json");
/** Most public names a package may have. */
export const MAX_PUBLIC_NAMES = 40;

export interface PackageApi {
  readonly name: string;
  readonly exports: readonly string[];
  /** Exported names without a doc comment. */
  readonly undocumented: readonly string[];
}

export function publicApi(): readonly PackageApi[] {
  const dirs = readdirSync(join(root, "packages")).filter((d) => existsSync(join(root, "packages", d, "src", "index.ts"))).sort();
  const entries = dirs.map((d) => join(root, "packages", d, "src", "index.ts"));
  const program = ts.createProgram(entries, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ["development"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
  });
  const checker = program.getTypeChecker();
  return dirs.map((d, i) => {
    const file = program.getSourceFile(entries[i]!);
    const pkg = JSON.parse(readFileSync(join(root, "packages", d, "package.json"), "utf8")) as { name: string };
    const moduleSymbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    const symbols = moduleSymbol === undefined ? [] : checker.getExportsOfModule(moduleSymbol);
    const undocumented: string[] = [];
    for (const s of symbols) {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      const documented = target.getDocumentationComment(checker).length > 0 || target.getJsDocTags(checker).length > 0;
      if (!documented) undocumented.push(s.getName());
    }
    return { name: pkg.name, exports: symbols.map((s) => s.getName()).sort(), undocumented: undocumented.sort() };
  });
}

/** Markers of the generated table in the root README. */
export const README = join(root, "README.md");
export const README_START = "<!-- public-api:start (npx tsx .ci/public-api.ts --readme) -->";
export const README_END = "<!-- public-api:end -->";

/** The README text with the block between the markers replaced by `block`. */
export function withReadmeTable(readme: string, block: string): string {
  const a = readme.indexOf(README_START);
  const b = readme.indexOf(README_END);
  if (a === -1 || b === -1 || b < a) throw new Error(`README.md has no ${README_START} … ${README_END} block`);
  return `${readme.slice(0, a + README_START.length)}\n${block}\n${readme.slice(b)}`;
}

export function table(apis: readonly PackageApi[]): string {
  const rows = apis.map((a) => `| \`${a.name}\` | ${a.exports.length} |`);
  return ["| package | public names |", "|---|---|", ...rows].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const apis = publicApi();
  if (process.argv.includes("--write")) {
    writeFileSync(PINNED, `${JSON.stringify(Object.fromEntries(apis.map((a) => [a.name, a.exports])), null, 2)}\n`);
    console.log(`wrote ${PINNED}`);
  }
  if (process.argv.includes("--readme")) {
    writeFileSync(README, withReadmeTable(readFileSync(README, "utf8"), table(apis)));
    console.log(`updated ${README}`);
  }
  console.log(table(apis));
  for (const a of apis) if (a.undocumented.length > 0) console.log(`${a.name}: undocumented: ${a.undocumented.join(", ")}`);
}
