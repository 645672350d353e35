/**
 * Runs every `bench/*.bench.ts` script, each in its own process, in name order.
 * `pnpm bench` runs the full suite; `CC_BENCH_QUICK=1 pnpm bench` is the quick mode CI uses.
 * Pass names to run a subset: `pnpm bench importance tokens`.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const scripts = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

let failed = 0;
scripts.forEach((script, i) => {
  console.log(`\n[${i + 1}/${scripts.length}] ${script}`);
  const r = spawnSync(process.execPath, ["--import", "tsx", "--conditions=development", join(dir, script)], {
    stdio: "inherit",
    env: process.env,
  });
  if (r.status !== 0) {
    failed++;
    console.error(`${script} failed (exit ${r.status ?? r.signal})`);
  }
});
if (scripts.length === 0) {
  console.error("no benchmarks matched");
  process.exit(1);
}
process.exit(failed === 0 ? 0 : 1);
