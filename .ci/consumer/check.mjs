// Checks of the consumer test (.ci/consumer/run.sh) that are easier in JavaScript than in bash.
//   node check.mjs tarballs DIR      every packed package.json is publishable (see below)
//   node check.mjs readme ROOT       the README's Quick start block equals .ci/consumer/main.ts
//   node check.mjs entries DIR OUT   writes OUT: a type import of every export of every package in DIR
//   node check.mjs docs-links ROOT   every package README links into the built docs/api, and the targets exist
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const fail = (msg) => {
  console.error(`consumer check: ${msg}`);
  process.exit(1);
};

function tarballs(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith(".tgz"));
  if (files.length === 0) fail(`no tarballs in ${dir}`);
  for (const f of files) {
    const out = mkdtempSync(join(tmpdir(), "cc-tgz-"));
    execFileSync("tar", ["-xzf", join(dir, f), "-C", out]);
    const listed = execFileSync("tar", ["-tzf", join(dir, f)], { encoding: "utf8" }).split("\n");
    const raw = readFileSync(join(out, "package", "package.json"), "utf8");
    const pkg = JSON.parse(raw);
    if (raw.includes("workspace:")) fail(`${f}: package.json still has a workspace: range`);
    if (raw.includes('"development"')) fail(`${f}: package.json still has the development export condition`);
    if (pkg.engines?.node !== ">=20.11") fail(`${f}: engines.node is ${pkg.engines?.node}, expected >=20.11`);
    for (const need of ["package/LICENSE", "package/README.md", "package/dist/index.js", "package/dist/index.d.ts"]) {
      if (!listed.includes(need)) fail(`${f}: ${need} is not in the tarball`);
    }
    if (listed.some((p) => p.includes("/test/") || p.endsWith(".tsbuildinfo"))) fail(`${f}: ships tests or build info`);
    for (const [key, conditions] of Object.entries(pkg.exports ?? {})) {
      for (const target of Object.values(conditions)) {
        if (!listed.includes(join("package", target))) fail(`${f}: export ${key} points at missing ${target}`);
      }
    }
    for (const dep of ["better-sqlite3", "pg"]) {
      if (pkg.dependencies?.[dep] !== undefined) fail(`${f}: ${dep} must be an optional peer, not a dependency`);
      if (pkg.peerDependencies?.[dep] !== undefined && pkg.peerDependenciesMeta?.[dep]?.optional !== true)
        fail(`${f}: peer ${dep} is not optional`);
    }
    const leak = listed
      .filter((p) => p.endsWith(".d.ts"))
      .find((p) =>
        /^\s*import[^;]*from\s+["'](better-sqlite3|pg)["']|import\(["'](better-sqlite3|pg)["']\)\./m.test(
          readFileSync(join(out, p), "utf8").replace(/\/\*\*[\s\S]*?\*\//g, ""),
        ),
      );
    if (leak !== undefined) fail(`${f}: ${leak} imports a driver type`);
  }
  console.log(
    `${files.length} tarballs: no workspace ranges, no development condition, engines, LICENSE, README, declarations, no driver types`,
  );
}

function readme(root) {
  const text = readFileSync(join(root, "README.md"), "utf8");
  const m = /## Quick start\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(text);
  if (m === null) fail("README.md has no ```ts block under ## Quick start");
  const program = readFileSync(join(root, ".ci", "consumer", "main.ts"), "utf8");
  if (m[1] !== program) fail("the README's Quick start program differs from .ci/consumer/main.ts");
  console.log("README Quick start block = .ci/consumer/main.ts");
}

function entries(dir, out) {
  const lines = [];
  for (const name of readdirSync(dir).sort()) {
    const pkg = JSON.parse(readFileSync(join(dir, name, "package.json"), "utf8"));
    for (const key of Object.keys(pkg.exports ?? {})) {
      const spec = key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`;
      lines.push(`export type * as ${`${name}_${key.slice(2) || "main"}`.replace(/\W/g, "_")} from "${spec}";`);
    }
  }
  writeFileSync(out, `${lines.join("\n")}\n`);
}

function docsLinks(root) {
  let n = 0;
  for (const name of readdirSync(join(root, "packages"))) {
    const readmePath = join(root, "packages", name, "README.md");
    let text;
    try {
      text = readFileSync(readmePath, "utf8");
    } catch {
      continue;
    }
    const links = [...text.matchAll(/\]\((\.\.\/\.\.\/docs\/api\/[^)]+)\)/g)].map((m) => m[1]);
    if (links.length === 0) fail(`packages/${name}/README.md has no link to the API reference in docs/api`);
    for (const link of links) {
      try {
        readFileSync(join(root, "packages", name, link));
      } catch {
        fail(`packages/${name}/README.md links to ${link}, which the docs build did not write`);
      }
      n++;
    }
  }
  console.log(`${n} README links into docs/api resolve`);
}

const [cmd, a, b] = process.argv.slice(2);
if (cmd === "tarballs") tarballs(a);
else if (cmd === "readme") readme(a);
else if (cmd === "entries") entries(a, b);
else if (cmd === "docs-links") docsLinks(a);
else fail(`unknown command ${cmd}`);
