// Type-checks every `@example` in packages/*/src with the TypeScript compiler.
//
// Each example becomes a virtual module beside the source file that holds it, so it sees what a
// reader of that doc comment sees: the names the file exports, then every public name of its own
// package and of the other packages (public entries and `/compat`), `E`/`TE`/`O`/`A`/`pipe` from
// fp-ts, and the fixtures of .ci/doc-examples/fixtures.d.ts (the values an example talks about
// without building them: a `counter`, an `index`, a `manager`, ...) and, for a package that has
// one, of .ci/doc-examples/<package>.d.ts (values whose type is that package's own, such as a
// framework's `messages`; the file is read as if it were packages/<package>/src/doc-fixtures.ts,
// so its imports resolve from there and its exports come right after the file's own names). The
// example's own `import` lines are kept at the top; the rest runs inside an async function (so
// `await` works and the example's names shadow fixtures). An example (or a fixture file) that does
// not type-check is reported with its file and line.
//   npx tsx .ci/doc-examples.ts [path prefix]   (prints every failing example; exit 1 when there is one)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Fixture files are checked as `.ts` (a `.d.ts` is not checked under skipLibCheck, and a fixture
// that does not type-check would quietly type its values `any`).
const fixtures = {
  source: join(root, ".ci", "doc-examples", "fixtures.d.ts"),
  path: join(root, ".ci", "doc-examples", "fixtures.ts"),
};
/** Where a package's own fixtures (.ci/doc-examples/<package>.d.ts) are read, and as which file. */
const packageFixtures = (p: string): { readonly source: string; readonly path: string } => ({
  source: join(root, ".ci", "doc-examples", `${p}.d.ts`),
  path: join(root, "packages", p, "src", "doc-fixtures.ts"),
});

/** One `@example` block of a doc comment. */
export interface DocExample {
  /** The source file (absolute). */
  readonly file: string;
  /** 1-based line of the `@example` tag. */
  readonly line: number;
  /** The example's code, comment decoration removed. */
  readonly code: string;
}

/** An example that did not type-check. */
export interface ExampleFailure {
  readonly file: string;
  readonly line: number;
  readonly code: string;
  readonly messages: readonly string[];
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return d.name.endsWith(".ts") && !d.name.endsWith(".d.ts") ? [p] : [];
  });

/** The `@example` blocks of one source text (each ends at the next tag or the comment's end). */
export function examplesOf(file: string, text: string): DocExample[] {
  const out: DocExample[] = [];
  const comment = /\/\*\*[\s\S]*?\*\//g;
  for (let m = comment.exec(text); m !== null; m = comment.exec(text)) {
    const startLine = text.slice(0, m.index).split("\n").length;
    const lines = m[0]
      .replace(/^\/\*\*/, "")
      .replace(/\*\/$/, "")
      .split("\n")
      .map((l) => l.replace(/^\s*\* ?/, ""));
    let current: { line: number; code: string[] } | undefined;
    const flush = (): void => {
      if (current === undefined) return;
      const code = current.code.join("\n").trim();
      if (code !== "") out.push({ file, line: current.line, code });
      current = undefined;
    };
    lines.forEach((l, i) => {
      const tag = /^\s*@(\w+)\s?(.*)$/.exec(l);
      if (tag !== null) {
        flush();
        if (tag[1] === "example") current = { line: startLine + i, code: [tag[2] ?? ""] };
        return;
      }
      current?.code.push(l);
    });
    flush();
  }
  return out;
}

/** The names a module declares as exports (syntactically: declarations and `export { … }` lists). */
function exportedNames(sf: ts.SourceFile): { readonly values: Set<string>; readonly types: Set<string> } {
  const values = new Set<string>();
  const types = new Set<string>();
  const exported = (n: ts.Node): boolean =>
    ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const s of sf.statements) {
    if (ts.isExportDeclaration(s) && s.exportClause !== undefined && ts.isNamedExports(s.exportClause)) {
      for (const e of s.exportClause.elements) (s.isTypeOnly || e.isTypeOnly ? types : values).add(e.name.text);
      continue;
    }
    if (!exported(s)) continue;
    if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isEnumDeclaration(s)) && s.name !== undefined)
      values.add(s.name.text);
    else if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) types.add(s.name.text);
    else if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) values.add(d.name.text);
    } else if (ts.isModuleDeclaration(s) && ts.isIdentifier(s.name)) values.add(s.name.text);
  }
  // A name exported both as a value and a type (a class, a const with a same-named type) imports once.
  for (const v of values) types.delete(v);
  return { values, types };
}

const PRELUDE_NAMES = new Set(["E", "TE", "O", "A", "T", "pipe", "flow"]);
const PRELUDE = [
  `import * as E from "fp-ts/lib/Either.js";`,
  `import * as TE from "fp-ts/lib/TaskEither.js";`,
  `import * as T from "fp-ts/lib/Task.js";`,
  `import * as O from "fp-ts/lib/Option.js";`,
  `import * as A from "fp-ts/lib/ReadonlyArray.js";`,
  `import { pipe, flow } from "fp-ts/lib/function.js";`,
];

/** Every example of every package source, with the text of the virtual module that checks it. */
export function exampleModules(): { readonly example: DocExample; readonly path: string; readonly text: string }[] {
  return modulesAndFixtures().modules;
}

function modulesAndFixtures(): {
  readonly modules: { readonly example: DocExample; readonly path: string; readonly text: string }[];
  readonly fixtures: ReadonlyMap<string, { readonly source: string; readonly text: string }>;
} {
  const packages = readdirSync(join(root, "packages"))
    .filter((d) => existsSync(join(root, "packages", d, "src", "index.ts")))
    .sort();
  const parse = (f: string): ts.SourceFile =>
    ts.createSourceFile(f, readFileSync(f, "utf8"), ts.ScriptTarget.ES2022, true);
  const entries = packages.flatMap((p) =>
    ["index.ts", join("compat", "index.ts")]
      .map((e) => join(root, "packages", p, "src", e))
      .filter((f) => existsSync(f)),
  );
  const entryNames = new Map(entries.map((f) => [f, exportedNames(parse(f))]));
  const out: { example: DocExample; path: string; text: string }[] = [];
  const fixtureFiles = new Map<string, { readonly source: string; readonly text: string }>([
    [fixtures.path, { source: fixtures.source, text: readFileSync(fixtures.source, "utf8") }],
  ]);
  for (const p of packages) {
    const srcDir = join(root, "packages", p, "src");
    const own = packageFixtures(p);
    const ownNames = existsSync(own.source) ? exportedNames(parse(own.source)) : undefined;
    if (ownNames !== undefined)
      fixtureFiles.set(own.path, { source: own.source, text: readFileSync(own.source, "utf8") });
    // Own package's entries first, then the others in name order.
    const order = [
      ...entries.filter((f) => f.startsWith(srcDir + "/")),
      ...entries.filter((f) => !f.startsWith(srcDir + "/")),
    ];
    for (const file of sourceFiles(srcDir)) {
      const text = readFileSync(file, "utf8");
      const examples = examplesOf(file, text);
      if (examples.length === 0) continue;
      const providers = [file, ...(ownNames !== undefined ? [own.path] : []), ...order.filter((f) => f !== file)];
      const fileNames = exportedNames(parse(file));
      const namesOf = (f: string) =>
        f === file ? fileNames : f === own.path && ownNames !== undefined ? ownNames : entryNames.get(f)!;
      examples.forEach((example, n) => {
        const lines = example.code.split("\n");
        const imports = lines.filter((l) => /^\s*import\s/.test(l));
        const body = lines.filter((l) => !/^\s*import\s/.test(l));
        // Names the example imports itself are not imported again.
        const own = new Set(imports.flatMap((l) => [...l.matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0])));
        const taken = new Set<string>([...PRELUDE_NAMES, ...own]);
        const lines2: string[] = [
          ...PRELUDE.filter((l) => ![...own].some((o) => PRELUDE_NAMES.has(o) && l.includes(` ${o} `))),
          ...imports,
        ];
        for (const f of providers) {
          const names = namesOf(f);
          const values = [...names.values].filter((x) => !taken.has(x));
          const types = [...names.types].filter((x) => !taken.has(x));
          values.forEach((x) => taken.add(x));
          types.forEach((x) => taken.add(x));
          if (values.length + types.length === 0) continue;
          let spec = relative(dirname(file), f).replace(/\.ts$/, ".js");
          if (!spec.startsWith(".")) spec = `./${spec}`;
          lines2.push(`import { ${[...values, ...types.map((t) => `type ${t}`)].join(", ")} } from "${spec}";`);
        }
        lines2.push(`export async function example${n}(): Promise<void> {`, ...body, `}`);
        out.push({ example, path: `${file.replace(/\.ts$/, "")}.example${n}.ts`, text: lines2.join("\n") + "\n" });
      });
    }
  }
  return { modules: out, fixtures: fixtureFiles };
}

/** Type-checks every example (or those of the files under `prefix`, relative to the repository root); the failures, in file order. */
export function checkExamples(prefix = ""): ExampleFailure[] {
  const all = modulesAndFixtures();
  const fixtureFiles = all.fixtures;
  const modules = all.modules.filter((m) => relative(root, m.example.file).startsWith(prefix));
  const virtual = new Map<string, { readonly text: string }>([
    ...modules.map((m) => [m.path, m] as const),
    ...fixtureFiles,
  ]);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ["development"],
    strict: true,
    useUnknownInCatchVariables: true,
    esModuleInterop: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
    // An example may leave a value unused (it shows a call and its result in a comment).
    noUnusedLocals: false,
    allowUnreachableCode: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError, create) => {
    const m = virtual.get(name);
    return m !== undefined ? ts.createSourceFile(name, m.text, lang) : getSourceFile(name, lang, onError, create);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => virtual.get(name)?.text ?? readFile(name);
  const program = ts.createProgram([...virtual.keys()], options, host);
  // A fixture that does not type-check would quietly type its values `any`: report it as a failure.
  const fixtureFailures: ExampleFailure[] = [...fixtureFiles].flatMap(([path, f]) => {
    const sf = program.getSourceFile(path);
    const diagnostics =
      sf === undefined ? [] : [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
    return diagnostics.length === 0
      ? []
      : [
          {
            file: relative(root, f.source),
            line: 1,
            code: "",
            messages: diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
          },
        ];
  });
  const failures: ExampleFailure[] = [...fixtureFailures];
  for (const m of modules) {
    const sf = program.getSourceFile(m.path);
    const diagnostics =
      sf === undefined ? [] : [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
    if (diagnostics.length === 0) continue;
    failures.push({
      file: relative(root, m.example.file),
      line: m.example.line,
      code: m.example.code,
      messages: diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    });
  }
  return failures;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const prefix = process.argv[2] ?? "";
  const failures = checkExamples(prefix);
  for (const f of failures)
    console.log(`${f.file}:${f.line}\n  ${f.code.split("\n").join("\n  ")}\n  -> ${f.messages.join("\n  -> ")}\n`);
  const checked = exampleModules().filter((m) => relative(root, m.example.file).startsWith(prefix)).length;
  console.log(
    `${failures.length} failing (examples or fixture files), ${checked} examples${prefix === "" ? "" : ` under ${prefix}`} checked`,
  );
  process.exit(failures.length === 0 ? 0 : 1);
}
