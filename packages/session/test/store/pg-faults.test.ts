// PostgreSQL faults of the summary store on a real server: backends terminated while idle and
// inside a transaction, a server that never answers, a statement past its timeout, bad options.
// The process survives (vitest fails the run on any unhandled error or rejection), the next call
// is a typed error or succeeds, the call after works, and no acknowledged write is lost.
import { createServer, type Socket } from "node:net";
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStoreOptions, type StoreError, type SummaryStore } from "@cc/session";
import { type PgPoolLike } from "@cc/search";
import { freshDatabase, guardedClient, guardedPool, left, right } from "../support.js";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let db: Awaited<ReturnType<typeof freshDatabase>>;
let admin: ReturnType<typeof guardedClient>;
const database = (): string => new URL(db.url).pathname.slice(1);

beforeAll(async () => {
  db = await freshDatabase();
  admin = guardedClient(db.url);
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await db.drop();
});

async function terminate(where = "true"): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(
    `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND ${where}`,
    [database()],
  );
  return Number(rows[0]?.n ?? 0);
}

async function waitForLockWaiter(): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await admin.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
      [database()],
    );
    if (Number(rows[0]?.n) > 0) return;
    await sleep(20);
  }
  throw new Error("no backend waited for the lock");
}

const TYPED_FAULTS = ["StoreConnectionLost", "StoreTimeout", "StoreUnavailable"];

/** Runs `te`: a Right, or a typed fault (the TaskEither resolved, never threw). */
async function rightOrFault<A>(te: TaskEither<StoreError, A>): Promise<E.Either<StoreError, A>> {
  const r = await te();
  if (E.isLeft(r)) expect(TYPED_FAULTS).toContain(r.left._tag);
  return r;
}

/** Stores to test: one that owns its pool (a URL), one on a pool the caller owns (with its 'error' listener). */
const kinds: readonly [string, () => Promise<{ readonly store: SummaryStore; readonly done: () => Promise<void> }>][] =
  [
    [
      "own pool",
      async () => {
        const store = await right(openPostgresStore({ connection: db.url }));
        return { store, done: async () => void (await store.close()()) };
      },
    ],
    [
      "caller's pool",
      async () => {
        const owned = guardedPool(db.url, 4);
        const pool: PgPoolLike = owned.pool;
        const store = await right(openPostgresStore({ connection: pool }));
        return {
          store,
          done: async () => {
            await store.close()();
            await owned.end();
          },
        };
      },
    ],
  ];

describe.each(kinds)("postgres store (%s): lost connections", (label, make) => {
  it("a backend terminated while idle: no crash, the next call is typed or works, the one after works, nothing acknowledged lost", async () => {
    const { store, done } = await make();
    const stack = `idle-${label}`;
    const acknowledged: string[] = [];
    for (let round = 0; round < 3; round++) {
      await right(store.append(stack, [{ role: "user", content: `before ${round}` }], round));
      acknowledged.push(`before ${round}`);
      await Promise.all([store.lastMessageId(stack)(), store.messagesAfter(stack, 0)(), store.latestSummary(stack)()]);
      expect(await terminate()).toBeGreaterThan(0);
      await sleep(100);
      const next = await rightOrFault(store.append(stack, [{ role: "user", content: `next ${round}` }], round));
      if (E.isRight(next)) acknowledged.push(`next ${round}`);
      await right(store.append(stack, [{ role: "user", content: `after ${round}` }], round));
      acknowledged.push(`after ${round}`);
    }
    const stored = (await right(store.messagesAfter(stack, 0))).map((m) => m.message.content);
    expect(stored).toEqual(acknowledged);
    await done();
  });

  it("a backend terminated inside saveSummary's transaction: no crash, a typed error, the next save works", async () => {
    const { store, done } = await make();
    const stack = `tx-${label}`;
    const messages = await right(
      store.append(
        stack,
        [
          { role: "user", content: "one" },
          { role: "assistant", content: "two" },
        ],
        1,
      ),
    );
    // Hold the stack's counter row so the save waits inside its transaction, then terminate it there.
    await admin.query("BEGIN");
    await admin.query("SELECT 1 FROM cc_chat_stacks WHERE stack_id = $1 FOR UPDATE", [stack]);
    const pending = rightOrFault(
      store.saveSummary(stack, { content: "summary", coversUpTo: messages[0]!.id, previousId: null }, 2),
    );
    await waitForLockWaiter();
    expect(await terminate("wait_event_type = 'Lock'")).toBe(1);
    await sleep(100);
    await admin.query("ROLLBACK");
    const outcome = await pending;
    expect(E.isLeft(outcome) && outcome.left).toMatchObject({
      _tag: "StoreConnectionLost",
      backend: "postgres",
      code: "57P01",
    });
    const saved = await right(
      store.saveSummary(stack, { content: "summary", coversUpTo: messages[1]!.id, previousId: null }, 3),
    );
    expect(O.toUndefined(await right(store.latestSummary(stack)))).toEqual(saved);
    expect((await right(store.messagesAfter(stack, 0))).map((m) => m.message.content)).toEqual(["one", "two"]);
    await done();
  });
});

describe("postgres store: timeouts and options", () => {
  it("a server that accepts and never answers: opening is a typed StoreTimeout within the connect timeout", async () => {
    const sockets: Socket[] = [];
    const server = createServer((s) => {
      s.on("error", () => undefined);
      sockets.push(s);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const started = Date.now();
      const error = await left(
        openPostgresStore({ connection: `postgres://nobody@127.0.0.1:${port}/none`, connectTimeoutMs: 300 }),
      );
      expect(error).toMatchObject({ _tag: "StoreTimeout", backend: "postgres" });
      expect(sockets.length).toBeGreaterThan(0);
      // Bounded by the timeout (generous margin for a loaded machine), not the 10 s default.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a statement past statementTimeoutMs is a typed StoreTimeout, and the store works afterwards", async () => {
    const store = await right(openPostgresStore({ connection: db.url, statementTimeoutMs: 300 }));
    await right(store.append("slow", [{ role: "user", content: "first" }], 1));
    await admin.query("BEGIN");
    await admin.query("SELECT 1 FROM cc_chat_stacks WHERE stack_id = 'slow' FOR UPDATE");
    const blocked = await store.append("slow", [{ role: "user", content: "blocked" }], 2)();
    await admin.query("ROLLBACK");
    expect(E.isLeft(blocked) && blocked.left).toMatchObject({ _tag: "StoreTimeout", backend: "postgres" });
    await right(store.append("slow", [{ role: "user", content: "second" }], 3));
    expect((await right(store.messagesAfter("slow", 0))).map((m) => m.message.content)).toEqual(["first", "second"]);
    await right(store.close());
  });

  it("refuses bad timeouts, a bad pool size and unknown options", async () => {
    const config = (extra: Record<string, unknown>): PostgresStoreOptions =>
      ({ connection: db.url, ...extra }) as PostgresStoreOptions;
    for (const value of [Number.NaN, -1, Number.POSITIVE_INFINITY, 2.5, "100"]) {
      for (const field of ["connectTimeoutMs", "statementTimeoutMs"]) {
        expect(await left(openPostgresStore(config({ [field]: value })))).toMatchObject({
          _tag: "InvalidOptions",
          subject: "store options",
          problems: [{ path: field }],
        });
      }
    }
    expect(await left(openPostgresStore(config({ maxConnections: 0 })))).toMatchObject({
      _tag: "InvalidOptions",
      problems: [{ path: "maxConnections" }],
    });
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1001, 2.5]) {
      expect(await left(openPostgresStore(config({ maxConnections: value })))).toMatchObject({
        _tag: "InvalidOptions",
        subject: "store options",
        problems: [{ path: "maxConnections" }],
      });
    }
    for (const connection of ["", 5, null, { query: () => undefined }]) {
      expect(await left(openPostgresStore({ connection } as unknown as PostgresStoreOptions))).toMatchObject({
        _tag: "InvalidOptions",
        subject: "store options",
        problems: [{ path: "connection" }],
      });
    }
    expect(await left(openPostgresStore({ conection: db.url } as unknown as PostgresStoreOptions))).toMatchObject({
      _tag: "InvalidOptions",
      message: expect.stringContaining("conection: unknown field (did you mean connection?)"),
    });
    // The former shapes are refused with a pointer to the new name, never half-read.
    expect(
      await left(openPostgresStore({ connectionString: db.url } as unknown as PostgresStoreOptions)),
    ).toMatchObject({ _tag: "InvalidOptions", subject: "store options" });
    expect(await left(openPostgresStore(config({ statementTimeout: 5 })))).toMatchObject({
      _tag: "InvalidOptions",
      problems: [{ path: "statementTimeout" }],
      message: expect.stringContaining("statementTimeout: unknown field (did you mean statementTimeoutMs?)"),
    });
  });
});

describe("postgres store: a pool you own", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it("settings of the store's own pool are refused next to a pool you own, never ignored", async () => {
    const { pool, end } = guardedPool(db.url, 1);
    try {
      for (const extra of [{ maxConnections: 2 }, { connectTimeoutMs: 100 }, { statementTimeoutMs: 100 }]) {
        const field = Object.keys(extra)[0]!;
        expect(await left(openPostgresStore({ connection: pool, ...extra }))).toMatchObject({
          _tag: "InvalidOptions",
          subject: "store options",
          problems: [{ path: field, message: expect.stringContaining("set it on your own pool") }],
        });
      }
      const store = await right(openPostgresStore({ connection: pool }));
      await right(store.close());
      // Not ended on close: the pool is the caller's.
      expect((await pool.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await end();
    }
  });
});
