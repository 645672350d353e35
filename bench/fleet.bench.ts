/**
 * The fleet benchmark: 8 worker processes on one throwaway PostgreSQL cluster, each with its own
 * namespaces of one shared index table, writing batches and searching concurrently while random
 * workers are SIGKILLed mid-work (and started again) and the server crashes and restarts once
 * (`bench/fleet/fleet.ts`). Reports per-worker write throughput, search latency p50/p99, a fresh
 * worker's first search and the first search after the restart, kills, restarts, lost
 * acknowledged entries (must be 0) and cross-namespace hits (0); writes bench/results/fleet.json
 * and bench/results/fleet.svg. Fails (exit 1) when anything acknowledged is lost, a search
 * crossed namespaces or a worker died of anything but a kill.
 *
 * `node --import tsx --conditions=development bench/fleet.bench.ts` — 8 workers × 4 namespaces,
 * 180 s, batches of 20, 12 kills, a 3 s outage; quick mode (CC_BENCH_QUICK=1): 8 × 2, 20 s,
 * batches of 5, 4 kills, 1.5 s.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { printTable, quick, resultsDir, writeResults } from "./harness.js";
import { renderFleetChart } from "./fleet/chart.js";
import { runFleet, type FleetOptions } from "./fleet/fleet.js";

const dir = mkdtempSync(join(tmpdir(), "cc-fleet-bench-"));
const options: Omit<FleetOptions, "dir" | "port"> = quick
  ? {
      workers: 8,
      namespacesPerWorker: 2,
      durationMs: 20_000,
      batch: 5,
      pauseMs: 40,
      kills: 4,
      restartAt: 0.45,
      downSeconds: 1.5,
      seed: 7,
    }
  : {
      workers: 8,
      namespacesPerWorker: 4,
      durationMs: 180_000,
      batch: 20,
      pauseMs: 20,
      kills: 12,
      restartAt: 0.45,
      downSeconds: 3,
      seed: 7,
    };
let report;
try {
  report = await runFleet({ ...options, dir, port: 62000 + Math.floor(Math.random() * 900) });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `Fleet: ${report.workers} workers, ${report.namespaces} namespaces on one PostgreSQL table, ${(report.durationMs / 1000).toFixed(0)} s (${quick ? "quick" : "full"})`,
  [
    "worker",
    "processes",
    "acknowledged",
    "entries/s",
    "write p50 ms",
    "searches",
    "search p50 ms",
    "search p99 ms",
    "writes after restart",
  ],
  report.perWorker.map((w) => [
    w.worker,
    w.incarnations,
    w.acknowledged,
    w.entriesPerSec,
    w.writeP50Ms,
    w.searches,
    w.searchP50Ms,
    w.searchP99Ms,
    w.writesAfterRestart,
  ]),
);
printTable(
  "Fleet: faults and checks",
  ["what", "value"],
  [
    ["acknowledged entries", report.acknowledged],
    ["entries stored (acknowledged + cut-off writes)", report.stored],
    ["workers SIGKILLed / started again", `${report.kills} / ${report.workerRestarts}`],
    ["PostgreSQL restarts (down ms)", `${report.serverRestarts} (${report.serverDownMs.toFixed(0)})`],
    ["longest outage a worker saw, ms", report.longestOutageMs],
    [
      "typed errors seen",
      Object.entries(report.errors)
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
    ],
    ["worker crashes / hung", `${report.crashes.length} / ${report.hung}`],
    [
      "searches (p50 / p99 ms)",
      `${report.searches} (${report.searchP50Ms.toFixed(2)} / ${report.searchP99Ms.toFixed(2)})`,
    ],
    [
      "fresh worker's first search, p50 / max ms",
      `${report.firstSearchP50Ms.toFixed(1)} / ${report.firstSearchMaxMs.toFixed(1)}`,
    ],
    [
      "first search after the restart, p50 / max ms",
      `${report.afterRestartSearchP50Ms.toFixed(1)} / ${report.afterRestartSearchMaxMs.toFixed(1)}`,
    ],
    ["lost acknowledged entries", report.lost],
    ["cross-namespace hits (run / verification)", `${report.crossHitsDuringRun} / ${report.crossHitsAtEnd}`],
    ["own write not found right after it", report.ownWriteMisses],
  ],
);
const { timeline, ...figures } = report;
console.log(`results: ${writeResults("fleet", { options, ...figures, timeline })}`);
const svg = renderFleetChart({
  title: `Fleet: ${report.workers} workers on one PostgreSQL index — ${report.kills} SIGKILLs, 1 server crash/restart, ${report.lost} lost, ${report.crossHitsDuringRun + report.crossHitsAtEnd} cross-namespace hits`,
  timeline,
  killAt: report.killAt,
  restartWindow: report.restartWindow,
});
writeFileSync(join(resultsDir, "fleet.svg"), svg);
console.log(`chart: ${join(resultsDir, "fleet.svg")}`);
const failed =
  report.lost > 0 ||
  report.crossHitsDuringRun + report.crossHitsAtEnd > 0 ||
  report.crashes.length > 0 ||
  report.hung > 0;
if (failed) {
  console.error(
    `fleet: FAILED ${JSON.stringify({ lost: report.lostSample, crashes: report.crashes, hung: report.hung })}`,
  );
  process.exit(1);
}
