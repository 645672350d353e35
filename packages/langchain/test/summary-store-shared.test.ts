// Two summary stores over one BaseStore backend through separate handles — what two processes
// sharing a PostgresStore amount to (no in-process queue is shared between them) — and the store
// a LangGraph node receives (an AsyncBatchedStore, whose `batch` is not implemented).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import {
  Annotation,
  AsyncBatchedStore,
  getStore,
  InMemoryStore,
  START,
  StateGraph,
  type LangGraphRunnableConfig,
} from "@langchain/langgraph";
import type { StoredMessage, SummaryStore } from "@cc/session";
import { describe, expect, it } from "vitest";
import { storeContract } from "../../session/test/store/contract.js";
import { freshDatabase } from "../../session/test/support.js";
import { baseStoreSummaryStore, type BaseStoreSummaryStoreOptions, type LangGraphStore } from "../src/index.js";
import { PgBaseStore } from "./pg-base-store.js";

async function right<L, A>(te: TaskEither<L, A>): Promise<A> {
  const r = await te();
  if (E.isLeft(r)) expect.fail(`expected Right, got Left ${JSON.stringify(r.left)}`);
  return r.right;
}

function make(store: LangGraphStore, options?: BaseStoreSummaryStoreOptions): SummaryStore {
  const made = baseStoreSummaryStore(store, options);
  if (E.isLeft(made)) return expect.fail(made.left.message);
  return made.right;
}

/** A handle of its own on `inner` (as another process's client of the same database is): only `batch`, another object. */
const handle = (inner: InMemoryStore): LangGraphStore => ({ batch: (ops) => inner.batch(ops) });

/** Lets other tasks run between the calls of one handle, as a network round trip does. */
const jittered = (inner: InMemoryStore, seed: number): LangGraphStore => {
  let state = seed;
  return {
    batch: async (ops) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      for (let i = (state >>> 16) % 4; i > 0; i--) await new Promise<void>((resolve) => setImmediate(resolve));
      return inner.batch(ops);
    },
  };
};

const user = (content: string) => ({ role: "user" as const, content });

describe("two summary stores over one BaseStore backend, through separate handles", () => {
  it("race 100 appends each: all 200 acknowledged messages are kept, each at the id it was acknowledged with", async () => {
    const raw = new InMemoryStore();
    const a = make(jittered(raw, 1));
    const b = make(jittered(raw, 2));
    const acked: StoredMessage[] = [];
    const writer = async (store: SummaryStore, name: string): Promise<void> => {
      await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const r = await store.append("shared", [user(`${name}${i}`)], i)();
          if (E.isRight(r)) acked.push(...r.right);
        }),
      );
    };
    await Promise.all([writer(a, "a"), writer(b, "b")]);
    expect(acked).toHaveLength(200);
    const stored = await right(make(handle(raw)).messagesAfter("shared", 0));
    expect(stored.map((m) => m.id)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    for (const m of acked) expect(stored[m.id - 1]).toEqual(m);
    expect(new Set(stored.map((m) => m.message.content)).size).toBe(200);
  });

  it("two racing saveSummary built on the same predecessor: exactly one is saved, the other is a SummaryConflict", async () => {
    for (let round = 0; round < 20; round++) {
      const raw = new InMemoryStore();
      const a = make(jittered(raw, round));
      const b = make(jittered(raw, round + 100));
      await right(a.append("s", ["1", "2", "3"].map(user), 1));
      const results = await Promise.all([
        a.saveSummary("s", { content: "A", coversUpTo: 2, previousId: null }, 1)(),
        b.saveSummary("s", { content: "B", coversUpTo: 3, previousId: null }, 1)(),
      ]);
      const saved = results.filter(E.isRight);
      expect(saved).toHaveLength(1);
      expect(results.filter((r) => E.isLeft(r) && r.left._tag === "SummaryConflict")).toHaveLength(1);
      // Every reader, through any handle, sees the one that was saved.
      expect(await right(make(handle(raw)).latestSummary("s"))).toEqual(O.some(saved[0]!.right));
      expect(await right(b.latestSummary("s"))).toEqual(O.some(saved[0]!.right));
    }
  });

  it("appends and summaries interleaved from both handles keep one linear chain and every acknowledged message", async () => {
    const raw = new InMemoryStore();
    const stores = [make(jittered(raw, 7)), make(jittered(raw, 8))];
    const acked: StoredMessage[] = [];
    const saved: number[] = [];
    await Promise.all(
      stores.map(async (store, who) => {
        for (let i = 0; i < 30; i++) {
          acked.push(...(await right(store.append("t", [user(`${who}.${i}`)], i))));
          if (i % 5 !== 4) continue;
          const latest = O.toUndefined(await right(store.latestSummary("t")));
          const last = await right(store.lastMessageId("t"));
          if (last <= (latest?.coversUpTo ?? 0)) continue;
          const r = await store.saveSummary(
            "t",
            { content: `by ${who} at ${i}`, coversUpTo: last, previousId: latest?.id ?? null },
            i,
          )();
          if (E.isRight(r)) saved.push(r.right.id);
          else expect(["SummaryConflict", "InvalidWatermark"]).toContain(r.left._tag);
        }
      }),
    );
    const reader = make(handle(raw));
    const stored = await right(reader.messagesAfter("t", 0));
    expect(stored).toHaveLength(60);
    for (const m of acked) expect(stored[m.id - 1]).toEqual(m);
    expect([...saved].sort((x, y) => x - y)).toEqual(saved.map((_, i) => i + 1));
    const latest = O.toUndefined(await right(reader.latestSummary("t")));
    expect(latest?.id).toBe(saved.length === 0 ? undefined : saved.length);
  });
});

describe("two OS processes over one PostgreSQL-backed BaseStore", () => {
  it("race 100 appends each and then the first summary: every acknowledged message is kept at its id, exactly one summary is saved", async () => {
    const db = await freshDatabase();
    try {
      const setup = await PgBaseStore.open(db.url, true);
      await setup.end();
      const writer = fileURLToPath(new URL("./pg-writer.ts", import.meta.url));
      const root = fileURLToPath(new URL("../../../", import.meta.url));
      const run = promisify(execFile);
      const startAt = String(Date.now() + 5000);
      const outputs = await Promise.all(
        ["p1", "p2"].map((name) =>
          run(process.execPath, ["--conditions=development", "--import", "tsx", writer, db.url, name, "100", startAt], {
            cwd: root,
          }),
        ),
      );
      const results = outputs.map(
        (o) => JSON.parse(o.stdout) as { acked: { id: number; content: string }[]; summary: string },
      );
      const acked = results.flatMap((r) => r.acked);
      expect(acked).toHaveLength(200);
      expect(results.map((r) => r.summary).sort()).toEqual(["SummaryConflict", "saved"]);

      const reading = await PgBaseStore.open(db.url, false);
      try {
        const reader = make(reading, { namespace: ["race"] });
        const stored = await right(reader.messagesAfter("shared", 0));
        expect(stored.map((m) => m.id)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
        for (const m of acked) expect(stored[m.id - 1]!.message.content).toBe(m.content);
        expect(await right(reader.latestSummary("shared"))).toMatchObject(
          O.some({ id: 1, coversUpTo: 1, previousId: null }),
        );
      } finally {
        await reading.end();
      }
    } finally {
      await db.drop();
    }
  });
});

describe("inside a LangGraph graph", () => {
  it("a node keeps session memory in the store it receives (config.store and getStore(): an AsyncBatchedStore)", async () => {
    const langGraphStore = new InMemoryStore();
    const State = Annotation.Root({ text: Annotation<string>(), seen: Annotation<readonly string[]>() });
    const remember = async (
      state: typeof State.State,
      config: LangGraphRunnableConfig,
    ): Promise<Partial<typeof State.State>> => {
      expect(config.store).toBeInstanceOf(AsyncBatchedStore);
      expect(getStore()).toBe(config.store);
      const made = baseStoreSummaryStore(config.store!, { namespace: ["graph"] });
      if (E.isLeft(made)) throw new Error(made.left.message);
      const memory = made.right;
      const stored = await memory.append("thread", [user(state.text)], 1)();
      if (E.isLeft(stored)) throw new Error(JSON.stringify(stored.left));
      const last = stored.right.at(-1)!.id;
      const saved = await memory.saveSummary(
        "thread",
        { content: `up to ${state.text}`, coversUpTo: last, previousId: last === 1 ? null : last - 1 },
        1,
      )();
      if (E.isLeft(saved)) throw new Error(JSON.stringify(saved.left));
      const all = await memory.messagesAfter("thread", 0)();
      if (E.isLeft(all)) throw new Error(JSON.stringify(all.left));
      return { seen: all.right.map((m) => m.message.content) };
    };
    const graph = new StateGraph(State)
      .addNode("remember", remember)
      .addEdge(START, "remember")
      .compile({ store: langGraphStore });
    expect((await graph.invoke({ text: "first" })).seen).toEqual(["first"]);
    expect((await graph.invoke({ text: "second" })).seen).toEqual(["first", "second"]);
    // What the node wrote is in the graph's store, where a summary store outside the graph reads it.
    const outside = make(langGraphStore, { namespace: ["graph"] });
    expect((await right(outside.messagesAfter("thread", 0))).map((m) => m.message.content)).toEqual([
      "first",
      "second",
    ]);
    expect(await right(outside.latestSummary("thread"))).toMatchObject(
      O.some({ id: 2, content: "up to second", coversUpTo: 2, previousId: 1 }),
    );
  });
});

// The contract of every SummaryStore, against the store a node receives (started, as a graph run
// has it) and against a store that has only the single-operation methods.
storeContract("langgraph AsyncBatchedStore (what a graph node receives)", () => {
  const batched = new AsyncBatchedStore(new InMemoryStore());
  batched.start();
  return Promise.resolve({ store: make(batched), cleanup: () => batched.stop() });
});

storeContract("langgraph store with get/put/search only", () => {
  const raw = new InMemoryStore();
  const single: LangGraphStore = {
    get: (namespace, key) => raw.get(namespace, key),
    put: (namespace, key, value, index) => raw.put(namespace, key, value, index),
    search: (namespacePrefix, options) => raw.search(namespacePrefix, options),
  };
  return Promise.resolve({ store: make(single), cleanup: () => Promise.resolve() });
});
