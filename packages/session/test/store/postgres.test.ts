import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type SummaryStore } from "@cc/session";
import { freshDatabase, guardedClient, guardedPool, left, right } from "../support.js";
import { storeContract } from "./contract.js";

storeContract("postgres", async () => {
  const db = await freshDatabase();
  const store = await right(openPostgresStore({ connection: db.url }));
  return {
    store,
    cleanup: async () => {
      await store.close()();
      await db.drop();
    },
  };
});

describe("PostgreSQL store specifics", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it("many processes creating the schema at once all succeed, and share one store", async () => {
    const stores: SummaryStore[] = await Promise.all(
      Array.from({ length: 6 }, () => right(openPostgresStore({ connection: db.url, maxConnections: 2 }))),
    );
    try {
      // Six "hosts" append to one stack concurrently: ids stay unique and consecutive.
      const results = await Promise.all(
        stores.flatMap((store, host) =>
          Array.from({ length: 5 }, (_, i) =>
            right(store.append("shared", [{ role: "user", content: `h${host}-${i}` }], i)),
          ),
        ),
      );
      const ids = results
        .flat()
        .map((m) => m.id)
        .sort((a, b) => a - b);
      expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect((await right(stores[0]!.messagesAfter("shared", 0))).map((m) => m.id)).toEqual(ids);
    } finally {
      await Promise.all(stores.map((s) => s.close()()));
    }
  });

  it("a new pool (a restarted process) sees everything stored before", async () => {
    const first = await right(openPostgresStore({ connection: db.url }));
    await right(first.append("restart", [{ role: "user", content: "before restart 中文" }], 1));
    const summary = await right(first.saveSummary("restart", { content: "S", coversUpTo: 1, previousId: null }, 2));
    await right(first.close());
    const second = await right(openPostgresStore({ connection: db.url }));
    expect((await right(second.messagesAfter("restart", 0))).map((m) => m.message.content)).toEqual([
      "before restart 中文",
    ]);
    expect(await right(second.latestSummary("restart"))).toMatchObject({ value: { id: summary.id, content: "S" } });
    await right(second.close());
  });

  it("a failure in the middle of an append rolls the batch and the counter back", async () => {
    const admin = guardedClient(db.url);
    await admin.connect();
    const store = await right(openPostgresStore({ connection: db.url }));
    try {
      await right(store.append("fault", [{ role: "user", content: "before" }], 1));
      await admin.query(`CREATE FUNCTION cc_test_boom() RETURNS trigger AS $$
        BEGIN IF NEW.body LIKE '%boom%' THEN RAISE EXCEPTION 'disk on fire'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
      await admin.query(
        "CREATE TRIGGER cc_test_boom BEFORE INSERT ON cc_chat_history FOR EACH ROW EXECUTE FUNCTION cc_test_boom()",
      );
      const batch = ["a", "boom", "c"].map((content) => ({ role: "user" as const, content }));
      expect(await left(store.append("fault", batch, 2))).toMatchObject({
        _tag: "StoreUnavailable",
        message: expect.stringContaining("disk on fire"),
      });
      expect(await right(store.lastMessageId("fault"))).toBe(1);
      expect((await right(store.append("fault", [{ role: "user", content: "after" }], 3))).map((m) => m.id)).toEqual([
        2,
      ]);
    } finally {
      await admin.query("DROP TRIGGER IF EXISTS cc_test_boom ON cc_chat_history");
      await admin.end();
      await store.close()();
    }
  });

  it("a corrupt row is reported with its id", async () => {
    const store = await right(openPostgresStore({ connection: db.url }));
    const admin = guardedClient(db.url);
    await admin.connect();
    try {
      await right(store.append("corrupt", [{ role: "user", content: "x" }], 1));
      await admin.query("UPDATE cc_chat_history SET body = '[1,2]' WHERE stack_id = 'corrupt'");
      expect(await left(store.messagesAfter("corrupt", 0))).toMatchObject({
        _tag: "StoreCorruptRow",
        backend: "postgres",
        id: 1,
      });
      await admin.query(
        `UPDATE cc_chat_history SET body = '{"role":"tool","content":"x","timestamp":1e999}' WHERE stack_id = 'corrupt'`,
      );
      expect(await left(store.messagesAfter("corrupt", 0))).toMatchObject({
        _tag: "StoreCorruptRow",
        backend: "postgres",
        id: 1,
        message: expect.stringMatching(/toolCallId|timestamp/),
      });
    } finally {
      await admin.end();
      await store.close()();
    }
  });

  it("a pool the caller owns is used as is and stays open after close", async () => {
    const { pool, end } = guardedPool(db.url, 2);
    try {
      const store = await right(openPostgresStore({ connection: pool }));
      expect((await right(store.append("owned-pool", [{ role: "user", content: "hi" }], 1))).map((m) => m.id)).toEqual([
        1,
      ]);
      await right(store.close());
      expect(await left(store.lastMessageId("owned-pool"))).toMatchObject({
        _tag: "StoreUnavailable",
        message: "store is closed",
      });
      const rows = await pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM cc_chat_history WHERE stack_id = 'owned-pool'",
      );
      expect(rows.rows[0]?.n).toBe("1");
    } finally {
      await end();
    }
  });

  it("a server that refuses the connection is a typed, transient error (restarting or failing over)", async () => {
    const error = await left(openPostgresStore({ connection: "postgres://nobody@127.0.0.1:1/none" }));
    expect(error).toMatchObject({ _tag: "StoreConnectionLost", backend: "postgres", code: "ECONNREFUSED" });
  });
});
