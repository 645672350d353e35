// A dedicated throwaway PostgreSQL cluster for tests that stop the whole server (started with
// .ci/postgres.sh on a random loopback port, stopped with `pg_ctl -m immediate`, restarted).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../../../../.ci/postgres.sh", import.meta.url));

/** The newest PostgreSQL server binaries on this machine. */
function pgBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = readdirSync(root).sort((a, b) => Number(a) - Number(b));
  const newest = versions[versions.length - 1];
  if (newest === undefined) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql");
  return join(root, newest, "bin");
}

/** Runs pg_ctl as the postgres user (as root) or as is. */
function pgCtl(args: readonly string[]): void {
  const ctl = join(pgBin(), "pg_ctl");
  const isRoot = process.getuid?.() === 0;
  execFileSync(isRoot ? "runuser" : ctl, isRoot ? ["-u", "postgres", "--", ctl, ...args] : [...args], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 60_000,
  });
}

/** A running throwaway cluster. */
export interface Cluster {
  /** Admin URL (database "postgres"). */
  readonly url: string;
  /** Stops the server at once (`-m immediate`: no checkpoint, clients cut off). */
  readonly stopImmediate: () => void;
  /** Starts it again on the same port and data directory (crash recovery runs). */
  readonly restart: () => void;
  /** Stops it (if running) and removes its directory. */
  readonly destroy: () => void;
}

/** Starts a cluster with .ci/postgres.sh (three tries on random ports in 60000..63999). */
export function startCluster(): Cluster {
  let why = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), "cc-pg-stop-"));
    const port = 60_000 + Math.floor(Math.random() * 4000);
    try {
      const url = execFileSync("bash", [script, "start", dir, String(port)], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 120_000,
      }).trim();
      const data = join(dir, "data");
      let running = true;
      return {
        url,
        stopImmediate: () => {
          pgCtl(["-D", data, "-m", "immediate", "-w", "stop"]);
          running = false;
        },
        restart: () => {
          pgCtl([
            "-D",
            data,
            "-l",
            join(dir, "log"),
            "-w",
            "-o",
            `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`,
            "start",
          ]);
          running = true;
        },
        destroy: () => {
          if (running) {
            try {
              pgCtl(["-D", data, "-m", "immediate", "-w", "stop"]);
            } catch {
              // removed below either way
            }
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (e) {
      why = e instanceof Error ? e.message.split("\n").slice(0, 3).join(" ") : String(e);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  throw new Error(`could not start a dedicated PostgreSQL cluster: ${why}`);
}
