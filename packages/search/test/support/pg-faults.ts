// Fault plumbing for the PostgreSQL tests: terminate backends, hold locks, a server that never answers.
import { createServer, type Server, type Socket } from "node:net";
import type pg from "pg";

/** Sleeps `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every 20 ms until it returns true, at most `limitMs`; throws when it never does. */
export async function waitFor(what: string, probe: () => Promise<boolean>, limitMs = 10_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (await probe()) return;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Terminates every backend of `database` except the admin's own; returns how many. */
export async function terminateBackends(admin: pg.Client, database: string, where = "true"): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(
    `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND ${where}`,
    [database],
  );
  return Number(rows[0]?.n ?? 0);
}

/** How many backends of `database` wait for a lock. */
export async function lockWaiters(admin: pg.Client, database: string): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(
    "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
    [database],
  );
  return Number(rows[0]?.n ?? 0);
}

/** A TCP server on 127.0.0.1 that accepts connections and never sends a byte. */
export async function silentServer(): Promise<{
  readonly port: number;
  readonly accepted: () => number;
  readonly close: () => Promise<void>;
}> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    socket.on("error", () => undefined);
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    accepted: () => sockets.length,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The database name of a connection URL. */
export const databaseOf = (url: string): string => new URL(url).pathname.slice(1);
