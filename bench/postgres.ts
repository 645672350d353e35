/**
 * A PostgreSQL server for a benchmark run: `CC_PG_URL` when set (an admin URL), else a throwaway
 * cluster on a random loopback port started with `.ci/postgres.sh` and always stopped.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** A server to use (`url`), or why there is none; `stop` is idempotent. */
export type Server =
  | { readonly url: string; readonly stop: () => void }
  | { readonly url: undefined; readonly why: string; readonly stop: () => void };

/**
 * Returns `CC_PG_URL`, or starts a throwaway cluster (three attempts on random ports in
 * `[basePort, basePort + 400)`) in a temporary directory named after `label`.
 *
 * @example const server = pgServer("session", 59500); try { … } finally { server.stop(); }
 */
export function pgServer(label: string, basePort: number): Server {
  const given = process.env["CC_PG_URL"];
  if (given !== undefined && given !== "") return { url: given, stop: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), `cc-bench-${label}-pg-`));
  const script = fileURLToPath(new URL("../.ci/postgres.sh", import.meta.url));
  let started = false;
  const stop = (): void => {
    if (started) {
      started = false;
      try {
        execFileSync("bash", [script, "stop", dir], { stdio: "ignore" });
      } catch {
        // the cluster directory is removed below either way
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  let why = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = basePort + Math.floor(Math.random() * 400);
    try {
      started = true;
      const url = execFileSync("bash", [script, "start", dir, String(port)], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }).trim();
      return { url, stop };
    } catch (e) {
      why = e instanceof Error ? e.message.split("\n").slice(0, 3).join(" ") : String(e);
      stop(); // removes the directory; postgres.sh creates it again for the next port
    }
  }
  return { url: undefined, why: `no PostgreSQL: set CC_PG_URL or install the server (${why})`, stop: () => undefined };
}

/** Runs `cleanup` and re-raises the signal on SIGINT/SIGTERM, so a stopped run leaves no server behind. */
export function cleanupOnSignal(cleanup: () => void): void {
  const onSignal = (signal: NodeJS.Signals): void => {
    cleanup();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
}

/**
 * Drops the tables of the index `table` (its rows, counter, log, identity and kept snapshots), so
 * that a run on a server it shares with earlier runs (`CC_PG_URL`) builds and measures a fresh
 * index, not one rewritten over an earlier run's, with that run's snapshots still stored.
 *
 * @example dropIndexTables(server.url, "cc_ns_1000000")
 */
export function dropIndexTables(url: string, table: string): void {
  const tables = ["", "_gen", "_log", "_identity", "_snapshots", "_snapshot_parts"].map((s) => `${table}${s}`);
  execFileSync("psql", [url, "-qc", `DROP TABLE IF EXISTS ${tables.join(", ")}`], { stdio: "ignore" });
}
