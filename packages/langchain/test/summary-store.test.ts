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

storeContract("langgraph BaseStore (InMemoryStore)", () => Promise.resolve({ store: make(asLangGraphStore(new InMemoryStore())), cleanup: () => Promise.resolve() }));

/** A BaseStore whose `batch` fails (throws, rejects or answers junk) on the calls `fail` picks. */
function faulty(inner: InMemoryStore, fail: (call: number) => "throw" | "reject" | "junk" | undefined): LangGraphStore & { calls: number } {
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
  it("keeps each stack under the namespace prefix, one namespace per stack, never embedded", async () => {
    const raw = new InMemoryStore();
    const store = make(raw, { namespace: ["app", "sessions"] });
    expect(store.backend).toBe("langgraph");
    await right(store.append("thread:1.a", [{ role: "user", content: "hi" }], 5));
    const namespaces = await raw.listNamespaces({ prefix: ["app", "sessions"] });
    expect(namespaces).toEqual([["app", "sessions", Buffer.from("thread:1.a").toString("base64url")]]);
    const items = await raw.search(namespaces[0]!);
    expect(items.map((i) => i.key).sort()).toEqual(["head", "message-1"]);
    expect(await raw.listNamespaces({ prefix: ["cc"] })).toEqual([]);
  });

  it("the default prefix is [cc, summaries], and two prefixes in one BaseStore do not see each other", async () => {
    const raw = new InMemoryStore();
    const a = make(raw);
    const b = make(raw, { namespace: ["other"] });
    await right(a.append("s", [{ role: "user", content: "a" }], 1));
    expect(await right(b.lastMessageId("s"))).toBe(0);
    expect((await raw.listNamespaces({ prefix: ["cc", "summaries"] })).length).toBe(1);
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
    expect(bad(raw, { namespace: ["ok", "a.b"] })).toContain('namespace[1]: expected a non-empty string without ".", ":" or NUL');
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
    expect((await raw.listNamespaces({ prefix: ["mine"] })).length).toBe(1);
  });

  it.each(["throw", "reject", "junk"] as const)("a BaseStore that fails (%s) is StoreUnavailable and nothing is half-written", async (how) => {
    const raw = new InMemoryStore();
    let failAt = 0;
    const wrapped = faulty(raw, (n) => (n === failAt ? how : undefined));
    const store = make(wrapped, { batchSize: 2 });
    await right(store.append("s", [{ role: "user", content: "m1" }], 1));
    // head read, two message batches, head write: fail each in turn
    for (const step of [1, 2, 3, 4]) {
      failAt = wrapped.calls + step;
      const error = await left(store.append("s", ["a", "b", "c"].map((content) => ({ role: "user" as const, content })), 2));
      expect(error).toMatchObject({ _tag: "StoreUnavailable", backend: "langgraph" });
      expect(error._tag === "StoreUnavailable" && error.message).toMatch(how === "junk" ? /answered 0 results/ : /BaseStore\.batch failed/);
      failAt = 0;
      expect(await right(store.lastMessageId("s"))).toBe(1);
      expect((await right(store.messagesAfter("s", 0))).map((m) => m.message.content)).toEqual(["m1"]);
    }
    failAt = wrapped.calls + 3; // summary record written, head write fails
    expect(await left(store.saveSummary("s", { content: "S", coversUpTo: 1, previousId: null }, 3))).toMatchObject({ _tag: "StoreUnavailable" });
    expect(O.isNone(await right(store.latestSummary("s")))).toBe(true);
    failAt = 0;
    expect((await right(store.append("s", [{ role: "user", content: "m2" }], 4))).map((m) => m.id)).toEqual([2]);
    expect(await right(store.saveSummary("s", { content: "S", coversUpTo: 2, previousId: null }, 5))).toMatchObject({ id: 1, previousId: null });
  });

  it("a record someone else wrote under a key is StoreCorruptRow naming it, never a throw", async () => {
    const raw = new InMemoryStore();
    const store = make(raw, { namespace: ["x"] });
    await right(store.append("s", [{ role: "user", content: "a" }, { role: "user", content: "b" }], 1));
    const ns = ["x", Buffer.from("s").toString("base64url")];
    await raw.put(ns, "message-2", { format: 1, id: 2, createdAt: 1, message: '{"role":"robot","content":"?"}' });
    expect(await left(store.messagesAfter("s", 0))).toMatchObject({ _tag: "StoreCorruptRow", backend: "langgraph", stackId: "s", id: 2 });
    await raw.put(ns, "message-2", { format: 1, id: 2, createdAt: 1, message: "{not json" });
    expect(await left(store.messagesAfter("s", 1))).toMatchObject({ _tag: "StoreCorruptRow", id: 2, message: expect.stringContaining("not valid JSON") });
    expect((await right(store.messagesAfter("s", 2))).length).toBe(0);
    await raw.delete(ns, "message-1");
    expect(await left(store.messagesAfter("s", 0))).toMatchObject({ _tag: "StoreCorruptRow", id: 1, message: expect.stringContaining("missing") });
    for (const head of [{ lastMessageId: 2 }, { format: 1, lastMessageId: -1, summary: null }, { format: 1, lastMessageId: 2, summary: { format: 1, id: 1 } }, { format: 1, lastMessageId: 1, summary: { format: 1, id: 1, content: '"S"', coversUpTo: 2, previousId: null, createdAt: 0 } }]) {
      await raw.put(ns, "head", head);
      for (const te of [store.lastMessageId("s"), store.latestSummary("s"), store.append("s", [{ role: "user", content: "c" }], 1), store.saveSummary("s", { content: "S", coversUpTo: 1, previousId: null }, 1)]) {
        expect(await left(te as TaskEither<unknown, unknown>)).toMatchObject({ _tag: "StoreCorruptRow", backend: "langgraph", stackId: "s", id: 0 });
      }
    }
  });

  it("two summary stores over one BaseStore in one process share the stack's queue: compare-and-set holds", async () => {
    const raw = new InMemoryStore();
    const a = make(raw);
    const b = make(raw);
    await Promise.all(Array.from({ length: 10 }, (_, i) => right((i % 2 === 0 ? a : b).append("s", [{ role: "user", content: `m${i}` }], i))));
    expect((await right(a.messagesAfter("s", 0))).map((m) => m.id)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    const results = await Promise.all([a.saveSummary("s", { content: "A", coversUpTo: 3, previousId: null }, 1)(), b.saveSummary("s", { content: "B", coversUpTo: 4, previousId: null }, 1)()]);
    expect(results.filter(E.isRight)).toHaveLength(1);
    expect(results.filter((r) => E.isLeft(r) && r.left._tag === "SummaryConflict")).toHaveLength(1);
  });

  it("close waits for the running operations, refuses later ones and leaves the BaseStore usable", async () => {
    const raw = new InMemoryStore();
    const store = make(raw);
    const pending = store.append("s", [{ role: "user", content: "in flight" }], 1)();
    await right(store.close());
    expect(E.isRight(await pending)).toBe(true);
    for (const te of [store.lastMessageId("s"), store.saveSummary("s", { content: "S", coversUpTo: 1, previousId: null }, 1), store.append("s", [], 1)]) {
      expect(await left(te as TaskEither<unknown, unknown>)).toMatchObject({ _tag: "StoreUnavailable", backend: "langgraph", message: "store is closed" });
    }
    expect((await right(make(raw).messagesAfter("s", 0))).map((m) => m.message.content)).toEqual(["in flight"]);
  });
});
