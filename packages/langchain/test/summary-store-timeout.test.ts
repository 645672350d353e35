// A BaseStore that stops answering: the call is a StoreTimeout, the stack refuses everything until
// the stalled call settles (so a late write never lands over a newer one), other stacks go on,
// close() does not hang, and nothing acknowledged is lost.
import * as E from "fp-ts/lib/Either.js";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { baseStoreSummaryStore, type LangGraphStore } from "../src/index.js";

type Ops = Parameters<NonNullable<LangGraphStore["batch"]>>[0];

/** An InMemoryStore whose `batch` hangs, while `hang` says so, until `release()`. */
function stalling(inner: InMemoryStore): LangGraphStore & { hang: (ops: Ops) => boolean; release: () => void } {
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

describe("baseStoreSummaryStore with a BaseStore that stops answering", () => {
  it("times out, refuses the stack until the call settles, keeps other stacks and every acknowledged message", async () => {
    const backing = stalling(new InMemoryStore());
    const made = baseStoreSummaryStore(backing, { timeoutMs: 250 });
    if (E.isLeft(made)) throw new Error(made.left.message);
    const store = made.right;
    expect(E.isRight(await store.append("a", [msg("one")], 1)())).toBe(true);

    // The head write of the next append hangs (a put of the head record).
    backing.hang = (ops) => ops.some((o) => o.key === "head" && o.value !== undefined);
    const first = store.append("a", [msg("two")], 2)();
    const queuedBehind = store.append("a", [msg("queued")], 3)(); // on the stack's queue behind it
    const timedOut = await first;
    expect(E.isLeft(timedOut) && timedOut.left._tag).toBe("StoreTimeout");
    const refused = await store.lastMessageId("a")();
    expect(E.isLeft(refused) && refused.left._tag).toBe("StoreUnavailable");
    const q = await queuedBehind;
    expect(E.isLeft(q) && q.left._tag).toBe("StoreUnavailable");

    // Another stack is not held up.
    backing.hang = () => false;
    expect(E.isRight(await store.append("b", [msg("other")], 4)())).toBe(true);

    // close() does not wait for the stalled call.
    const other = baseStoreSummaryStore(backing, { timeoutMs: 250 });
    if (E.isLeft(other)) throw new Error(other.left.message);
    expect(E.isRight(await other.right.close()())).toBe(true);

    // The stalled call settles: the stack works again; "one" is there, and the late write is whole.
    backing.release();
    await new Promise((r) => setTimeout(r, 10));
    const after = await store.messagesAfter("a", 0)();
    expect(E.isRight(after)).toBe(true);
    const contents = E.isRight(after) ? after.right.map((m) => m.message.content) : [];
    expect(contents[0]).toBe("one");
    expect(contents.every((c) => c === "one" || c === "two")).toBe(true);
    const next = await store.append("a", [msg("three")], 5)();
    expect(E.isRight(next) && next.right[0]!.id).toBe(contents.length + 1);
    expect(E.isRight(await store.close()())).toBe(true);
  });

  it("timeoutMs is decoded: negative, NaN, fractional and huge values are refused; 0 means no timeout", () => {
    for (const bad of [-1, Number.NaN, 1.5, 2 ** 31, Number.POSITIVE_INFINITY]) {
      const r = baseStoreSummaryStore(new InMemoryStore(), { timeoutMs: bad });
      expect(E.isLeft(r) && r.left.problems[0]!.path).toBe("timeoutMs");
    }
    expect(E.isRight(baseStoreSummaryStore(new InMemoryStore(), { timeoutMs: 0 }))).toBe(true);
  });
});
