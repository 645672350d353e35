#!/usr/bin/env node
// Runs the built CLI (dist/cli.js, from `pnpm build` at the workspace root) when present: a plain
// Node start, no TypeScript compiler. Without a build it runs the TypeScript sources through tsx,
// resolving workspace packages to their sources (slower: tsx start-up) — in this same process, so
// a signal sent to this PID reaches the work itself and the exit status is the command's own.
import { existsSync } from "node:fs";
import { register } from "node:module";

const dist = new URL("../dist/cli.js", import.meta.url);
if (existsSync(dist)) {
  await import(dist.href);
} else {
  register("./source-conditions.js", import.meta.url);
  const { register: registerTsx } = await import("tsx/esm/api");
  registerTsx();
  await import(new URL("../src/cli.ts", import.meta.url).href);
}
