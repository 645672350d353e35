/**
 * Runs every `bench/*.bench.ts` script, each in its own process, in name order, with a progress
 * display (which script, its elapsed time, the total), then writes `bench/results/SUMMARY.md` and
 * the charts (`bench/results/scaling.svg`, …) from every results file.
 *
 * `pnpm bench` runs the full suite; `CC_BENCH_QUICK=1 pnpm bench` is the quick mode CI uses.
 * Pass names to run a subset: `pnpm bench importance tokens`; `pnpm bench --report` only
 * rewrites the summary and charts from the results already on disk.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as E from "fp-ts/lib/Either.js";
import { printTable, quick, resultsDir } from "./harness.js";
import { writeReport } from "./report/write.js";

const dir = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const reportOnly = args.includes("--report");
const wanted = args.filter((a) => !a.startsWith("--"));
const scripts = reportOnly
  ? []
  : readdirSync(dir)
      .filter((f) => f.endsWith(".bench.ts"))
      .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
      .sort();

const seconds = (ms: number): string =>
  ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

interface Outcome {
  readonly script: string;
  readonly ok: boolean;
  readonly exit: string;
  readonly ms: number;
}

/** Runs one script, forwarding its output, with a heartbeat line while it is silent. */
function runScript(script: string, index: number, started: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const tag = `[${index + 1}/${scripts.length}] ${script}`;
    console.log(`\n━━ ${tag} (${quick ? "quick" : "full"} mode, ${seconds(performance.now() - started)} into the run)`);
    const child = spawn(process.execPath, ["--import", "tsx", "--conditions=development", join(dir, script)], {
      stdio: ["ignore", "inherit", "inherit"],
      env: process.env,
    });
    const beat = setInterval(() => {
      console.log(
        `   … ${tag} running for ${seconds(performance.now() - t0)} (run total ${seconds(performance.now() - started)})`,
      );
    }, 15_000);
    const done = (ok: boolean, exit: string): void => {
      clearInterval(beat);
      const ms = performance.now() - t0;
      console.log(`━━ ${tag} ${ok ? "done" : `FAILED (${exit})`} in ${seconds(ms)}`);
      resolve({ script, ok, exit, ms });
    };
    child.on("error", (e) => done(false, e.message));
    child.on("exit", (code, signal) => done(code === 0, code === null ? `signal ${signal ?? "?"}` : `exit ${code}`));
  });
}

async function main(): Promise<number> {
  if (!reportOnly && scripts.length === 0) {
    console.error(`no benchmarks matched ${wanted.join(", ")}`);
    return 1;
  }
  const started = performance.now();
  const outcomes: Outcome[] = [];
  for (const [i, s] of scripts.entries()) outcomes.push(await runScript(s, i, started));
  if (outcomes.length > 0) {
    printTable(
      `benchmarks (${seconds(performance.now() - started)} in total)`,
      ["script", "status", "seconds"],
      outcomes.map((o) => [o.script, o.ok ? "ok" : `failed (${o.exit})`, o.ms / 1000]),
    );
  }
  const report = await writeReport(resultsDir)();
  if (E.isLeft(report)) {
    console.error(`cannot write the report: ${report.left.path}: ${report.left.message}`);
    return 1;
  }
  console.log(`\nwrote ${report.right.summary}`);
  for (const c of report.right.charts) console.log(`wrote ${c}`);
  for (const p of report.right.problems) console.error(`unreadable result: ${p}`);
  const failed = outcomes.filter((o) => !o.ok).length;
  return failed === 0 && report.right.problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
