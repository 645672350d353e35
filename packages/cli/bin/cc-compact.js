#!/usr/bin/env node
// Runs the built CLI (dist/cli.js, from `pnpm build` at the workspace root) when present: a plain
// Node start, no TypeScript compiler. Without a build it runs the TypeScript sources through tsx,
// resolving workspace packages to their sources (slower: tsx start-up).
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
if (existsSync(dist)) {
  await import(dist);
} else {
  const src = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
  const r = spawnSync(process.execPath, ["--import", "tsx", "--conditions=development", src, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exitCode = r.status ?? 1;
}
