/**
 * The fleet: N worker processes (`bench/fleet/worker.ts`) on one throwaway PostgreSQL cluster,
 * each with its own namespaces of one shared index table, writing and searching concurrently,
 * while the harness SIGKILLs random workers mid-work (and starts them again) and restarts the
 * server once (immediate stop, as a crash; the start recovers from the WAL). Afterwards every
 * acknowledged entry must be found by a search in its own namespace and by no other's.
 * Used by `bench/test/fleet.test.ts` (quick size) and `bench/fleet.bench.ts`.
 *
 * @module bench/fleet/fleet
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openPostgresIndex } from "@cc/search";
import { MAX_QUERY_TERMS } from "@cc/test-support/search";
import { mulberry32 } from "../search/corpus.js";
import { parseAcks, parseEvents, type Ack, type FleetEvent, type WorkerArgs } from "./protocol.js";

const run = promisify(execFile);
const script = fileURLToPath(new URL("../../.ci/postgres.sh", import.meta.url));
const workerScript = fileURLToPath(new URL("./worker.ts", import.meta.url));

/** Size and faults of one fleet run. */
export interface FleetOptions {
  /** A directory for the workers' acknowledgement and event files. */
  readonly dir: string;
  /** Loopback port of the throwaway cluster. */
  readonly port: number;
  readonly workers: number;
  readonly namespacesPerWorker: number;
  /** How long the workers run, ms (from the moment every first worker process has written). */
  readonly durationMs: number;
  /** Entries per write. */
  readonly batch: number;
  /** A worker's pause between iterations, ms. */
  readonly pauseMs: number;
  /** SIGKILLs of random working workers, spread over the middle of the run. */
  readonly kills: number;
  /** When the server restart begins, as a fraction of the run. */
  readonly restartAt: number;
  /** How long the server stays down, s. */
  readonly downSeconds: number;
  readonly seed: number;
}

/** A problem found by {@link verifyAcks}. */
export interface VerifyResult {
  /** Acknowledged entries their own namespace's search (or the whole-index search) did not find. */
  readonly lost: readonly Ack[];
  /** Hits of a search in the wrong namespace: a whole-index hit whose namespace is not the entry's, or any hit of another namespace's search. */
  readonly crossHits: number;
  /** Searches run. */
  readonly searches: number;
}

/** A hit as the verification reads it. */
export interface SeenHit {
  readonly id: string;
  readonly namespace: string;
}

/** Searches `query` (k = 1,000) in `namespace`, or across every namespace when undefined. */
export type Searcher = (query: string, namespace: string | undefined) => Promise<readonly SeenHit[]>;

/**
 * Checks acknowledged entries against an index, `MAX_QUERY_TERMS` entries of one namespace per
 * query (their unique terms, OR): each must be a hit of the search in its own namespace and of
 * the whole-index search, the whole-index search must return no entry in another namespace
 * than acknowledged, and the search in another namespace (`otherOf`) must return nothing.
 * An entry acknowledged in namespace A but stored in B therefore counts as lost and as a cross
 * hit (the test's self-check feeds it exactly that).
 */
export async function verifyAcks(
  acks: readonly Ack[],
  search: Searcher,
  otherOf: (namespace: string) => string,
): Promise<VerifyResult> {
  const byNs = new Map<string, Ack[]>();
  for (const a of acks) byNs.set(a.namespace, [...(byNs.get(a.namespace) ?? []), a]);
  const lost: Ack[] = [];
  let crossHits = 0;
  let searches = 0;
  for (const [namespace, list] of byNs) {
    for (let i = 0; i < list.length; i += MAX_QUERY_TERMS) {
      const group = list.slice(i, i + MAX_QUERY_TERMS);
      const query = group.map((a) => a.term).join(" ");
      const own = new Set((await search(query, namespace)).map((h) => `${h.namespace}\u0000${h.id}`));
      const whole = await search(query, undefined);
      const other = await search(query, otherOf(namespace));
      searches += 3;
      const wholeKeys = new Set(whole.map((h) => `${h.namespace}\u0000${h.id}`));
      for (const a of group)
        if (!own.has(`${a.namespace}\u0000${a.id}`) || !wholeKeys.has(`${a.namespace}\u0000${a.id}`)) lost.push(a);
      const ids = new Set(group.map((a) => a.id));
      crossHits += whole.filter((h) => h.namespace !== namespace && ids.has(h.id)).length + other.length;
    }
  }
  return { lost, crossHits, searches };
}

/** The p-quantile (0..1) of `xs`, nearest rank; NaN when empty. */
export function quantile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
}

/** Per worker figures of a run. */
export interface WorkerFigures {
  readonly worker: number;
  readonly incarnations: number;
  readonly acknowledged: number;
  /** Acknowledged entries per second of the run. */
  readonly entriesPerSec: number;
  readonly writeP50Ms: number;
  readonly searchP50Ms: number;
  readonly searchP99Ms: number;
  readonly searches: number;
  /** Acknowledged writes that began after the server was back. */
  readonly writesAfterRestart: number;
}

/** One second of the run, for the chart. */
export interface TimelineBucket {
  /** Seconds from the start of the run. */
  readonly second: number;
  readonly entriesAcked: number;
  readonly searchP50Ms: number;
  readonly searchP99Ms: number;
  readonly errors: number;
}

/** What a fleet run did and what the verification found. */
export interface FleetReport {
  readonly workers: number;
  readonly namespaces: number;
  readonly durationMs: number;
  readonly acknowledged: number;
  /** Entries in the table at the end (acknowledged, plus writes cut off before their acknowledgement). */
  readonly stored: number;
  readonly kills: number;
  /** Worker processes started again after a kill. */
  readonly workerRestarts: number;
  readonly serverRestarts: number;
  /** The server's down time as the harness measured it: stop begun to start done, ms. */
  readonly serverDownMs: number;
  /** Worker exits the harness did not cause (non-zero code, no kill), with their stderr. */
  readonly crashes: readonly string[];
  /** Workers still running 60 s after the deadline (then killed). */
  readonly hung: number;
  readonly lost: number;
  readonly lostSample: readonly Ack[];
  /** Cross-namespace hits in the workers' own searches during the run. */
  readonly crossHitsDuringRun: number;
  /** Cross-namespace hits of the final verification. */
  readonly crossHitsAtEnd: number;
  /** Workers' searches that did not return the entry the worker had just acknowledged. */
  readonly ownWriteMisses: number;
  readonly searches: number;
  readonly verifySearches: number;
  readonly searchP50Ms: number;
  readonly searchP99Ms: number;
  /** A fresh worker process's first search (it loads its namespace): median and p99, ms. */
  readonly firstSearchP50Ms: number;
  readonly firstSearchMaxMs: number;
  /** The first search of each worker that succeeded after a failed operation (the server restart): median and largest, ms. */
  readonly afterRestartSearchP50Ms: number;
  readonly afterRestartSearchMaxMs: number;
  /** Longest time one worker process saw the store failing (first error to its next success), ms. */
  readonly longestOutageMs: number;
  /** Typed errors the workers saw, by tag. */
  readonly errors: Readonly<Record<string, number>>;
  readonly perWorker: readonly WorkerFigures[];
  readonly timeline: readonly TimelineBucket[];
  /** Seconds into the run of each kill, and of the server restart (begin, end). */
  readonly killAt: readonly number[];
  readonly restartWindow: readonly [number, number];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the fleet once and verifies it; the cluster is stopped and removed, the workers' files stay in `dir` (the caller removes it). */
export async function runFleet(o: FleetOptions): Promise<FleetReport> {
  // The cluster in a directory of its own (postgres.sh hands it to the postgres user).
  const pg = mkdtempSync(join(tmpdir(), "cc-fleet-pg-"));
  mkdirSync(o.dir, { recursive: true });
  try {
    const url = execFileSync("bash", [script, "start", pg, String(o.port)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
    try {
      return await fleetOn(o, pg, url);
    } finally {
      try {
        execFileSync("bash", [script, "stop", pg], { stdio: "ignore" });
      } catch {
        // stopped already: the directory is removed below either way
      }
    }
  } finally {
    rmSync(pg, { recursive: true, force: true });
  }
}

async function fleetOn(o: FleetOptions, pg: string, url: string): Promise<FleetReport> {
  const table = "cc_fleet";
  const random = mulberry32(o.seed);
  const namespaces = (w: number): string[] =>
    Array.from({ length: o.namespacesPerWorker }, (_, i) => `fleet-w${w}-n${i}`);
  // The schema first, so the workers' opens race on nothing but their connections.
  const created = await openPostgresIndex({ connection: url, table })();
  if (created._tag === "Left") throw new Error(`cannot create the fleet table: ${JSON.stringify(created.left)}`);
  await created.right.close()();

  const stopFile = join(o.dir, "stop");
  const files = (w: number): { readonly ackFile: string; readonly eventsFile: string } => ({
    ackFile: join(o.dir, `acks-${w}.tsv`),
    eventsFile: join(o.dir, `events-${w}.jsonl`),
  });
  const incarnations = Array.from({ length: o.workers }, () => 0);
  const procs = new Map<
    number,
    { readonly child: ChildProcess; readonly eventsAtSpawn: number; killed: boolean; readonly exited: Promise<void> }
  >();
  const crashes: string[] = [];
  const size = (f: string): number => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  };
  const spawnWorker = (w: number): void => {
    const f = files(w);
    const args: WorkerArgs = {
      url,
      table,
      worker: w,
      incarnation: incarnations[w]!,
      namespaces: namespaces(w),
      ...f,
      stopFile,
      batch: o.batch,
      pauseMs: o.pauseMs,
    };
    incarnations[w]!++;
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=development", workerScript, JSON.stringify(args)],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const slot = {
      child,
      eventsAtSpawn: size(f.eventsFile),
      killed: false,
      exited: new Promise<void>((resolve) => {
        child.on("exit", (code, signal) => {
          if (!slot.killed && code !== 0) crashes.push(`worker ${w}: exit ${code ?? signal ?? "?"}: ${stderr.trim()}`);
          resolve();
        });
      }),
    };
    procs.set(w, slot);
  };
  // Whatever happens below, no worker outlives the run.
  const killAll = (): void => {
    for (const p of procs.values()) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
      p.killed = true;
      p.child.kill("SIGKILL");
    }
  };
  try {
    return await drive();
  } finally {
    writeFileSync(stopFile, "");
    killAll();
  }

  async function drive(): Promise<FleetReport> {
    for (let w = 0; w < o.workers; w++) {
      writeFileSync(files(w).ackFile, "");
      writeFileSync(files(w).eventsFile, "");
      spawnWorker(w);
    }
    // The run starts once every worker has done something (process start-up is not part of it).
    const startBy = Date.now() + 120_000;
    while ([...Array(o.workers).keys()].some((w) => size(files(w).eventsFile) === 0)) {
      if (Date.now() > startBy || crashes.length > 0)
        throw new Error(`the workers did not start: ${crashes.join("; ")}`);
      await sleep(100);
    }
    const t0 = Date.now();
    const deadline = t0 + o.durationMs;

    // Kills at random times over the middle of the run; a kill takes a worker that has done work since it started.
    const killTimes = Array.from(
      { length: o.kills },
      () => t0 + o.durationMs * (0.1 + 0.7 * ((random() % 10_000) / 10_000)),
    ).sort((a, b) => a - b);
    const killAt: number[] = [];
    let workerRestarts = 0;
    const killer = (async () => {
      for (const at of killTimes) {
        await sleep(Math.max(0, at - Date.now()));
        for (let tries = 0; tries < 50 && Date.now() < deadline - 1000; tries++) {
          const working = [...procs.entries()].filter(
            ([w, p]) => p.child.exitCode === null && !p.killed && size(files(w).eventsFile) > p.eventsAtSpawn,
          );
          if (working.length > 0) {
            const [w, p] = working[random() % working.length]!;
            p.killed = true;
            p.child.kill("SIGKILL");
            killAt.push((Date.now() - t0) / 1000);
            await p.exited;
            spawnWorker(w);
            workerRestarts++;
            break;
          }
          await sleep(200);
        }
      }
    })();
    const restartBegin = t0 + o.durationMs * o.restartAt;
    let restartWindow: [number, number] = [Number.NaN, Number.NaN];
    const restarter = (async () => {
      await sleep(Math.max(0, restartBegin - Date.now()));
      const a = Date.now();
      await run("bash", [script, "restart", pg, String(o.port), String(o.downSeconds), "immediate"]);
      restartWindow = [(a - t0) / 1000, (Date.now() - t0) / 1000];
    })();
    await Promise.all([killer, restarter]);
    await sleep(Math.max(0, deadline - Date.now()));
    writeFileSync(stopFile, "");
    // Every worker stops by itself once the stop file exists; one that does not is killed 60 s later.
    let hung = 0;
    await Promise.all(
      [...procs.values()].map(async (p) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((resolve) => {
          timer = setTimeout(() => resolve("late"), Math.max(0, deadline + 60_000 - Date.now()));
        });
        const outcome = await Promise.race([p.exited.then(() => "done" as const), late]);
        clearTimeout(timer);
        if (outcome === "late") {
          hung++;
          p.killed = true;
          p.child.kill("SIGKILL");
          await p.exited;
        }
      }),
    );
    const durationMs = Date.now() - t0;

    // What the workers acknowledged and did.
    const acks = Array.from({ length: o.workers }, (_, w) => parseAcks(readFileSync(files(w).ackFile, "utf8")));
    const events = Array.from({ length: o.workers }, (_, w) => parseEvents(readFileSync(files(w).eventsFile, "utf8")));
    const opened = await openPostgresIndex({ connection: url, table })();
    if (opened._tag === "Left") throw new Error(`cannot open the fleet table: ${JSON.stringify(opened.left)}`);
    const index = opened.right;
    const search: Searcher = async (query, namespace) => {
      const r = await index.search(query, { k: 1000, ...(namespace === undefined ? {} : { namespace }) })();
      if (r._tag === "Left") throw new Error(`verification search failed: ${JSON.stringify(r.left)}`);
      return r.right;
    };
    const all = acks.flat();
    const everyNs = Array.from({ length: o.workers }, (_, w) => namespaces(w)).flat();
    const otherOf = (ns: string): string => everyNs[(everyNs.indexOf(ns) + 1) % everyNs.length]!;
    const verified = await verifyAcks(all, search, otherOf);
    const counted = await index.count()();
    await index.close()();

    const flat = events.flat();
    const searchesOf = (es: readonly FleetEvent[]): Extract<FleetEvent, { t: "search" }>[] =>
      es.filter((e): e is Extract<FleetEvent, { t: "search" }> => e.t === "search");
    const searches = searchesOf(flat);
    const errors: Record<string, number> = {};
    for (const e of flat) if (e.t === "error") errors[`${e.op}:${e.tag}`] = (errors[`${e.op}:${e.tag}`] ?? 0) + 1;
    // The longest run of failures of one worker process: from an error to its next successful write or search.
    let longestOutageMs = 0;
    for (const es of events) {
      let since: number | undefined;
      let inc = -1;
      for (const e of [...es].sort((a, b) => a.at - b.at)) {
        if (e.inc !== inc) {
          inc = e.inc;
          since = undefined;
        }
        if (e.t === "error") since ??= e.at;
        else if (since !== undefined) {
          longestOutageMs = Math.max(longestOutageMs, e.at - since);
          since = undefined;
        }
      }
    }
    const seconds = Math.ceil(durationMs / 1000);
    const timeline: TimelineBucket[] = Array.from({ length: seconds }, (_, s) => {
      const inside = flat.filter((e) => Math.floor((e.at - t0) / 1000) === s);
      const ms = searchesOf(inside).map((e) => e.ms);
      return {
        second: s,
        entriesAcked: inside.reduce((n, e) => n + (e.t === "write" ? e.entries : 0), 0),
        searchP50Ms: quantile(ms, 0.5),
        searchP99Ms: quantile(ms, 0.99),
        errors: inside.filter((e) => e.t === "error").length,
      };
    });
    const firsts = searches.filter((e) => e.first).map((e) => e.ms);
    const afters = searches.filter((e) => e.afterOutage).map((e) => e.ms);
    return {
      workers: o.workers,
      namespaces: everyNs.length,
      durationMs,
      acknowledged: all.length,
      stored: counted._tag === "Right" ? counted.right : Number.NaN,
      kills: killAt.length,
      workerRestarts,
      serverRestarts: Number.isFinite(restartWindow[0]) ? 1 : 0,
      serverDownMs: 1000 * (restartWindow[1] - restartWindow[0]),
      crashes,
      hung,
      lost: verified.lost.length,
      lostSample: verified.lost.slice(0, 5),
      crossHitsDuringRun: searches.reduce((n, e) => n + e.cross, 0),
      crossHitsAtEnd: verified.crossHits,
      ownWriteMisses: searches.filter((e) => !e.ownFound).length,
      searches: searches.length,
      verifySearches: verified.searches,
      searchP50Ms: quantile(
        searches.map((e) => e.ms),
        0.5,
      ),
      searchP99Ms: quantile(
        searches.map((e) => e.ms),
        0.99,
      ),
      firstSearchP50Ms: quantile(firsts, 0.5),
      firstSearchMaxMs: quantile(firsts, 1),
      afterRestartSearchP50Ms: quantile(afters, 0.5),
      afterRestartSearchMaxMs: quantile(afters, 1),
      longestOutageMs,
      errors,
      perWorker: events.map((es, w) => {
        const ws = es.filter((e): e is Extract<FleetEvent, { t: "write" }> => e.t === "write");
        const ss = searchesOf(es).map((e) => e.ms);
        return {
          worker: w,
          incarnations: incarnations[w]!,
          acknowledged: acks[w]!.length,
          entriesPerSec: acks[w]!.length / (durationMs / 1000),
          writeP50Ms: quantile(
            ws.map((e) => e.ms),
            0.5,
          ),
          searchP50Ms: quantile(ss, 0.5),
          searchP99Ms: quantile(ss, 0.99),
          searches: ss.length,
          writesAfterRestart: ws.filter((e) => e.at - e.ms > t0 + 1000 * restartWindow[1]).length,
        };
      }),
      timeline,
      killAt,
      restartWindow,
    };
  }
}
