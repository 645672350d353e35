#!/usr/bin/env node
// Runs the built CLI (dist/cli.js, from `pnpm build` at the workspace root) when present: a plain
// Node start, no TypeScript compiler. Without a build it runs the TypeScript sources through tsx,
// resolving workspace packages to their sources (slower: tsx start-up).
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const args = process.argv.slice(2);
const run = (nodeArgs) => {
  const r = spawnSync(process.execPath, [...nodeArgs, ...args], { stdio: "inherit" });
  process.exitCode = r.status ?? 1;
};

if (existsSync(dist)) {
  try {
    await import(dist);
  } catch (e) {
    // Resolution fails before any module runs, so nothing has been read or written yet.
    if (e?.code !== "ERR_UNSUPPORTED_DIR_IMPORT") throw e;
    run(["--import", fileURLToPath(new URL("./fp-ts-resolve-register.js", import.meta.url)), dist]);
  }
} else {
  run(["--import", "tsx", "--conditions=development", fileURLToPath(new URL("../src/cli.ts", import.meta.url))]);
}
