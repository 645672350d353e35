// PostgreSQL faults on a real server: backends terminated while idle and inside a transaction, a
// server that never answers, a statement that outlives its timeout, writers that would deadlock.
// The process survives (vitest fails the run on any unhandled error or rejection), the next call
// is a typed error or succeeds, the call after works, and no acknowledged write is lost.
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entry, type IndexEntry, type IndexError, type SegmentIndex } from "../src/contract.js";
import { openPostgresIndex } from "../src/postgres.js";
import { right } from "./support/contract.js";
import { databaseOf, lockWaiters, silentServer, sleep, terminateBackends, waitFor } from "./support/pg-faults.js";
import { guardedClient, guardedPool, testDatabase, type TestDatabase } from "./support/postgres.js";

let db: TestDatabase;
let admin: ReturnType<typeof guardedClient>;
beforeAll(async () => {
  db = await testDatabase();
  if (db.kind !== "server")
    throw new Error("the PostgreSQL fault suite needs a real server (set CC_PG_URL or install postgresql)");
  admin = guardedClient(db.url);
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await db.drop();
});

let tables = 0;
const open = async (
  extra: { readonly statementTimeoutMs?: number; readonly table?: string } = {},
): Promise<SegmentIndex> =>
  right(
    await openPostgresIndex({
      connection: db.url,
      table: extra.table ?? `faults_${tables++}`,
      ...(extra.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: extra.statementTimeoutMs }),
    })(),
  );

const TYPED_FAULTS = ["ConnectionLost", "Timeout", "StorageError"];

/** A Right, or a typed fault (never a throw: the TaskEither resolved). */
function rightOrFault<A>(r: E.Either<IndexError, A>): void {
  if (E.isLeft(r)) expect(TYPED_FAULTS).toContain(r.left._tag);
}

/** Every acknowledged entry is stored as written. */
async function expectAll(index: SegmentIndex, acknowledged: readonly IndexEntry[]): Promise<void> {
  for (const e of acknowledged) expect(right(await index.expand(e.id, e.namespace)())).toEqual(e);
}

describe("postgres index: lost connections", () => {
  it("a backend terminated while idle: no crash, the next call is typed or works, the one after works, nothing acknowledged lost", async () => {
    const index = await open();
    const acknowledged: IndexEntry[] = [];
    for (let round = 0; round < 3; round++) {
      const batch = [entry({ id: `idle-${round}`, summary: `round ${round} before`, content: "kept" })];
      right(await index.write(batch)());
      acknowledged.push(...batch);
      // Several connections of the pool sit idle now; all of them are terminated.
      await Promise.all([index.count()(), index.search("kept")(), index.count()()]);
      expect(await terminateBackends(admin, databaseOf(db.url))).toBeGreaterThan(0);
      await sleep(100); // the termination reaches the idle clients
      const next = await index.write([entry({ id: `after-${round}`, summary: "after termination" })])();
      rightOrFault(next);
      if (E.isRight(next)) acknowledged.push(entry({ id: `after-${round}`, summary: "after termination" }));
      const then = entry({ id: `then-${round}`, summary: "the call after" });
      right(await index.write([then])());
      acknowledged.push(then);
    }
    await expectAll(index, acknowledged);
    right(await index.close()());
  });

  it("a backend terminated inside a write's transaction: no crash, the write is typed or done, the next works", async () => {
    const table = `faults_tx_${tables++}`;
    const index = await open({ table });
    const first = entry({ id: "first", summary: "acknowledged before" });
    right(await index.write([first])());
    // Hold the table so the write blocks inside its transaction, then terminate it there.
    await admin.query("BEGIN");
    await admin.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const blocked = entry({ id: "blocked", summary: "written while the lock is held" });
    const pending = index.write([blocked])();
    await waitFor("the write to wait for the lock", async () => (await lockWaiters(admin, databaseOf(db.url))) > 0);
    expect(await terminateBackends(admin, databaseOf(db.url), "wait_event_type = 'Lock'")).toBe(1);
    await sleep(100);
    await admin.query("ROLLBACK");
    const outcome = await pending;
    rightOrFault(outcome);
    const acknowledged = E.isRight(outcome) ? [first, blocked] : [first];
    const next = entry({ id: "next", summary: "after the terminated transaction" });
    right(await index.write([next])());
    await expectAll(index, [...acknowledged, next]);
    right(await index.close()());
  });

  it("a caller's pool: every client the index checks out is guarded while it is out", async () => {
    const client = db.client();
    const table = `faults_own_${tables++}`;
    const index = right(await openPostgresIndex({ connection: client, table })());
    right(await index.write([entry({ id: "a", summary: "one" })])());
    await admin.query("BEGIN");
    await admin.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const pending = index.write([entry({ id: "b", summary: "two" })])();
    await waitFor("the write to wait for the lock", async () => (await lockWaiters(admin, databaseOf(db.url))) > 0);
    await terminateBackends(admin, databaseOf(db.url), "wait_event_type = 'Lock'");
    await sleep(100);
    await admin.query("ROLLBACK");
    rightOrFault(await pending);
    right(await index.write([entry({ id: "c", summary: "three" })])());
    expect(right(await index.expand("a")())?.summary).toBe("one");
    right(await index.close()());
  });
});

describe("postgres index: timeouts", () => {
  it("a server that accepts and never answers: opening is a typed Timeout within the connect timeout", async () => {
    const server = await silentServer();
    try {
      const started = Date.now();
      const r = await openPostgresIndex({
        connection: `postgres://nobody@127.0.0.1:${server.port}/none`,
        connectTimeoutMs: 300,
      })();
      expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "Timeout", backend: "postgres", operation: "open" });
      expect(server.accepted()).toBeGreaterThan(0);
      // Bounded by the timeout (generous margin for a loaded machine), not the 10 s default.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await server.close();
    }
  });

  it("connect_timeout in the URL is honoured when no option is given", async () => {
    const server = await silentServer();
    try {
      const r = await openPostgresIndex({
        connection: `postgres://nobody@127.0.0.1:${server.port}/none?connect_timeout=1`,
      })();
      expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "Timeout", operation: "open" });
    } finally {
      await server.close();
    }
  });

  it("a statement past statementTimeoutMs is a typed Timeout, and the index works afterwards", async () => {
    const table = `faults_st_${tables++}`;
    const index = await open({ table, statementTimeoutMs: 300 });
    right(await index.write([entry({ id: "x", summary: "before" })])());
    await admin.query("BEGIN");
    await admin.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const r = await index.count()();
    await admin.query("ROLLBACK");
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "Timeout", backend: "postgres", operation: "count" });
    expect(right(await index.count()())).toBe(1);
    right(await index.close()());
  });

  it("refuses bad timeouts and unknown options", async () => {
    const bad = [Number.NaN, -1, Number.POSITIVE_INFINITY, 1.5, "100"] as const;
    for (const value of bad) {
      for (const key of ["connectTimeoutMs", "statementTimeoutMs"]) {
        const r = await openPostgresIndex({ connection: db.url, [key]: value } as unknown as Parameters<
          typeof openPostgresIndex
        >[0])();
        expect(E.isLeft(r) && r.left).toMatchObject({
          _tag: "InvalidOptions",
          subject: "postgres index options",
          problems: [{ path: key, message: expect.stringContaining(key) }],
        });
      }
    }
    const unknown = await openPostgresIndex({ connection: db.url, conectTimeoutMs: 5 } as unknown as Parameters<
      typeof openPostgresIndex
    >[0])();
    expect(E.isLeft(unknown) && unknown.left).toMatchObject({
      _tag: "InvalidOptions",
      problems: [
        { path: "conectTimeoutMs", message: "conectTimeoutMs: unknown field (did you mean connectTimeoutMs?)" },
      ],
    });
    for (const [field, value] of [
      ["chunkSize", Number.NaN],
      ["chunkSize", 10_001],
      ["chunkSize", Number.NEGATIVE_INFINITY],
      ["table", "Bad-Name"],
      ["connection", ""],
    ] as const) {
      const r = await openPostgresIndex({ connection: db.url, [field]: value } as unknown as Parameters<
        typeof openPostgresIndex
      >[0])();
      expect(E.isLeft(r) && r.left).toMatchObject({
        _tag: "InvalidOptions",
        subject: "postgres index options",
        problems: [{ path: field }],
      });
      expect(E.isLeft(r) && "errors" in r.left).toBe(false);
    }
  });
});

describe("postgres index: concurrent writers", () => {
  it("two pools upserting overlapping batches in opposite order all succeed (no deadlock surfaces)", async () => {
    const table = `faults_dl_${tables++}`;
    const a = right(await openPostgresIndex({ connection: db.url, table, chunkSize: 5 })());
    const b = right(await openPostgresIndex({ connection: db.url, table, chunkSize: 5 })());
    const ids = Array.from({ length: 60 }, (_, i) => `k${String(i).padStart(3, "0")}`);
    const batch = (order: readonly string[], round: number): IndexEntry[] =>
      order.map((id) => entry({ id, summary: `round ${round}`, content: id }));
    const writes = Array.from({ length: 40 }, (_, round) =>
      round % 2 === 0 ? a.write(batch(ids, round)) : b.write(batch([...ids].reverse(), round)),
    );
    const results = await Promise.all(writes.map((w) => w()));
    expect(results.filter(E.isLeft).map((r) => r.left)).toEqual([]);
    expect(right(await a.count()())).toBe(ids.length);
    right(await a.close()());
    right(await b.close()());
  });
});

/** Whether a pg client's socket is closed (read from pg's internals: the test needs the socket itself). */
const socketClosed = (client: unknown): boolean => {
  const stream = (client as { connection?: { stream?: { destroyed?: boolean; readyState?: string } } }).connection
    ?.stream;
  return stream?.destroyed === true || stream?.readyState === "closed";
};

/** Backends of the test database opened under an application name. */
const backends = async (application: string): Promise<number> =>
  Number(
    (
      await admin.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = $2",
        [databaseOf(db.url), application],
      )
    ).rows[0]?.n,
  );

describe("test databases", () => {
  it("a test pool's end resolves only when every socket is closed (pg's own end resolves earlier)", async () => {
    const owned = guardedPool(db.url, 4);
    const clients: unknown[] = [];
    owned.pool.on("connect", (c) => void clients.push(c));
    await Promise.all(Array.from({ length: 4 }, () => owned.pool.query("SELECT pg_sleep(0.01)")));
    expect(clients.length).toBeGreaterThan(1);
    await owned.end();
    expect(clients.map(socketClosed)).toEqual(clients.map(() => true));
  });

  it("an index opened from a URL closes its pool completely", async () => {
    const url = new URL(db.url);
    url.searchParams.set("application_name", "cc_close_test");
    const index = right(await openPostgresIndex({ connection: url.toString(), table: `faults_close_${tables++}` })());
    await Promise.all([index.count()(), index.count()(), index.count()()]);
    expect(await backends("cc_close_test")).toBeGreaterThan(1);
    right(await index.close()());
    // Its backends exit as their sockets close, right after close resolves.
    await waitFor("the backends to exit", async () => (await backends("cc_close_test")) === 0, 2000);
  });

  it("dropping a database right after its pools were busy raises no uncaught error", async () => {
    for (let round = 0; round < 3; round++) {
      const scratch = await testDatabase();
      const clients = [scratch.client(), scratch.client()];
      await Promise.all(clients.flatMap((c) => Array.from({ length: 4 }, () => c.query("SELECT pg_sleep(0.01)"))));
      await scratch.drop();
    }
    await sleep(200); // a late 'error' event would be reported by vitest as an unhandled error
  });
});

describe("postgres index: the connection", () => {
  it("a pool you own (PgPoolLike) is used as it is and not ended on close", async () => {
    const { pool, end } = guardedPool(db.url, 2);
    try {
      const index = right(await openPostgresIndex({ connection: pool, table: "own_pool" })());
      right(await index.write([entry({ id: "a", summary: "on the caller's pool" })])());
      expect(right(await index.expand("a")())?.summary).toBe("on the caller's pool");
      right(await index.close()());
      expect((await pool.query<{ n: string }>("SELECT count(*) AS n FROM own_pool")).rows).toEqual([{ n: "1" }]);
    } finally {
      await end();
    }
  });

  it("timeouts are refused next to a pool or client you own, never ignored; a bad connection is named", async () => {
    const { pool, end } = guardedPool(db.url, 1);
    try {
      for (const connection of [pool, db.client()]) {
        for (const field of ["connectTimeoutMs", "statementTimeoutMs"]) {
          const r = await openPostgresIndex({ connection, [field]: 100 })();
          expect(E.isLeft(r) && r.left).toMatchObject({
            _tag: "InvalidOptions",
            subject: "postgres index options",
            problems: [{ path: field, message: expect.stringContaining("set it on your own pool or client") }],
          });
        }
      }
      for (const connection of [
        5,
        null,
        { query: () => undefined },
        { query: () => undefined, connect: () => undefined },
      ]) {
        const r = await openPostgresIndex({ connection } as unknown as Parameters<typeof openPostgresIndex>[0])();
        expect(E.isLeft(r) && r.left).toMatchObject({
          _tag: "InvalidOptions",
          subject: "postgres index options",
          problems: [{ path: "connection" }],
        });
      }
    } finally {
      await end();
    }
  });
});
