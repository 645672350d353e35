// The architecture, checked: no import cycle between files or packages, the dependency graph of
// the README, one definition of the message model and of the strategy names.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const packagesDir = join(root, "packages");
const packages = readdirSync(packagesDir).filter((d) => statSync(join(packagesDir, d)).isDirectory());

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === "node_modules") return [];
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/g;
const sources = packages.flatMap((p) => walk(join(packagesDir, p, "src")));
const importsOf = (file: string): string[] => [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => m[1]!);

function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 1);
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === 1) found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (state.get(m) === undefined) visit(m);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of graph.keys()) if (state.get(n) === undefined) visit(n);
  return found;
}

const pkgDeps = new Map(
  packages.map((p) => {
    const json = JSON.parse(readFileSync(join(packagesDir, p, "package.json"), "utf8")) as {
      name: string;
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    // What an installed package may import: its dependencies and its peers (fp-ts and io-ts are peers).
    return [json.name, Object.keys({ ...json.dependencies, ...json.peerDependencies })] as const;
  }),
);

describe("architecture", () => {
  it("no import cycle between source files (type imports included)", () => {
    const graph = new Map<string, string[]>();
    for (const f of sources) {
      const targets = importsOf(f)
        .filter((s) => s.startsWith("."))
        .map((s) => resolve(dirname(f), s.replace(/\.js$/, ".ts")))
        .map((t) => (t.endsWith(".ts") ? t : `${t}.ts`));
      graph.set(f, targets);
    }
    expect(cycles(graph).map((c) => c.map((f) => relative(root, f)).join(" → "))).toEqual([]);
  });

  it("no cycle between packages, and every @cc import is a declared dependency", () => {
    const graph = new Map<string, string[]>();
    for (const [name, deps] of pkgDeps)
      graph.set(
        name,
        deps.filter((d) => d.startsWith("@cc/")),
      );
    expect(cycles(graph)).toEqual([]);
    for (const p of packages) {
      const json = JSON.parse(readFileSync(join(packagesDir, p, "package.json"), "utf8")) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      const declared = new Set(Object.keys(json.dependencies ?? {}));
      const used = new Set(
        walk(join(packagesDir, p, "src"))
          .flatMap(importsOf)
          .filter((s) => s.startsWith("@cc/"))
          .map((s) => s.split("/").slice(0, 2).join("/")),
      );
      for (const u of used)
        if (u !== json.name) expect(declared.has(u), `${json.name} imports ${u} without declaring it`).toBe(true);
    }
  });

  it("the graph of the README: leaves stay leaves, hierarchical does not depend on lcm", () => {
    const cc = (name: string): string[] => (pkgDeps.get(name) ?? []).filter((d) => d.startsWith("@cc/")).sort();
    expect(cc("@cc/validate")).toEqual([]);
    expect(cc("@cc/importance")).toEqual(["@cc/validate"]);
    expect((pkgDeps.get("@cc/importance") ?? []).filter((d) => !d.startsWith("@cc/")).sort()).toEqual([
      "fp-ts",
      "io-ts",
    ]);
    expect(cc("@cc/messages")).toEqual(["@cc/validate"]);
    expect(cc("@cc/hierarchical")).not.toContain("@cc/lcm");
    expect(cc("@cc/lcm")).not.toContain("@cc/session");
  });

  it("one definition of the message model and of the strategy names", () => {
    const defining = (re: RegExp): string[] =>
      sources.filter((f) => re.test(readFileSync(f, "utf8"))).map((f) => relative(root, f));
    expect(defining(/export (?:type|interface) Message\b/)).toEqual(["packages/messages/src/message.ts"]);
    expect(defining(/export type StrategyName\b/)).toEqual(["packages/context/src/strategy.ts"]);
    expect(defining(/export (?:const|function) toolCallIssuers\b/)).toEqual(["packages/messages/src/units.ts"]);
  });

  // The top floor: faces (MCP and the framework adapters) wrap the manager; they never reach into
  // it, never build a second one, and never define their own tools or paging.
  const FACES = ["ai-sdk", "langchain", "mastra", "openai-agents", "mcp", "cli"];
  const faceSources = sources.filter((f) => FACES.some((p) => f.startsWith(join(packagesDir, p, "src"))));
  /** A source's code without its comments (so a doc comment may name what the code must not do). */
  const code = (f: string): string =>
    readFileSync(f, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

  it("no manager.options outside @cc/context, and no face derives a second manager from one", () => {
    const outside = sources.filter((f) => !f.startsWith(join(packagesDir, "context", "src")));
    expect(
      outside
        .filter((f) =>
          /\bmanager\.options\b|\.options\.(?:counter|index|namespace|now|maxTokens|preserveLast|threshold)\b/.test(
            code(f),
          ),
        )
        .map((f) => relative(root, f)),
    ).toEqual([]);
    expect(
      faceSources.filter((f) => /createContextManager\(\s*\{\s*\.\.\./.test(code(f))).map((f) => relative(root, f)),
    ).toEqual([]);
  });

  it("one tool core: the tool names, the paging and the oversized-result id are written once, in @cc/context", () => {
    const core = join(packagesDir, "context", "src", "tools.ts");
    const naming = sources.filter((f) => f !== core && /["'`](?:search_context|expand_context)["'`]/.test(code(f)));
    expect(naming.map((f) => relative(root, f))).toEqual([]);
    // Paging: one function keeps pages off the middle of a surrogate pair.
    const paging = sources.filter(
      (f) => /0xd800|0xdc00/i.test(code(f)) && /offset/.test(code(f)) && /nextOffset|maxChars/.test(code(f)),
    );
    expect(paging.map((f) => relative(root, f))).toEqual(["packages/context/src/page.ts"]);
    // One evictor of oversized tool results (the manager's evictToolResult).
    const evictors = sources.filter(
      (f) => /createHash\("sha256"\)\.update\(`\$\{[^}]*toolName/.test(code(f)) || /`r\$\{createHash/.test(code(f)),
    );
    expect(evictors.map((f) => relative(root, f))).toEqual(["packages/context/src/tool-result.ts"]);
  });

  it("a package imports another's /internal only from the allowed list", () => {
    const ALLOWED: Readonly<Record<string, readonly string[]>> = {
      "@cc/cli": ["@cc/lcm/internal"],
      "@cc/context": ["@cc/hierarchical/internal", "@cc/lcm/internal", "@cc/search/internal"],
      "@cc/hierarchical": ["@cc/messages/internal", "@cc/search/internal"],
      "@cc/langchain": ["@cc/session/internal"],
      "@cc/lcm": ["@cc/messages/internal"],
      "@cc/session": ["@cc/lcm/internal", "@cc/messages/internal", "@cc/search/internal"],
    };
    const found = new Map<string, Set<string>>();
    for (const p of packages) {
      const name = (JSON.parse(readFileSync(join(packagesDir, p, "package.json"), "utf8")) as { name: string }).name;
      for (const s of walk(join(packagesDir, p, "src")).flatMap(importsOf)) {
        if (/^@cc\/[^/]+\/internal$/.test(s) && !s.startsWith(`${name}/`))
          found.set(name, (found.get(name) ?? new Set()).add(s));
      }
    }
    const actual = Object.fromEntries(
      [...found].map(([k, v]) => [k, [...v].sort()]).sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
    expect(actual).toEqual(ALLOWED);
  });

  it("/internal holds only what sibling packages import; tests, benchmarks and examples never import it", () => {
    // Every name of a package's /internal entry is imported by the source of another package.
    const NAMED = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+["'](@cc\/[^/"']+)\/internal["']/g;
    const importedBySiblings = new Map<string, Set<string>>();
    for (const p of packages) {
      const name = (JSON.parse(readFileSync(join(packagesDir, p, "package.json"), "utf8")) as { name: string }).name;
      for (const f of walk(join(packagesDir, p, "src"))) {
        for (const m of readFileSync(f, "utf8").matchAll(NAMED)) {
          if (m[2] === name) continue;
          const names = m[1]!
            .split(",")
            .map(
              (s) =>
                s
                  .trim()
                  .replace(/^type\s+/, "")
                  .split(/\s+as\s+/)[0]!,
            )
            .filter((s) => s !== "");
          for (const n of names) importedBySiblings.set(m[2]!, (importedBySiblings.get(m[2]!) ?? new Set()).add(n));
        }
      }
    }
    const unused: string[] = [];
    for (const p of packages) {
      const entry = join(packagesDir, p, "src", "internal", "index.ts");
      let text: string;
      try {
        text = readFileSync(entry, "utf8");
      } catch {
        continue;
      }
      const name = (JSON.parse(readFileSync(join(packagesDir, p, "package.json"), "utf8")) as { name: string }).name;
      const exported = [...text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)]
        .flatMap((m) =>
          m[1]!.split(",").map((s) =>
            s
              .trim()
              .replace(/^type\s+/, "")
              .split(/\s+as\s+/)
              .pop()!,
          ),
        )
        .filter((s) => s !== "");
      expect(exported.length).toBeGreaterThan(0); // an empty /internal entry is removed, not kept
      for (const n of exported) if (!importedBySiblings.get(name)?.has(n)) unused.push(`${name}/internal: ${n}`);
    }
    expect(unused).toEqual([]);
    // Outside the packages' sources, /internal is never imported: the private @cc/test-support carries what tests need.
    const outside = ["bench", "examples", ".ci", ...packages.map((p) => join("packages", p, "test"))].flatMap((d) => {
      try {
        return walk(join(root, d));
      } catch {
        return [];
      }
    });
    expect(outside.length).toBeGreaterThan(100);
    const offenders = outside
      .filter((f) => importsOf(f).some((s) => /^@cc\/[^/]+\/internal$/.test(s)))
      .map((f) => relative(root, f));
    expect(offenders).toEqual([]);
    // And no published package depends on the private support package.
    const support = JSON.parse(readFileSync(join(root, ".ci", "support", "package.json"), "utf8")) as {
      name: string;
      private?: boolean;
    };
    expect(support).toMatchObject({ name: "@cc/test-support", private: true });
    expect(
      sources.filter((f) => importsOf(f).some((s) => s.startsWith("@cc/test-support"))).map((f) => relative(root, f)),
    ).toEqual([]);
  });

  it("one error class escapes a package: @cc/validate's CcError (other Error classes are signals caught in their own module)", () => {
    // A class extending an Error is either the one CcError, or a signal: not exported, and caught
    // (`instanceof`) in the module that declares it, so it never leaves that module.
    const CLASS = /^(export\s+)?(?:abstract\s+)?class\s+(\w+)\s+extends\s+(\w*Error)\b/gm;
    const escaping: string[] = [];
    const signals: string[] = [];
    for (const f of sources) {
      const text = readFileSync(f, "utf8");
      for (const m of text.matchAll(CLASS)) {
        const name = m[2]!;
        const where = `${relative(root, f)}: ${name}`;
        if (relative(root, f) === "packages/validate/src/error.ts" && name === "CcError") continue;
        const exported = m[1] !== undefined || new RegExp(`export\\s*\\{[^}]*\\b${name}\\b`).test(text);
        const caughtHere = new RegExp(`instanceof\\s+${name}\\b`).test(text);
        if (exported || !caughtHere) escaping.push(where);
        else signals.push(where);
      }
    }
    expect(escaping).toEqual([]);
    expect(signals.length).toBeGreaterThan(0); // the check sees the signal classes it allows
  });
});
