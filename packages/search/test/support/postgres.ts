// A fresh PostgreSQL database per test file: the real server from the global setup, or PGlite
// (PostgreSQL in WASM) when no server could be started, so the suite always runs.
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { ownPgPool } from "@cc/test-support/search";
import { pgClient } from "../../src/postgres.js";
import type { SqlClient, SqlRunner } from "../../src/postgres.js";

/** A provisioned database: a way to make clients on it and a teardown. */
export interface TestDatabase {
  /** Where the database lives: "server" (real PostgreSQL) or "pglite". */
  readonly kind: "server" | "pglite";
  /** A new client (a new pool on the server; the shared instance on PGlite). */
  readonly client: () => SqlClient;
  /** Connection URL ("" on PGlite). */
  readonly url: string;
  readonly drop: () => Promise<void>;
}

function pgliteClient(db: PGlite): SqlClient {
  const runner = (q: Pick<PGlite, "query">): SqlRunner => ({
    query: async <R>(text: string, params: readonly unknown[] = []) => ({
      rows: (await q.query<R>(text, [...params])).rows,
    }),
  });
  return {
    ...runner(db),
    transaction: (fn) => db.transaction((tx) => fn(runner(tx))),
    end: async () => undefined,
  };
}

/** Creates `cc_test_<random>` on the server (or a PGlite instance) for one test file. */
export async function testDatabase(): Promise<TestDatabase> {
  const admin = inject("pgUrl");
  if (admin === "") {
    const db = new PGlite();
    await db.waitReady;
    const client = pgliteClient(db);
    return { kind: "pglite", client: () => client, url: "", drop: () => db.close() };
  }
  const name = `cc_test_${randomBytes(6).toString("hex")}`;
  const root = guardedClient(admin);
  await root.connect();
  await root.query(`CREATE DATABASE ${name}`);
  await root.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const pools: { readonly end: () => Promise<void> }[] = [];
  return {
    kind: "server",
    url: url.toString(),
    client: () => {
      // Idle connections close after a second: a test that opens many indexes must not hold a
      // pool's connections until the file ends (the server's max_connections is shared by every file).
      const owned = guardedPool(url.toString(), 4, 1000);
      pools.push(owned);
      const c = pgClient(owned.pool);
      return { ...c, end: async () => undefined };
    },
    drop: async () => {
      // Every pool ended and its sockets closed before the database goes: a connection still
      // closing when DROP … WITH (FORCE) terminates it would otherwise be an uncaught error.
      await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
      const r = guardedClient(admin);
      await r.connect();
      await r.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await r.end();
    },
  };
}

/** A pg client with an 'error' listener (a connection the server ends is an error of its next query, never an uncaught exception). */
export function guardedClient(connectionString: string): pg.Client {
  const client = new pg.Client({ connectionString });
  client.on("error", () => undefined);
  return client;
}

/** A pg pool with an 'error' listener on the pool and on each of its clients, whose `end` waits for the sockets to close. */
export function guardedPool(
  connectionString: string,
  max: number,
  idleTimeoutMillis?: number,
): { readonly pool: pg.Pool; readonly end: () => Promise<void> } {
  const pool = new pg.Pool({
    connectionString,
    max,
    ...(idleTimeoutMillis === undefined ? {} : { idleTimeoutMillis }),
  });
  const owned = ownPgPool(pool);
  return { pool, end: () => owned.end() };
}
