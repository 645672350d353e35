/**
 * The first search after opening an existing SQLite index, in a fresh process: it rebuilds the
 * in-process postings cache from every stored entry's terms. Baseline, measured in the same run
 * and the same kind of process: reading every row's stored terms column with better-sqlite3 (the
 * I/O any load must do). Rounds alternate the two; medians.
 *
 * `node --import tsx --conditions=development bench/reopen.bench.ts` — sizes 1e5 and 1e6
 * (CC_BENCH_SIZES overrides, e.g. "100000"); quick mode (CC_BENCH_QUICK=1): 1e4.
 * Writes bench/results/reopen.json.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openSqliteIndex } from "@cc/search";
import { printTable, quick, writeResults } from "./harness.js";
import { makeEntries } from "./search/corpus.js";

const sizes = process.env["CC_BENCH_SIZES"]
  ? process.env["CC_BENCH_SIZES"].split(",").map(Number)
  : quick
    ? [10_000]
    : [100_000, 1_000_000];
const rounds = quick ? 2 : 3;
const probe = join(dirname(fileURLToPath(import.meta.url)), "reopen", "probe.ts");

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Runs the probe in a fresh node process and parses its JSON line. */
function run(path: string, mode: "search" | "floor"): Record<string, number> {
  const out = execFileSync(process.execPath, ["--import", "tsx", "--conditions=development", probe, path, mode], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number>;
}

interface Row {
  readonly n: number;
  readonly firstSearchMs: number;
  readonly secondSearchMs: number;
  readonly floorMs: number;
  readonly timesFloor: number;
}
const rows: Row[] = [];
const dir = mkdtempSync(join(tmpdir(), "cc-reopen-"));
try {
  for (const n of sizes) {
    const path = join(dir, `index-${n}.db`);
    const opened = await openSqliteIndex({ path })();
    if (opened._tag === "Left") throw new Error(JSON.stringify(opened.left));
    for (let i = 0; i < n; i += 100_000) {
      const batch = makeEntries(Math.min(100_000, n - i)).map((e, j) => ({ ...e, id: `s${i + j}` }));
      for (let k = 0; k < batch.length; k += 1000) {
        const w = await opened.right.write(batch.slice(k, k + 1000))();
        if (w._tag === "Left") throw new Error(JSON.stringify(w.left));
      }
    }
    await opened.right.close()();
    const first: number[] = [];
    const second: number[] = [];
    const floor: number[] = [];
    for (let r = 0; r < rounds; r++) {
      floor.push(run(path, "floor")["ms"]!);
      const s = run(path, "search");
      first.push(s["firstMs"]!);
      second.push(s["secondMs"]!);
    }
    const row = {
      n,
      firstSearchMs: median(first),
      secondSearchMs: median(second),
      floorMs: median(floor),
      timesFloor: median(first) / median(floor),
    };
    rows.push(row);
    console.log(
      `n=${n}: first search ${row.firstSearchMs.toFixed(0)} ms, reading the terms ${row.floorMs.toFixed(0)} ms`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `First search after reopening a SQLite index, fresh process (${quick ? "quick" : "full"}; median of ${rounds} rounds)`,
  ["entries", "first search ms", "second search ms", "reading every terms column ms (floor)", "× floor"],
  rows.map((r) => [r.n, r.firstSearchMs, r.secondSearchMs, r.floorMs, r.timesFloor]),
);
console.log(`results: ${writeResults("reopen", { rounds, rows })}`);
