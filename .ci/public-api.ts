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
/**
 * Most public values a package may have: what a user calls or reads (functions, constants,
 * classes). Types are not capped: every type a public signature reaches is part of the surface
 * whether it is named or not, so each one has a public name and they are counted on their own.
 */
export const MAX_PUBLIC_NAMES = 40;

export interface PackageApi {
  readonly name: string;
  readonly exports: readonly string[];
  /** The public names that are values (functions, constants, classes): what the cap counts. */
  readonly values: readonly string[];
  /** Exported names without a doc comment. */
  readonly undocumented: readonly string[];
  /** Names of the `/internal` subpath (what sibling packages, tests and benchmarks import). */
  readonly internal: readonly string[];
  /** Names of the `/compat` subpath (the Go port's compatibility layer), when there is one. */
  readonly compat: readonly string[];
  /**
   * Named types of this package's sources that a public signature reaches (a parameter, a result,
   * a field, a type argument) but no public entry of any package exports: a user can meet them and
   * cannot name them.
   */
  readonly hidden: readonly string[];
}

const entryOf = (d: string, sub: "index" | "internal" | "compat"): string =>
  join(root, "packages", d, "src", sub === "index" ? "index.ts" : join(sub, "index.ts"));

export function publicApi(): readonly PackageApi[] {
  const dirs = readdirSync(join(root, "packages"))
    .filter((d) => existsSync(entryOf(d, "index")))
    .sort();
  const entries = dirs.flatMap((d) =>
    (["index", "internal", "compat"] as const).map((sub) => entryOf(d, sub)).filter((f) => existsSync(f)),
  );
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
  const exportsOf = (file: string): readonly ts.Symbol[] => {
    const source = existsSync(file) ? program.getSourceFile(file) : undefined;
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    return moduleSymbol === undefined ? [] : checker.getExportsOfModule(moduleSymbol);
  };
  const resolved = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  // Every symbol a public entry (index or compat) of any package exports.
  const publicSymbols = new Set<ts.Symbol>(
    dirs.flatMap((d) => [...exportsOf(entryOf(d, "index")), ...exportsOf(entryOf(d, "compat"))].map(resolved)),
  );
  const ownDir = (s: ts.Symbol): string | undefined => {
    const file = s.declarations?.[0]?.getSourceFile().fileName;
    const m = file === undefined ? null : /\/packages\/([^/]+)\/src\//.exec(file);
    return m?.[1];
  };
  /** The named types a public symbol's declared shape reaches, transitively through named ones. */
  const reached = (start: readonly ts.Symbol[]): Set<ts.Symbol> => {
    const seen = new Set<ts.Type>();
    const found = new Set<ts.Symbol>();
    const visitType = (type: ts.Type, depth: number): void => {
      if (seen.has(type) || depth > 12) return;
      seen.add(type);
      const named = type.aliasSymbol ?? type.getSymbol();
      if (
        named !== undefined &&
        ownDir(named) !== undefined &&
        named.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Enum)
      )
        found.add(named);
      for (const a of type.aliasTypeArguments ?? []) visitType(a, depth + 1);
      if (type.isUnionOrIntersection()) for (const t of type.types) visitType(t, depth + 1);
      if (type.flags & ts.TypeFlags.Object) {
        const obj = type as ts.ObjectType;
        if (obj.objectFlags & ts.ObjectFlags.Reference)
          for (const a of checker.getTypeArguments(obj as ts.TypeReference)) visitType(a, depth + 1);
        // Library and framework types (Promise, Map, a framework's Tool) are not ours to name: only their arguments count.
        if (named !== undefined && ownDir(named) === undefined) return;
        for (const p of checker.getPropertiesOfType(type)) {
          const decl = p.valueDeclaration ?? p.declarations?.[0];
          if (decl !== undefined) visitType(checker.getTypeOfSymbolAtLocation(p, decl), depth + 1);
        }
        for (const sig of [
          ...checker.getSignaturesOfType(type, ts.SignatureKind.Call),
          ...checker.getSignaturesOfType(type, ts.SignatureKind.Construct),
        ]) {
          for (const param of sig.getParameters()) {
            const decl = param.valueDeclaration ?? param.declarations?.[0];
            if (decl !== undefined) visitType(checker.getTypeOfSymbolAtLocation(param, decl), depth + 1);
          }
          visitType(sig.getReturnType(), depth + 1);
        }
      }
    };
    for (const s of start) {
      const decl = s.valueDeclaration ?? s.declarations?.[0];
      if (decl === undefined) continue;
      if (s.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class))
        visitType(checker.getDeclaredTypeOfSymbol(s), 0);
      if (s.flags & ts.SymbolFlags.Value) visitType(checker.getTypeOfSymbolAtLocation(s, decl), 0);
    }
    return found;
  };
  return dirs.map((d) => {
    const pkg = JSON.parse(readFileSync(join(root, "packages", d, "package.json"), "utf8")) as { name: string };
    const symbols = exportsOf(entryOf(d, "index"));
    const compat = exportsOf(entryOf(d, "compat"));
    const undocumented: string[] = [];
    for (const s of [...symbols, ...compat]) {
      const target = resolved(s);
      const documented = target.getDocumentationComment(checker).length > 0 || target.getJsDocTags(checker).length > 0;
      if (!documented) undocumented.push(s.getName());
    }
    const hidden = [...reached([...symbols, ...compat].map(resolved))]
      .filter((t) => ownDir(t) === d && !publicSymbols.has(t))
      .map((t) => t.getName());
    return {
      name: pkg.name,
      exports: symbols.map((s) => s.getName()).sort(),
      values: symbols
        .filter((s) => resolved(s).flags & ts.SymbolFlags.Value)
        .map((s) => s.getName())
        .sort(),
      undocumented: [...new Set(undocumented)].sort(),
      internal: exportsOf(entryOf(d, "internal"))
        .map((s) => s.getName())
        .sort(),
      compat: compat.map((s) => s.getName()).sort(),
      hidden: [...new Set(hidden)].sort(),
    };
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
  const rows = apis.map(
    (a) =>
      `| \`${a.name}\` | ${a.exports.length} | ${a.values.length} | ${a.exports.length - a.values.length} | ${a.compat.length === 0 ? "–" : a.compat.length} | ${a.internal.length} | ${a.hidden.length} |`,
  );
  const total = (f: (a: PackageApi) => number): number => apis.reduce((n, a) => n + f(a), 0);
  const sum = `| **all** | ${total((a) => a.exports.length)} | ${total((a) => a.values.length)} | ${total((a) => a.exports.length - a.values.length)} | ${total((a) => a.compat.length)} | ${total((a) => a.internal.length)} | ${total((a) => a.hidden.length)} |`;
  return [
    `| package | public names | values (at most ${MAX_PUBLIC_NAMES}) | types | \`/compat\` names | \`/internal\` names | hidden types |`,
    "|---|---|---|---|---|---|---|",
    ...rows,
    sum,
  ].join("\n");
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
  for (const a of apis)
    if (a.undocumented.length > 0) console.log(`${a.name}: undocumented: ${a.undocumented.join(", ")}`);
  for (const a of apis) if (a.hidden.length > 0) console.log(`${a.name}: hidden types: ${a.hidden.join(", ")}`);
}
