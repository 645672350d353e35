// The SummaryStore kept in a LangGraph BaseStore: the contract every @cc/session backend runs,
// against a real InMemoryStore, then what is specific to it (options, failures of the BaseStore,
// records someone else wrote, one queue per stack shared by every store over one BaseStore).
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { InMemoryStore, type BaseStore } from "@langchain/langgraph";
import type { SummaryStore } from "@cc/session";
import { describe, expect, it } from "vitest";
import { storeContract } from "../../session/test/store/contract.js";
import { baseStoreSummaryStore, type BaseStoreSummaryStoreOptions, type LangGraphStore } from "../src/index.js";

async function right<L, A>(te: TaskEither<L, A>): Promise<A> {
  const r = await te();
  if (E.isLeft(r)) expect.fail(`expected Right, got Left ${JSON.stringify(r.left)}`);
  return r.right;
}

async function left<L, A>(te: TaskEither<L, A>): Promise<L> {
  const r = await te();
  if (E.isRight(r)) expect.fail(`expected Left, got Right ${JSON.stringify(r.right)}`);
  return r.left;
}

function make(store: LangGraphStore, options?: BaseStoreSummaryStoreOptions): SummaryStore {
  const made = baseStoreSummaryStore(store, options);
  if (E.isLeft(made)) return expect.fail(made.left.message);
  return made.right;
}

// Every LangGraph BaseStore is a LangGraphStore (checked by the compiler).
const asLangGraphStore = (s: BaseStore): LangGraphStore => s;

storeContract("langgraph BaseStore (InMemoryStore)", () =>
  Promise.resolve({ store: make(asLangGraphStore(new InMemoryStore())), cleanup: () => Promise.resolve() }),
);

/** A BaseStore whose `batch` fails (throws, rejects or answers junk) on the calls `fail` picks. */
function faulty(
  inner: InMemoryStore,
  fail: (call: number) => "throw" | "reject" | "junk" | undefined,
): LangGraphStore & { calls: number } {
  const wrapper = {
    calls: 0,
    batch: (ops: Parameters<NonNullable<LangGraphStore["batch"]>>[0]): Promise<readonly unknown[]> => {
      const how = fail(++wrapper.calls);
      if (how === "throw") throw new Error("connection refused");
      if (how === "reject") return Promise.reject(new Error("server closed the connection"));
      if (how === "junk") return Promise.resolve([]);
      return inner.batch(ops);
    },
  };
  return wrapper;
}

describe("baseStoreSummaryStore specifics", () => {
  it("keeps each stack under the namespace prefix, one namespace per stack (and one below it per entry agreed on), never embedded", async () => {
    const raw = new InMemoryStore();
    const store = make(raw, { namespace: ["app", "sessions"] });
    expect(store.backend).toBe("langgraph");
    await right(store.append("thread:1.a", [{ role: "user", content: "hi" }], 5));
    const stack = ["app", "sessions", Buffer.from("thread:1.a").toString("base64url")];
    expect(await raw.listNamespaces({ prefix: ["app", "sessions"] })).toEqual([stack, [...stack, "log", "1"]]);
    const items = await raw.search(stack, { limit: 100 });
    const own = items.filter((i) => i.namespace.length === stack.length).map((i) => i.key);
    expect(own.sort()).toEqual([expect.stringMatching(/^batch-[0-9a-f]{16}-0$/), "log-1"]);
    const ballots = items.filter((i) => i.namespace.length > stack.length).map((i) => i.key);
    expect(ballots.sort()).toEqual([
      expect.stringMatching(/^b-1-[0-9a-f]{16}-1$/),
      expect.stringMatching(/^b-1-[0-9a-f]{16}-2$/),
    ]);
    expect(await raw.listNamespaces({ prefix: ["cc"] })).toEqual([]);
  });

  it("the default prefix is [cc, summaries], and two prefixes in one BaseStore do not see each other", async () => {
    const raw = new InMemoryStore();
    const a = make(raw);
    const b = make(raw, { namespace: ["other"] });
    await right(a.append("s", [{ role: "user", content: "a" }], 1));
    expect(await right(b.lastMessageId("s"))).toBe(0);
    const label = Buffer.from("s").toString("base64url");
    const namespaces = await raw.listNamespaces({ prefix: ["cc", "summaries"] });
    expect(namespaces.length).toBeGreaterThan(0);
    for (const ns of namespaces) expect(ns.slice(0, 3)).toEqual(["cc", "summaries", label]);
    expect(await raw.listNamespaces({ prefix: ["other"] })).toEqual([]);
  });

  it("refuses bad options and a store that is not one, with the field named", () => {
    const raw = new InMemoryStore();
    const bad = (store: unknown, options: unknown): string => {
      const r = baseStoreSummaryStore(store as LangGraphStore, options as BaseStoreSummaryStoreOptions);
      if (E.isRight(r)) return expect.fail("expected Left");
      expect(r.left._tag).toBe("InvalidOptions");
      return r.left.message;
    };
    expect(bad(raw, { namespce: ["x"] })).toContain("namespce: unknown field (did you mean namespace?)");
    expect(bad(raw, { namespace: [] })).toContain("namespace: expected a non-empty array");
    expect(bad(raw, { namespace: ["ok", "a.b"] })).toContain(
      'namespace[1]: expected a non-empty string without ".", ":" or NUL',
    );
    expect(bad(raw, { namespace: ["a:b"] })).toContain("namespace[0]");
    expect(bad(raw, { namespace: ["", "x"] })).toContain("namespace[0]");
    expect(bad(raw, { namespace: ["x", "nul\u0000"] })).toContain("namespace[1]");
    expect(bad(raw, { namespace: ["x", 3] })).toContain("namespace[1]");
    expect(bad(raw, { namespace: ["langgraph"] })).toContain('namespace[0]: expected a label other than "langgraph"');
    expect(bad(raw, { namespace: "cc" })).toContain("namespace: expected a non-empty array");
    expect(bad(raw, { batchSize: 0 })).toContain("batchSize");
    expect(bad(raw, { batchSize: Number.NaN })).toContain("batchSize");
    expect(bad(raw, { batchSize: Number.POSITIVE_INFINITY })).toContain("batchSize");
    expect(bad(raw, { batchSize: 2.5 })).toContain("batchSize");
    expect(bad(raw, null)).toContain("expected an options object");
    expect(bad({}, {})).toContain("store: expected a LangGraph BaseStore");
    expect(bad(null, {})).toContain("store: expected a LangGraph BaseStore");
  });

  it("a caller changing its namespace array later does not move the records", async () => {
    const raw = new InMemoryStore();
    const namespace = ["mine"];
    const store = make(raw, { namespace });
    namespace[0] = "moved";
    await right(store.append("s", [{ role: "user", content: "x" }], 1));
    expect((await raw.listNamespaces({ prefix: ["mine"] })).length).toBeGreaterThan(0);
    expect(await raw.listNamespaces({ prefix: ["moved"] })).toEqual([]);
  });

  it.each(["throw", "reject", "junk"] as const)(
    "a BaseStore that fails (%s) is StoreUnavailable: an append stopped before its decision never shows, one stopped after it is kept whole",
    async (how) => {
      const raw = new InMemoryStore();
      let failAt = 0;
      const wrapped = faulty(raw, (n) => (n === failAt ? how : undefined));
      const store = make(wrapped, { batchSize: 2 });
      await right(store.append("s", [{ role: "user", content: "m1" }], 1));
      // Tip read, batch + first ballot, phase-1 read, phase-2 ballot, phase-2 read: fail each in turn.
      for (const step of [1, 2, 3, 4, 5]) {
        failAt = wrapped.calls + step;
        const error = await left(
          store.append(
            "s",
            ["a", "b", "c"].map((content) => ({ role: "user" as const, content })),
            2,
          ),
        );
        expect(error).toMatchObject({ _tag: "StoreUnavailable", backend: "langgraph" });
        expect(error._tag === "StoreUnavailable" && error.message).toMatch(
          how === "junk" ? /answered 0 results/ : /BaseStore\.batch failed/,
        );
        failAt = 0;
        expect(await right(store.lastMessageId("s"))).toBe(1);
        expect((await right(store.messagesAfter("s", 0))).map((m) => m.message.content)).toEqual(["m1"]);
      }
      // Decided, but its record cannot be written: the append is kept (and says so); the next call records it.
      failAt = wrapped.calls + 6;
      expect(
        await left(
          store.append(
            "s",
            ["d", "e"].map((content) => ({ role: "user" as const, content })),
            2,
          ),
        ),
      ).toMatchObject({
        _tag: "StoreUnavailable",
        message: expect.stringContaining("log entry 2 was decided and is kept"),
      });
      failAt = 0;
      expect(await right(store.lastMessageId("s"))).toBe(3);
      expect((await right(make(raw).messagesAfter("s", 0))).map((m) => m.message.content)).toEqual(["m1", "d", "e"]);
      failAt = wrapped.calls + 3; // the summary's first ballot cannot be written
      expect(await left(store.saveSummary("s", { content: "S", coversUpTo: 1, previousId: null }, 3))).toMatchObject({
        _tag: "StoreUnavailable",
      });
      expect(O.isNone(await right(store.latestSummary("s")))).toBe(true);
      failAt = 0;
      expect((await right(store.append("s", [{ role: "user", content: "m2" }], 4))).map((m) => m.id)).toEqual([4]);
      expect(await right(store.saveSummary("s", { content: "S", coversUpTo: 2, previousId: null }, 5))).toMatchObject({
        id: 1,
        previousId: null,
      });
      expect(
        (await right(make(faulty(raw, () => undefined)).messagesAfter("s", 0))).map((m) => m.message.content),
      ).toEqual(["m1", "d", "e", "m2"]);
    },
  );

  it("a record someone else wrote under a key is StoreCorruptRow naming it, never a throw", async () => {
    const raw = new InMemoryStore();
    const store = make(raw, { namespace: ["x"] });
    const nsOf = (stackId: string): string[] => ["x", Buffer.from(stackId).toString("base64url")];
    await right(
      store.append(
        "s",
        [
          { role: "user", content: "a" },
          { role: "user", content: "b" },
        ],
        1,
      ),
    );
    const ns = nsOf("s");
    const batch = (await raw.search(ns, { limit: 100 })).find((i) => i.key.startsWith("batch-"))!.key;
    await raw.put(ns, batch, {
      format: 2,
      createdAt: 1,
      messages: ['{"role":"user","content":"a"}', '{"role":"robot","content":"?"}'],
    });
    expect(await left(store.messagesAfter("s", 0))).toMatchObject({
      _tag: "StoreCorruptRow",
      backend: "langgraph",
      stackId: "s",
      id: 2,
    });
    await raw.put(ns, batch, { format: 2, createdAt: 1, messages: ['{"role":"user","content":"a"}', "{not json"] });
    expect(await left(store.messagesAfter("s", 1))).toMatchObject({
      _tag: "StoreCorruptRow",
      id: 2,
      message: expect.stringContaining("not valid JSON"),
    });
    expect((await right(store.messagesAfter("s", 2))).length).toBe(0);
    await raw.put(ns, batch, { format: 2, createdAt: 1, messages: ['{"role":"user","content":"a"}'] });
    expect(await left(store.messagesAfter("s", 0))).toMatchObject({
      _tag: "StoreCorruptRow",
      id: 1,
      message: expect.stringContaining("does not hold 2 messages"),
    });
    await raw.delete(ns, batch);
    expect(await left(store.messagesAfter("s", 0))).toMatchObject({
      _tag: "StoreCorruptRow",
      id: 1,
      message: expect.stringContaining("missing"),
    });

    // Log entries nobody has read yet, each on a stack of its own.
    const badEntries = [
      { slot: 1, value: { batch: null, firstId: 1, count: 3, createdAt: 0 } },
      { format: 1, slot: 1, value: { batch: "k", firstId: 1, count: 1, createdAt: 0 } },
      { format: 2, slot: 2, value: { batch: "k", firstId: 1, count: 1, createdAt: 0 } },
      { format: 2, slot: 1, value: { batch: "k", firstId: 5, count: 1, createdAt: 0 } },
      { format: 2, slot: 1, value: "k" },
    ];
    for (const [i, junk] of badEntries.entries()) {
      const stackId = `log-${i}`;
      await raw.put(nsOf(stackId), "log-1", junk);
      for (const te of [
        store.lastMessageId(stackId),
        store.messagesAfter(stackId, 0),
        store.append(stackId, [{ role: "user", content: "c" }], 1),
        store.saveSummary(stackId, { content: "S", coversUpTo: 1, previousId: null }, 1),
      ]) {
        expect(await left(te as TaskEither<unknown, unknown>)).toMatchObject({
          _tag: "StoreCorruptRow",
          backend: "langgraph",
          stackId,
          id: 1,
        });
      }
    }
    // Summaries and agreement records: id 0.
    const summary = { id: 1, content: '"S"', coversUpTo: 1, previousId: null, createdAt: 0 };
    for (const [i, junk] of [
      { format: 2, slot: 1, value: { nonce: 3, summary } },
      { format: 2, slot: 1, value: { nonce: "n", summary: { ...summary, previousId: 4 } } },
      { format: 2, slot: 1, value: { nonce: "n", summary: { ...summary, content: "not json" } } },
    ].entries()) {
      const stackId = `summary-${i}`;
      await raw.put(nsOf(stackId), "summary-1", junk);
      for (const te of [
        store.latestSummary(stackId),
        store.saveSummary(stackId, { content: "S", coversUpTo: 1, previousId: null }, 1),
      ]) {
        expect(await left(te as TaskEither<unknown, unknown>)).toMatchObject({
          _tag: "StoreCorruptRow",
          backend: "langgraph",
          stackId,
          id: 0,
        });
      }
    }
    await raw.put([...nsOf("ballot"), "log", "1"], "b-x", {
      format: 2,
      round: 0,
      writer: "w",
      phase: 1,
      value: null,
      fresh: false,
    });
    expect(await left(store.append("ballot", [{ role: "user", content: "c" }], 1))).toMatchObject({
      _tag: "StoreCorruptRow",
      stackId: "ballot",
      id: 0,
      message: expect.stringContaining("ballot round"),
    });
    expect(await right(store.lastMessageId("ballot"))).toBe(0);
  });

  it("two summary stores over one BaseStore in one process share the stack's queue: compare-and-set holds", async () => {
    const raw = new InMemoryStore();
    const a = make(raw);
    const b = make(raw);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        right((i % 2 === 0 ? a : b).append("s", [{ role: "user", content: `m${i}` }], i)),
      ),
    );
    expect((await right(a.messagesAfter("s", 0))).map((m) => m.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
    const results = await Promise.all([
      a.saveSummary("s", { content: "A", coversUpTo: 3, previousId: null }, 1)(),
      b.saveSummary("s", { content: "B", coversUpTo: 4, previousId: null }, 1)(),
    ]);
    expect(results.filter(E.isRight)).toHaveLength(1);
    expect(results.filter((r) => E.isLeft(r) && r.left._tag === "SummaryConflict")).toHaveLength(1);
  });

  it("close returns at once and refuses later calls; a call already running finishes; the BaseStore stays usable", async () => {
    const raw = new InMemoryStore();
    const store = make(raw);
    const pending = store.append("s", [{ role: "user", content: "in flight" }], 1)();
    await right(store.close());
    expect(E.isRight(await pending)).toBe(true);
    for (const te of [
      store.lastMessageId("s"),
      store.saveSummary("s", { content: "S", coversUpTo: 1, previousId: null }, 1),
      store.append("s", [], 1),
    ]) {
      expect(await left(te as TaskEither<unknown, unknown>)).toMatchObject({
        _tag: "StoreUnavailable",
        backend: "langgraph",
        message: "store is closed",
      });
    }
    expect((await right(make(raw).messagesAfter("s", 0))).map((m) => m.message.content)).toEqual(["in flight"]);
  });
});
