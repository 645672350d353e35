// A BaseStore that stops answering: the call is a StoreTimeout, the stack goes on at once (a late
// write can never land over anything: no record is overwritten), close() never hangs, and nothing
// acknowledged is lost.
import * as E from "fp-ts/lib/Either.js";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { SummaryStore } from "@cc/session";
import { baseStoreSummaryStore, type LangGraphStore } from "../src/index.js";

type Ops = Parameters<NonNullable<LangGraphStore["batch"]>>[0];

/** An InMemoryStore whose `batch` hangs, while `hang` says so, until `release()`. */
function stalling(inner: InMemoryStore): {
  batch: NonNullable<LangGraphStore["batch"]>;
  hang: (ops: Ops) => boolean;
  release: () => void;
} {
  let waiting: (() => void)[] = [];
  const s = {
    hang: (_ops: Ops): boolean => false,
    release: (): void => {
      const w = waiting;
      waiting = [];
      for (const go of w) go();
    },
    batch: async (ops: Ops): Promise<readonly unknown[]> => {
      if (s.hang(ops)) await new Promise<void>((resolve) => waiting.push(resolve));
      return inner.batch(ops);
    },
  };
  return s;
}

const msg = (content: string) => ({ role: "user" as const, content });

const isPut = (o: Ops[number], key: (k: string) => boolean): boolean =>
  "key" in o && o.value !== undefined && key(o.key);

describe("baseStoreSummaryStore with a BaseStore that stops answering", () => {
  it("times out; the stack goes on at once; the late write of the call that timed out never shows", async () => {
    const backing = stalling(new InMemoryStore());
    const made = baseStoreSummaryStore(backing, { timeoutMs: 250 });
    if (E.isLeft(made)) throw new Error(made.left.message);
    const store = made.right;
    expect(E.isRight(await store.append("a", [msg("one")], 1)())).toBe(true);

    // The phase-2 ballot of the next append hangs: it times out before anything is decided.
    backing.hang = (ops) => ops.some((o) => isPut(o, (k) => k.startsWith("b-") && k.endsWith("-2")));
    const timedOut = await store.append("a", [msg("two")], 2)();
    expect(E.isLeft(timedOut) && timedOut.left._tag).toBe("StoreTimeout");
    backing.hang = () => false;
    // Nothing waits for the stalled call: the stack answers, and the next append takes the slot.
    expect(await store.lastMessageId("a")()).toEqual(E.right(1));
    const queued = await store.append("a", [msg("queued")], 3)();
    expect(E.isRight(queued) && queued.right.map((m) => m.id)).toEqual([2]);

    // The stalled call lands now: it changes nothing, for this store or another one.
    backing.release();
    await new Promise((r) => setTimeout(r, 10));
    const contents = async (s: SummaryStore): Promise<readonly string[]> => {
      const all = await s.messagesAfter("a", 0)();
      return E.isRight(all) ? all.right.map((m) => String(m.message.content)) : [`failed: ${all.left._tag}`];
    };
    expect(await contents(store)).toEqual(["one", "queued"]);
    const other = baseStoreSummaryStore({ batch: (ops) => backing.batch(ops) }, { timeoutMs: 250 });
    if (E.isLeft(other)) throw new Error(other.left.message);
    expect(await contents(other.right)).toEqual(["one", "queued"]);
    const next = await other.right.append("a", [msg("three")], 5)();
    expect(E.isRight(next) && next.right[0]!.id).toBe(3);
  });

  it("a decided append whose record times out is kept, says so, and the next call records it", async () => {
    const backing = stalling(new InMemoryStore());
    const made = baseStoreSummaryStore(backing, { timeoutMs: 250 });
    if (E.isLeft(made)) throw new Error(made.left.message);
    const store = made.right;
    backing.hang = (ops) => ops.some((o) => isPut(o, (k) => k === "log-1"));
    const r = await store.append("a", [msg("one"), msg("two")], 1)();
    expect(E.isLeft(r) && r.left).toMatchObject({
      _tag: "StoreTimeout",
      message: expect.stringContaining("log entry 1 was decided and is kept"),
    });
    backing.hang = () => false;
    expect(await store.lastMessageId("a")()).toEqual(E.right(2));
    backing.release();
  });

  it("close() returns while a BaseStore call never answers", { timeout: 20_000 }, async () => {
    const backing = stalling(new InMemoryStore());
    const made = baseStoreSummaryStore(backing, { timeoutMs: 2_147_483_647 });
    if (E.isLeft(made)) throw new Error(made.left.message);
    backing.hang = () => true;
    const pending = made.right.append("a", [msg("never answered")], 1)();
    expect(await made.right.close()()).toEqual(E.right(undefined));
    expect(await made.right.lastMessageId("a")()).toMatchObject(
      E.left({ _tag: "StoreUnavailable", message: "store is closed" }),
    );
    backing.hang = () => false;
    backing.release();
    expect(E.isRight(await pending)).toBe(true);
  });

  it("timeoutMs is decoded: 0 (no such thing as no timeout), negative, NaN, fractional and huge values are refused", () => {
    for (const bad of [0, -1, Number.NaN, 1.5, 2 ** 31, Number.POSITIVE_INFINITY]) {
      const r = baseStoreSummaryStore(new InMemoryStore(), { timeoutMs: bad });
      expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "InvalidOptions", problems: [{ path: "timeoutMs" }] });
    }
    expect(E.isRight(baseStoreSummaryStore(new InMemoryStore(), { timeoutMs: 1 }))).toBe(true);
  });
});
