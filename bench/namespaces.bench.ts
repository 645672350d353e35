/**
 * The first search in one namespace of 1,000 entries of a larger shared index, in a fresh
 * process: it loads that namespace's postings only. On SQLite and on PostgreSQL (one table that
 * every namespace shares). Per backend: the median of `rounds` fresh processes (each in another
 * namespace) with a distribution-free 95 % interval, and the process's RSS growth over the first
 * search (RSS just after it minus RSS just before it, same process) against what the namespace's
 * postings need (the cache's own byte estimate). Baseline, measured in the same run and the same
 * kind of process: the first search across every namespace (which loads the whole index).
 * Three more views of the same rounds: a fresh worker whose host already holds the namespace's
 * snapshot (written first by one process, as the first worker on a host writes it), a fresh
 * worker on a host that holds no snapshot, restoring the namespace from the snapshot kept in the
 * index's own database (`snapshots: { store: "database" }`, written first by one process, as the
 * first worker of a fleet writes it), a fresh worker loading from rows whose node runs with V8's
 * young generation capped (`--max-semi-space-size=1`, an option of the worker's process, not of
 * the library: what V8's young generation adds to the RSS growth), and a warm worker's next namespace (its first search in another namespace, loaded from rows, in the same
 * process): RSS growth over the cache bytes it adds, without a fresh process's one-time costs
 * (compiled code, the driver's page cache, the young generation).
 *
 * `node --import tsx --conditions=development bench/namespaces.bench.ts` — 1e6 entries in 1,000
 * namespaces of 1,000, 20 namespace rounds and 3 whole-index rounds per backend (CC_BENCH_SIZES
 * overrides the total, e.g. "100000"; CC_BENCH_BACKENDS "sqlite" or "postgres" runs one); quick
 * mode (CC_BENCH_QUICK=1): 1e4, 3 and 1 rounds. PostgreSQL: `CC_PG_URL`, else a throwaway
 * cluster (`.ci/postgres.sh`). Writes bench/results/namespaces.json.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SegmentIndex } from "@cc/search";
import { openPostgresIndex, openSqliteIndex } from "@cc/search";
import { printTable, quick, writeResults } from "./harness.js";
import { medianInterval, type MedianInterval } from "./namespaces/stats.js";
import { cleanupOnSignal, dropIndexTables, pgServer } from "./postgres.js";
import { makeEntries } from "./search/corpus.js";

const sizes = process.env["CC_BENCH_SIZES"]
  ? process.env["CC_BENCH_SIZES"].split(",").map(Number)
  : quick
    ? [10_000]
    : [1_000_000];
const backends = (process.env["CC_BENCH_BACKENDS"] ?? "sqlite,postgres")
  .split(",")
  .filter((b): b is "sqlite" | "postgres" => b === "sqlite" || b === "postgres");
const perNamespace = 1000;
const rounds = quick ? 3 : 20;
const wholeRounds = quick ? 1 : 3;
const probe = join(dirname(fileURLToPath(import.meta.url)), "namespaces", "probe.ts");

/** Node's option for the worker processes of the "small young generation" view (V8's semi-space capped at 1 MiB). */
const SMALL_YOUNG = "--max-semi-space-size=1";

/** Runs the probe in a fresh node process (with `nodeFlags`) and parses its JSON line. */
function run(args: readonly string[], nodeFlags: readonly string[] = []): Record<string, number> {
  const out = execFileSync(
    process.execPath,
    [...nodeFlags, "--expose-gc", "--import", "tsx", "--conditions=development", probe, ...args],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number>;
}

/** Writes `n` entries round-robin into `n / perNamespace` namespaces, in batches of 5,000; entries per second. */
async function fill(index: SegmentIndex, n: number, namespaces: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i += 100_000) {
    const batch = makeEntries(Math.min(100_000, n - i)).map((e, j) => ({
      ...e,
      id: `s${i + j}`,
      namespace: `t${(i + j) % namespaces}`,
    }));
    for (let k = 0; k < batch.length; k += 5000) {
      const w = await index.write(batch.slice(k, k + 5000))();
      if (w._tag === "Left") throw new Error(JSON.stringify(w.left));
    }
    if (n >= 100_000) console.log(`  ${index.backend}: ${(i + batch.length).toLocaleString("en-US")} entries written`);
  }
  return n / ((performance.now() - t0) / 1000);
}

interface Row {
  readonly backend: "sqlite" | "postgres";
  readonly n: number;
  readonly namespaces: number;
  readonly rounds: number;
  readonly writePerSec: number;
  /** First search in one namespace, ms: median of `rounds` fresh processes and its interval. */
  readonly namespaceFirst: MedianInterval;
  readonly namespaceFirstMs: number;
  readonly namespaceSecondMs: number;
  /** CPU time (user + system) of the probe process in its first and second search, ms (medians): what it spent itself, whatever else ran. */
  readonly namespaceFirstCpuMs: number;
  readonly namespaceSecondCpuMs: number;
  readonly namespaceLoaded: number;
  /** The postings cache's own estimate of the namespace's bytes (median over rounds). */
  readonly cacheBytes: number;
  /** RSS after the first search minus RSS just before it (median over rounds), and its interval. */
  readonly rssGrowth: MedianInterval;
  readonly rssGrowthBytes: number;
  /** rssGrowthBytes / cacheBytes. */
  readonly rssRatio: number;
  /** V8 heap used after minus before (median), and external memory's growth (median; Node's `external` includes the array buffers). */
  readonly heapGrowthBytes: number;
  readonly externalGrowthBytes: number;
  /** Heap used plus external memory after a collection, minus the same before the search (median): what the search retained. */
  readonly retainedBytes: number;
  /** retainedBytes / cacheBytes: how far the cache's estimate is from what it holds. */
  readonly retainedRatio: number;
  readonly wholeRounds: number;
  readonly wholeFirst: MedianInterval;
  readonly wholeFirstMs: number;
  readonly wholeLoaded: number;
  readonly wholeFirstCpuMs: number;
  readonly wholeCacheBytes: number;
  readonly wholeRssGrowthBytes: number;
  readonly wholeRetainedBytes: number;
  readonly ratio: number;
  /** A fresh worker whose host holds the namespace's snapshot (written by an earlier worker): first search, ms, and its interval. */
  readonly snapshotFirst: MedianInterval;
  readonly snapshotFirstMs: number;
  readonly snapshotFirstCpuMs: number;
  /** Scopes restored in those processes (median; 1 when every one restored its namespace). */
  readonly snapshotRestored: number;
  readonly snapshotCacheBytes: number;
  readonly snapshotRssGrowth: MedianInterval;
  readonly snapshotRssRatio: number;
  /** A fresh worker on a host with no snapshot, restoring from the snapshot kept in the database: first search, ms, and its interval. */
  readonly dbSnapshotFirst: MedianInterval;
  readonly dbSnapshotFirstMs: number;
  readonly dbSnapshotFirstCpuMs: number;
  /** Scopes restored in those processes (median; 1 when every one restored its namespace). */
  readonly dbSnapshotRestored: number;
  readonly dbSnapshotCacheBytes: number;
  readonly dbSnapshotRssGrowth: MedianInterval;
  readonly dbSnapshotRssRatio: number;
  /** A fresh worker from rows, its node run with `--max-semi-space-size=1`: first search, ms, RSS growth and its ratio to the cache bytes. */
  readonly smallYoungFirst: MedianInterval;
  readonly smallYoungRssGrowth: MedianInterval;
  readonly smallYoungCacheBytes: number;
  readonly smallYoungRssRatio: number;
  /** A warm worker's next namespace (its first search in the same process, from rows): ms, RSS growth, and RSS growth over the cache bytes it added. */
  readonly nextFirst: MedianInterval;
  readonly nextRssGrowth: MedianInterval;
  readonly nextCacheBytes: number;
  readonly nextRssRatio: number;
  readonly nextRetainedRatio: number;
}

/**
 * Alternates whole-index, namespace and namespace-with-snapshot probes (`target` is the probe's
 * index arguments). The snapshots of the rounds' namespaces are written first, by one process
 * (`prepare`), as the first worker on a host writes them.
 */
function measure(
  backend: "sqlite" | "postgres",
  n: number,
  namespaces: number,
  target: readonly string[],
  writePerSec: number,
  snapshotDir: string,
): Row {
  const ns: Record<string, number>[] = [];
  const whole: Record<string, number>[] = [];
  const snap: Record<string, number>[] = [];
  const dbSnap: Record<string, number>[] = [];
  const smallYoung: Record<string, number>[] = [];
  const nsOf = (r: number): string => `t${(r * 37 + 11) % namespaces}`;
  // The next namespace of round r: one no other round uses (so it is loaded from rows).
  const nextOf = (r: number): string => `t${(r * 37 + 11 + Math.floor(namespaces / 2)) % namespaces}`;
  const prepared = Array.from({ length: rounds }, (_, r) => nsOf(r)).join(",");
  run([backend, ...target, "prepare", prepared, `snapshots=${snapshotDir}`]);
  run([backend, ...target, "prepare", prepared, "snapshots=database"]);
  for (let r = 0; r < rounds; r++) {
    if (r < wholeRounds) whole.push(run([backend, ...target, "whole"]));
    ns.push(run([backend, ...target, "namespace", nsOf(r), `next=${nextOf(r)}`]));
    snap.push(run([backend, ...target, "namespace", nsOf(r), `snapshots=${snapshotDir}`]));
    dbSnap.push(run([backend, ...target, "namespace", nsOf(r), "snapshots=database"]));
    smallYoung.push(run([backend, ...target, "namespace", nsOf(r)], [SMALL_YOUNG]));
    for (const x of [snap.at(-1)!, dbSnap.at(-1)!])
      if (x["restored"] !== 1 || x["loaded"] !== 0) throw new Error(`the snapshot was not used: ${JSON.stringify(x)}`);
  }
  const col = (xs: readonly Record<string, number>[], k: string): number[] => xs.map((x) => x[k]!);
  const growth = (xs: readonly Record<string, number>[], k: string): number[] =>
    xs.map((x) => x[`${k}After`]! - x[`${k}Before`]!);
  const namespaceFirst = medianInterval(col(ns, "firstMs"));
  const wholeFirst = medianInterval(col(whole, "firstMs"));
  const rssGrowth = medianInterval(growth(ns, "rss"));
  const cacheBytes = medianInterval(col(ns, "cacheBytes")).median;
  const snapshotFirst = medianInterval(col(snap, "firstMs"));
  const snapshotRssGrowth = medianInterval(growth(snap, "rss"));
  const snapshotCacheBytes = medianInterval(col(snap, "cacheBytes")).median;
  const dbSnapshotFirst = medianInterval(col(dbSnap, "firstMs"));
  const dbSnapshotRssGrowth = medianInterval(growth(dbSnap, "rss"));
  const dbSnapshotCacheBytes = medianInterval(col(dbSnap, "cacheBytes")).median;
  const smallYoungRssGrowth = medianInterval(growth(smallYoung, "rss"));
  const smallYoungCacheBytes = medianInterval(col(smallYoung, "cacheBytes")).median;
  const nextRssGrowth = medianInterval(col(ns, "nextRss"));
  const nextCacheBytes = medianInterval(col(ns, "nextCacheBytes")).median;
  return {
    backend,
    n,
    namespaces,
    rounds,
    writePerSec,
    namespaceFirst,
    namespaceFirstMs: namespaceFirst.median,
    namespaceSecondMs: medianInterval(col(ns, "secondMs")).median,
    namespaceFirstCpuMs: medianInterval(col(ns, "firstCpuMs")).median,
    namespaceSecondCpuMs: medianInterval(col(ns, "secondCpuMs")).median,
    namespaceLoaded: medianInterval(col(ns, "loaded")).median,
    cacheBytes,
    rssGrowth,
    rssGrowthBytes: rssGrowth.median,
    rssRatio: rssGrowth.median / cacheBytes,
    heapGrowthBytes: medianInterval(growth(ns, "heap")).median,
    externalGrowthBytes: medianInterval(growth(ns, "external")).median,
    retainedBytes: medianInterval(growth(ns, "retained")).median,
    retainedRatio: medianInterval(growth(ns, "retained")).median / cacheBytes,
    wholeRounds,
    wholeFirst,
    wholeFirstMs: wholeFirst.median,
    wholeLoaded: medianInterval(col(whole, "loaded")).median,
    wholeFirstCpuMs: medianInterval(col(whole, "firstCpuMs")).median,
    wholeCacheBytes: medianInterval(col(whole, "cacheBytes")).median,
    wholeRssGrowthBytes: medianInterval(growth(whole, "rss")).median,
    wholeRetainedBytes: medianInterval(growth(whole, "retained")).median,
    ratio: namespaceFirst.median / wholeFirst.median,
    snapshotFirst,
    snapshotFirstMs: snapshotFirst.median,
    snapshotFirstCpuMs: medianInterval(col(snap, "firstCpuMs")).median,
    snapshotRestored: medianInterval(col(snap, "restored")).median,
    snapshotCacheBytes,
    snapshotRssGrowth,
    snapshotRssRatio: snapshotRssGrowth.median / snapshotCacheBytes,
    dbSnapshotFirst,
    dbSnapshotFirstMs: dbSnapshotFirst.median,
    dbSnapshotFirstCpuMs: medianInterval(col(dbSnap, "firstCpuMs")).median,
    dbSnapshotRestored: medianInterval(col(dbSnap, "restored")).median,
    dbSnapshotCacheBytes,
    dbSnapshotRssGrowth,
    dbSnapshotRssRatio: dbSnapshotRssGrowth.median / dbSnapshotCacheBytes,
    smallYoungFirst: medianInterval(col(smallYoung, "firstMs")),
    smallYoungRssGrowth,
    smallYoungCacheBytes,
    smallYoungRssRatio: smallYoungRssGrowth.median / smallYoungCacheBytes,
    nextFirst: medianInterval(col(ns, "nextMs")),
    nextRssGrowth,
    nextCacheBytes,
    nextRssRatio: nextRssGrowth.median / nextCacheBytes,
    nextRetainedRatio: medianInterval(col(ns, "nextRetained")).median / nextCacheBytes,
  };
}

const rows: Row[] = [];
// The machine's load average (1, 5, 15 min) at the start and end: fresh-process times are wall-clock.
const loadStart = loadavg();
const dir = mkdtempSync(join(tmpdir(), "cc-namespaces-"));
const server = backends.includes("postgres") ? pgServer("namespaces", 61000) : undefined;
const cleanup = (): void => {
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
};
cleanupOnSignal(cleanup);
try {
  for (const n of sizes) {
    const namespaces = Math.max(1, Math.floor(n / perNamespace));
    for (const backend of backends) {
      if (backend === "sqlite") {
        const path = join(dir, `index-${n}.db`);
        const opened = await openSqliteIndex({ path })();
        if (opened._tag === "Left") throw new Error(JSON.stringify(opened.left));
        const writePerSec = await fill(opened.right, n, namespaces);
        await opened.right.close()();
        rows.push(measure(backend, n, namespaces, [path], writePerSec, join(dir, `snapshots-sqlite-${n}`)));
      } else {
        if (server === undefined || server.url === undefined)
          throw new Error(server !== undefined && server.url === undefined ? server.why : "no server");
        const table = `cc_ns_${n}`;
        dropIndexTables(server.url, table);
        const opened = await openPostgresIndex({ connection: server.url, table, chunkSize: 1000 })();
        if (opened._tag === "Left") throw new Error(JSON.stringify(opened.left));
        const writePerSec = await fill(opened.right, n, namespaces);
        await opened.right.close()();
        // A fresh server-side view of the table, as a long-running server has (statistics, visibility map).
        execFileSync("psql", [server.url, "-qc", `VACUUM ANALYZE ${table}`], { stdio: "ignore" });
        rows.push(
          measure(backend, n, namespaces, [server.url, table], writePerSec, join(dir, `snapshots-postgres-${n}`)),
        );
      }
      const row = rows.at(-1)!;
      console.log(
        `${backend} n=${n}: first search in a namespace of ${perNamespace} ${row.namespaceFirstMs.toFixed(1)} ms [${row.namespaceFirst.lo.toFixed(1)}, ${row.namespaceFirst.hi.toFixed(1)}], RSS growth ${(row.rssGrowthBytes / 2 ** 20).toFixed(2)} MiB for ${(row.cacheBytes / 2 ** 20).toFixed(2)} MiB of postings; with the namespace's snapshot on the host ${row.snapshotFirstMs.toFixed(1)} ms, RSS growth ${row.snapshotRssRatio.toFixed(2)}×; from the database's snapshot ${row.dbSnapshotFirstMs.toFixed(1)} ms, RSS growth ${row.dbSnapshotRssRatio.toFixed(2)}×; from rows with ${SMALL_YOUNG} ${row.smallYoungFirst.median.toFixed(1)} ms, RSS growth ${row.smallYoungRssRatio.toFixed(2)}×; a warm worker's next namespace ${row.nextFirst.median.toFixed(1)} ms, RSS growth ${row.nextRssRatio.toFixed(2)}×; across every namespace ${row.wholeFirstMs.toFixed(0)} ms`,
      );
    }
  }
} finally {
  cleanup();
}

const mib = (b: number): string => (b / 2 ** 20).toFixed(2);
printTable(
  `First search in one namespace of ${perNamespace} entries vs across every namespace, fresh process (${quick ? "quick" : "full"}; median of ${rounds} namespace and ${wholeRounds} whole-index rounds, 95% order-statistic interval)`,
  [
    "backend",
    "entries",
    "namespaces",
    "ns first ms",
    "interval",
    "CPU ms",
    "ns second ms",
    "CPU ms",
    "loaded",
    "postings MiB",
    "RSS growth MiB",
    "× postings",
    "retained MiB",
    "× postings",
    "snapshot first ms",
    "interval",
    "RSS × postings",
    "db snapshot first ms",
    "interval",
    "RSS × postings",
    "small young gen ms",
    "RSS × postings",
    "next ns ms",
    "RSS × postings",
    "whole first ms",
    "loaded",
    "whole MiB",
    "whole RSS MiB",
    "ratio",
  ],
  rows.map((r) => [
    r.backend,
    r.n,
    r.namespaces,
    r.namespaceFirstMs,
    `${r.namespaceFirst.lo.toFixed(1)}–${r.namespaceFirst.hi.toFixed(1)}`,
    r.namespaceFirstCpuMs,
    r.namespaceSecondMs,
    r.namespaceSecondCpuMs,
    r.namespaceLoaded,
    mib(r.cacheBytes),
    mib(r.rssGrowthBytes),
    r.rssRatio,
    mib(r.retainedBytes),
    r.retainedRatio,
    r.snapshotFirstMs,
    `${r.snapshotFirst.lo.toFixed(1)}–${r.snapshotFirst.hi.toFixed(1)}`,
    r.snapshotRssRatio,
    r.dbSnapshotFirstMs,
    `${r.dbSnapshotFirst.lo.toFixed(1)}–${r.dbSnapshotFirst.hi.toFixed(1)}`,
    r.dbSnapshotRssRatio,
    r.smallYoungFirst.median,
    r.smallYoungRssRatio,
    r.nextFirst.median,
    r.nextRssRatio,
    r.wholeFirstMs,
    r.wholeLoaded,
    mib(r.wholeCacheBytes),
    mib(r.wholeRssGrowthBytes),
    r.ratio,
  ]),
);
console.log(
  `results: ${writeResults("namespaces", { rounds, wholeRounds, perNamespace, loadAverage: { start: loadStart, end: loadavg() }, rows })}`,
);
