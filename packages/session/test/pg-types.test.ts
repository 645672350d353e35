import * as O from "fp-ts/lib/Option.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PgPoolClientLike } from "@cc/test-support/search";
import type { PgPoolLike } from "@cc/search";
import { openPostgresStore, type PostgresStoreOptions } from "../src/store/postgres.js";
import { freshDatabase, guardedPool, right } from "./support.js";

// Type level: a real pg.Pool and its pooled client fit the structural types the published
// declarations use, and something that is not a pool does not.
const assignPool = (pool: pg.Pool): PgPoolLike => pool;
const assignClient = (client: pg.PoolClient): PgPoolClientLike => client;
const asConfig = (pool: pg.Pool): PostgresStoreOptions => ({ connection: pool });
// @ts-expect-error a client without connect/end/on is not a pool
const notAPool = (client: pg.Client): PgPoolLike => client;

/** A pool that is not a pg.Pool: it only forwards the members of PgPoolLike, counting queries. */
function forwardingPool(inner: pg.Pool): PgPoolLike & { readonly queries: () => number } {
  let queries = 0;
  const count = <T>(p: Promise<T>): Promise<T> => {
    queries += 1;
    return p;
  };
  return {
    query: <R>(text: string, values?: unknown[]) => count(inner.query<R & pg.QueryResultRow>(text, values)),
    connect: async () => {
      const c = await inner.connect();
      return {
        query: <R>(text: string, values?: unknown[]) => count(c.query<R & pg.QueryResultRow>(text, values)),
        release: () => c.release(),
      };
    },
    end: () => inner.end(),
    on: (event, listener) => inner.on(event, listener),
    queries: () => queries,
  };
}

describe("PgPoolLike", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it("the assignments compile and are the same objects at run time", () => {
    const pool = new pg.Pool({ connectionString: "postgres://127.0.0.1:1/none", max: 1 });
    expect(assignPool(pool)).toBe(pool);
    expect(asConfig(pool)).toEqual({ connection: pool });
    expect([typeof assignClient, typeof notAPool]).toEqual(["function", "function"]);
    return pool.end();
  });

  it("openPostgresStore works on a pool typed only as PgPoolLike, and leaves a pool it does not own open", async () => {
    const guarded = guardedPool(db.url, 2);
    const inner = guarded.pool;
    const pool = forwardingPool(inner);
    pool.on("error", () => undefined);
    const store = await right(openPostgresStore({ connection: pool }));
    const stored = await right(store.append("s1", [{ role: "user", content: "héllo 你好 🙂" }], 5));
    expect(stored.map((m) => m.message.content)).toEqual(["héllo 你好 🙂"]);
    await right(store.saveSummary("s1", { content: "greeting", coversUpTo: stored[0]!.id, previousId: null }, 6));
    const latest = await right(store.latestSummary("s1"));
    expect(O.isSome(latest) && latest.value.content).toBe("greeting");
    expect(pool.queries()).toBeGreaterThan(3);
    await right(store.close());
    // The caller still owns the pool: it answers after the store is closed.
    expect((await pool.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    await guarded.end();
  });
});
