/**
 * Whole-index cold start with a persisted postings snapshot, in fresh processes: opening the
 * index and its first search across every namespace, with the snapshot (restored, then caught up
 * by generation), with the snapshot preloaded (`snapshots.preload: { allNamespaces: true }`: its
 * file read while the driver loads and connects) and without (the postings rebuilt from every
 * stored row), on SQLite and PostgreSQL. Baseline, measured in the same run and the same kind of
 * process: reading the snapshot file into memory with `fs.readFile`, side by side with both cold
 * starts in each round (their order rotating), so the ratios are also given per round (median and
 * range); the rebuilds from rows run after those rounds. Medians.
 *
 * `node --import tsx --conditions=development bench/snapshot.bench.ts` — 1e6 entries (CC_BENCH_SIZES
 * overrides, e.g. "100000"); quick mode (CC_BENCH_QUICK=1): 1e4. PostgreSQL: CC_PG_URL, else a
 * throwaway cluster (skipped, and said so, when there is no server). Writes bench/results/snapshot.json.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openPostgresIndex, openSqliteIndex, type SegmentIndex } from "@cc/search";
import { printTable, quick, writeResults } from "./harness.js";
import { cleanupOnSignal, dropIndexTables, pgServer } from "./postgres.js";
import { makeEntries } from "./search/corpus.js";

const sizes = process.env["CC_BENCH_SIZES"]
  ? process.env["CC_BENCH_SIZES"].split(",").map(Number)
  : quick
    ? [10_000]
    : [1_000_000];
// Nine: one round's ratio to reading the file moves by ±0.4 on this machine (1.13–1.95 among five rounds of one run).
const rounds = quick ? 2 : 9;
/** Rounds of the rebuild from rows (the slow baseline of the speed-up), run after the others. */
const withoutRounds = quick ? 1 : 3;
const probe = join(dirname(fileURLToPath(import.meta.url)), "snapshot", "probe.ts");

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Runs the probe in a fresh node process and parses its JSON line. */
function run(args: readonly string[]): Record<string, number | string> {
  const out = execFileSync(process.execPath, ["--import", "tsx", "--conditions=development", probe, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number | string>;
}
const num = (r: Record<string, number | string>, k: string): number => Number(r[k]);

/** Writes `n` entries of the benchmark corpus, 1,000 a batch. */
async function fill(index: SegmentIndex, n: number): Promise<void> {
  for (let i = 0; i < n; i += 100_000) {
    const batch = makeEntries(Math.min(100_000, n - i)).map((e, j) => ({ ...e, id: `s${i + j}` }));
    for (let k = 0; k < batch.length; k += 1000) {
      const w = await index.write(batch.slice(k, k + 1000))();
      if (w._tag === "Left") throw new Error(JSON.stringify(w.left));
    }
  }
  await index.close()();
}

interface Row {
  readonly backend: string;
  readonly n: number;
  readonly snapshotBytes: number;
  readonly withSnapshotMs: number;
  /** The first search alone (the restore and catch-up), without opening. */
  readonly withSnapshotFirstSearchMs: number;
  readonly withoutSnapshotFirstSearchMs: number;
  readonly withoutSnapshotMs: number;
  readonly readFileMs: number;
  readonly timesReadFile: number;
  /** The first search with the snapshot / reading the file. */
  readonly firstSearchTimesReadFile: number;
  readonly speedup: number;
  readonly sameHits: boolean;
  /** Median over rounds of (cold start with the snapshot / reading the file) in the same round, and its range. */
  readonly pairedTimesReadFile: number;
  readonly pairedMin: number;
  readonly pairedMax: number;
  /** The cold start with the snapshot preloaded (read while the driver loads and connects): median ms, its first search, × reading the file. */
  readonly preloadMs: number;
  readonly preloadFirstSearchMs: number;
  readonly preloadTimesReadFile: number;
  /** Median over rounds of (cold start preloaded / reading the file) in the same round, and its range. */
  readonly preloadPairedTimesReadFile: number;
  readonly preloadPairedMin: number;
  readonly preloadPairedMax: number;
  readonly rounds: number;
  readonly withoutRounds: number;
}
const rows: Row[] = [];
const skipped: string[] = [];

/** Measures one backend at one size; `target` are the probe's arguments before DIR. */
function measure(backend: string, n: number, target: readonly string[], snapDir: string): void {
  // A first process loads from the rows and writes the snapshot (on close).
  const prep = run([backend, ...target, snapDir, "with"]);
  if (num(prep, "restored") !== 0) throw new Error("the snapshot directory was not empty");
  const file = readdirSync(snapDir).find((f) => f.endsWith(".ccsnap"));
  if (file === undefined) throw new Error("no snapshot written");
  const path = join(snapDir, file);
  const withMs: number[] = [];
  const withoutMs: number[] = [];
  const readMs: number[] = [];
  const withFirst: number[] = [];
  const withoutFirst: number[] = [];
  const paired: number[] = [];
  const preMs: number[] = [];
  const preFirst: number[] = [];
  const prePaired: number[] = [];
  const hits = new Set<string>();
  // Reading the file and the two cold starts with it, side by side in each round, their order
  // rotating (none always runs first); the rebuilds from rows (a gigabyte of heap each) come after
  // all of them, so their aftermath (freed memory, a cooled page cache) falls on none.
  for (let r = 0; r < rounds; r++) {
    let read = Number.NaN;
    let w: Record<string, number | string> = {};
    let p: Record<string, number | string> = {};
    const steps = [
      () => (read = num(run(["read", path]), "ms")),
      () => (w = run([backend, ...target, snapDir, "with"])),
      () => (p = run([backend, ...target, snapDir, "preload"])),
    ];
    for (let i = 0; i < steps.length; i++) steps[(r + i) % steps.length]!();
    for (const x of [w, p])
      if (num(x, "restored") !== 1 || num(x, "loaded") !== 0)
        throw new Error(`the snapshot was not used: ${JSON.stringify(x)}`);
    readMs.push(read);
    withMs.push(num(w, "coldMs"));
    withFirst.push(num(w, "firstMs"));
    paired.push(num(w, "coldMs") / read);
    preMs.push(num(p, "coldMs"));
    preFirst.push(num(p, "firstMs"));
    prePaired.push(num(p, "coldMs") / read);
    hits.add(String(w["hits"]));
    hits.add(String(p["hits"]));
  }
  for (let r = 0; r < withoutRounds; r++) {
    const o = run([backend, ...target, snapDir, "without"]);
    withoutMs.push(num(o, "coldMs"));
    withoutFirst.push(num(o, "firstMs"));
    hits.add(String(o["hits"]));
  }
  const same = hits.size === 1;
  const row: Row = {
    backend,
    n,
    snapshotBytes: statSync(path).size,
    withSnapshotMs: median(withMs),
    withSnapshotFirstSearchMs: median(withFirst),
    withoutSnapshotFirstSearchMs: median(withoutFirst),
    withoutSnapshotMs: median(withoutMs),
    readFileMs: median(readMs),
    timesReadFile: median(withMs) / median(readMs),
    firstSearchTimesReadFile: median(withFirst) / median(readMs),
    speedup: median(withoutMs) / median(withMs),
    sameHits: same,
    pairedTimesReadFile: median(paired),
    pairedMin: Math.min(...paired),
    pairedMax: Math.max(...paired),
    preloadMs: median(preMs),
    preloadFirstSearchMs: median(preFirst),
    preloadTimesReadFile: median(preMs) / median(readMs),
    preloadPairedTimesReadFile: median(prePaired),
    preloadPairedMin: Math.min(...prePaired),
    preloadPairedMax: Math.max(...prePaired),
    rounds,
    withoutRounds,
  };
  rows.push(row);
  console.log(
    `${backend} n=${n}: with a snapshot ${row.withSnapshotMs.toFixed(0)} ms, preloaded ${row.preloadMs.toFixed(0)} ms, without ${row.withoutSnapshotMs.toFixed(0)} ms, reading the file ${row.readFileMs.toFixed(0)} ms`,
  );
}

// The machine's load average (1, 5, 15 min) at the start and end: fresh-process times are wall-clock.
const loadStart = loadavg();
const dir = mkdtempSync(join(tmpdir(), "cc-snapshot-"));
const server = pgServer("snapshot", 60300);
cleanupOnSignal(() => {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
});
try {
  for (const n of sizes) {
    const path = join(dir, `index-${n}.db`);
    const opened = await openSqliteIndex({ path })();
    if (opened._tag === "Left") throw new Error(JSON.stringify(opened.left));
    await fill(opened.right, n);
    measure("sqlite", n, [path], join(dir, `sqlite-${n}`));
    rmSync(path, { force: true });
    if (server.url === undefined) {
      skipped.push(`postgres: ${server.why}`);
      continue;
    }
    const table = `snap_bench_${n}`;
    dropIndexTables(server.url, table);
    const pg = await openPostgresIndex({ connection: server.url, table })();
    if (pg._tag === "Left") throw new Error(JSON.stringify(pg.left));
    await fill(pg.right, n);
    // A fresh server-side view of the table, as a long-running server has (statistics, visibility map), as in namespaces.bench.ts.
    execFileSync("psql", [server.url, "-qc", `VACUUM ANALYZE ${table}`], { stdio: "ignore" });
    measure("postgres", n, [server.url, table], join(dir, `postgres-${n}`));
  }
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `Whole-index cold start (open + first search), fresh process, with and without a snapshot (${quick ? "quick" : "full"}; medians of ${rounds} rounds with the snapshot and reading it, ${withoutRounds} without)`,
  [
    "backend",
    "entries",
    "snapshot MB",
    "with snapshot ms",
    "of which first search",
    "without ms",
    "fs.readFile of the snapshot ms",
    "× readFile (cold start)",
    "× readFile, paired median",
    "range",
    "× readFile (first search)",
    "preloaded ms",
    "× readFile",
    "paired median",
    "range",
    "speed-up",
    "same hits",
  ],
  rows.map((r) => [
    r.backend,
    r.n,
    r.snapshotBytes / 1e6,
    r.withSnapshotMs,
    r.withSnapshotFirstSearchMs,
    r.withoutSnapshotMs,
    r.readFileMs,
    r.timesReadFile,
    r.pairedTimesReadFile,
    `${r.pairedMin.toFixed(2)}–${r.pairedMax.toFixed(2)}`,
    r.firstSearchTimesReadFile,
    r.preloadMs,
    r.preloadTimesReadFile,
    r.preloadPairedTimesReadFile,
    `${r.preloadPairedMin.toFixed(2)}–${r.preloadPairedMax.toFixed(2)}`,
    r.speedup,
    r.sameHits ? "yes" : "NO",
  ]),
);
for (const s of skipped) console.log(`skipped ${s}`);
console.log(
  `results: ${writeResults("snapshot", { rounds, loadAverage: { start: loadStart, end: loadavg() }, rows, skipped })}`,
);
