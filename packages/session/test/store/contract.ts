// The behaviour every SummaryStore backend must share; each backend's test file calls
// storeContract once.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import * as O from "fp-ts/lib/Option.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "@cc/messages";
import type { SummaryStore } from "@cc/session";
import { left, oddStrings, right, runs } from "../support.js";

/** A store under test and how to dispose of it. */
export interface StoreFixture {
  readonly store: SummaryStore;
  readonly cleanup: () => Promise<void>;
}

const user = (content: string): Message => ({ role: "user", content });
const fresh = (): string => `stack-${randomUUID()}`;

const messageArb: fc.Arbitrary<Message> = fc.oneof(
  fc.string().map((content): Message => ({ role: "user", content })),
  fc.record({ content: fc.string(), name: fc.string(), args: fc.json() }).map(({ content, name, args }): Message => ({
    role: "assistant",
    content,
    toolCalls: [{ id: "c1", name, arguments: args }],
  })),
  fc.string({ unit: "binary" }).map((content): Message => ({ role: "tool", content, toolCallId: "c1" })),
);

/** Registers the shared contract for one backend. `makeStore` is called once per file. */
export function storeContract(name: string, makeStore: () => Promise<StoreFixture>): void {
  describe(`SummaryStore contract: ${name}`, () => {
    let fixture: StoreFixture;
    let store: SummaryStore;
    beforeAll(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });
    afterAll(async () => {
      await fixture.cleanup();
    });

    it("an unknown stack is empty", async () => {
      const s = fresh();
      expect(await right(store.lastMessageId(s))).toBe(0);
      expect(await right(store.messagesAfter(s, 0))).toEqual([]);
      expect(O.isNone(await right(store.latestSummary(s)))).toBe(true);
    });

    it("append gives consecutive ids from 1 per stack, and messagesAfter returns them in order", async () => {
      const a = fresh();
      const b = fresh();
      const first = await right(store.append(a, [user("one"), user("two")], 1000));
      const other = await right(store.append(b, [user("x")], 1000));
      const second = await right(store.append(a, [user("three")], 2000));
      expect(first.map((m) => m.id)).toEqual([1, 2]);
      expect(other.map((m) => m.id)).toEqual([1]);
      expect(second.map((m) => m.id)).toEqual([3]);
      expect((await right(store.messagesAfter(a, 1))).map((m) => [m.id, m.message.content, m.createdAt])).toEqual([
        [2, "two", 1000],
        [3, "three", 2000],
      ]);
      expect(await right(store.lastMessageId(a))).toBe(3);
    });

    it("duplicate messages (even the same object twice) are stored as distinct entries", async () => {
      const s = fresh();
      const same = user("again");
      expect((await right(store.append(s, [same, same], 1))).map((m) => m.id)).toEqual([1, 2]);
      expect((await right(store.append(s, [same], 1))).map((m) => m.id)).toEqual([3]);
      expect((await right(store.messagesAfter(s, 0))).map((m) => m.message)).toEqual([same, same, same]);
    });

    it("an empty append consumes no id", async () => {
      const s = fresh();
      expect(await right(store.append(s, [], 1))).toEqual([]);
      expect((await right(store.append(s, [user("a")], 1))).map((m) => m.id)).toEqual([1]);
    });

    it("stores every message shape and odd Unicode losslessly", async () => {
      const s = fresh();
      const messages: Message[] = [
        { role: "system", content: "sys", id: "m0", timestamp: 5 },
        {
          role: "assistant",
          content: "calling",
          toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"ls"}' }],
        },
        { role: "tool", content: "out", toolCallId: "c1", name: "bash" },
        ...oddStrings.map(user),
        user("x".repeat(1 << 20)),
      ];
      await right(store.append(s, messages, 7));
      expect((await right(store.messagesAfter(s, 0))).map((m) => m.message)).toEqual(messages);
    });

    it("later mutation by the caller changes nothing stored", async () => {
      const s = fresh();
      const m = { role: "user", content: "original" } as { role: "user"; content: string };
      await right(store.append(s, [m], 1));
      m.content = "mutated";
      expect((await right(store.messagesAfter(s, 0)))[0]?.message.content).toBe("original");
    });

    it("rejects bad input with the field named and stores nothing", async () => {
      const s = fresh();
      expect(await left(store.append("", [user("a")], 1))).toMatchObject({
        _tag: "InvalidInput",
        problems: [{ path: "stackId" }],
      });
      expect(await left(store.append("bad \ud800", [user("a")], 1))).toMatchObject({
        _tag: "InvalidInput",
        problems: [{ path: "stackId" }],
      });
      expect(await left(store.append("a\u0000b", [user("a")], 1))).toMatchObject({
        _tag: "InvalidInput",
        problems: [{ path: "stackId" }],
      });
      expect(await left(store.append("x".repeat(513), [user("a")], 1))).toMatchObject({ _tag: "InvalidInput" });
      expect(await left(store.append(s, [user("a")], Number.NaN))).toMatchObject({
        _tag: "InvalidInput",
        problems: [{ path: "now" }],
      });
      expect(await left(store.append(s, [user("a")], -1))).toMatchObject({
        _tag: "InvalidInput",
        problems: [{ path: "now" }],
      });
      const malformed = [user("ok"), { role: "user", content: 42 }] as unknown as Message[];
      const error = await left(store.append(s, malformed, 1));
      expect(error).toMatchObject({
        _tag: "InvalidInput",
        subject: "store input",
        problems: [{ path: "messages[1].content" }],
      });
      expect(error._tag === "InvalidInput" && error.message).toContain("messages[1]");
      expect(
        await left(store.append(s, [user("ok"), { role: "robot", content: "x" } as unknown as Message], 1)),
      ).toMatchObject({
        _tag: "InvalidInput",
        message: 'invalid store input: messages[1].role: expected one of system, user, assistant, tool, got "robot"',
      });
      expect(await left(store.append(s, [null as unknown as Message], 1))).toMatchObject({
        message: expect.stringContaining("messages[0]"),
      });
      expect(
        await left(store.append(s, [user("ok"), { role: "user", content: "x", lang: "en" } as unknown as Message], 1)),
      ).toMatchObject({
        message: expect.stringContaining("messages[1].lang: unknown field"),
      });
      expect(await left(store.append(s, "nope" as unknown as Message[], 1))).toMatchObject({
        problems: [{ path: "messages" }],
      });
      expect(await left(store.messagesAfter(s, -1))).toMatchObject({
        _tag: "InvalidInput",
        problems: [{ path: "afterId" }],
      });
      expect(await left(store.messagesAfter(s, 1.5))).toMatchObject({
        _tag: "InvalidInput",
        problems: [{ path: "afterId" }],
      });
      expect(await right(store.lastMessageId(s))).toBe(0);
    });

    it("saves summaries as a chain: newest is active, each supersedes the one it read", async () => {
      const s = fresh();
      await right(store.append(s, ["a", "b", "c", "d"].map(user), 1));
      const first = await right(
        store.saveSummary(s, { content: "S1 中文 🧠 \ud800", coversUpTo: 2, previousId: null }, 10),
      );
      expect(first).toMatchObject({
        stackId: s,
        content: "S1 中文 🧠 \ud800",
        coversUpTo: 2,
        previousId: null,
        createdAt: 10,
      });
      const second = await right(store.saveSummary(s, { content: "S2", coversUpTo: 4, previousId: first.id }, 20));
      expect(second.previousId).toBe(first.id);
      expect(second.id).toBeGreaterThan(first.id);
      expect(await right(store.latestSummary(s))).toEqual(O.some(second));
    });

    it("refuses a watermark past the last message or not past the previous one", async () => {
      const s = fresh();
      await right(store.append(s, ["a", "b", "c"].map(user), 1));
      expect(await left(store.saveSummary(s, { content: "S", coversUpTo: 4, previousId: null }, 1))).toMatchObject({
        _tag: "InvalidWatermark",
      });
      const first = await right(store.saveSummary(s, { content: "S", coversUpTo: 2, previousId: null }, 1));
      expect(await left(store.saveSummary(s, { content: "T", coversUpTo: 2, previousId: first.id }, 1))).toMatchObject({
        _tag: "InvalidWatermark",
      });
      expect(await left(store.saveSummary(s, { content: "T", coversUpTo: 1, previousId: first.id }, 1))).toMatchObject({
        _tag: "InvalidWatermark",
      });
      expect(await right(store.latestSummary(s))).toEqual(O.some(first));
    });

    it("refuses a summary that did not read the latest one (SummaryConflict)", async () => {
      const s = fresh();
      await right(store.append(s, ["a", "b", "c"].map(user), 1));
      const first = await right(store.saveSummary(s, { content: "S", coversUpTo: 1, previousId: null }, 1));
      expect(await left(store.saveSummary(s, { content: "T", coversUpTo: 2, previousId: null }, 1))).toEqual({
        _tag: "SummaryConflict",
        stackId: s,
        expectedPreviousId: null,
        actualPreviousId: first.id,
      });
    });

    it("refuses blank or malformed drafts", async () => {
      const s = fresh();
      await right(store.append(s, [user("a")], 1));
      expect(await left(store.saveSummary(s, { content: "  \n", coversUpTo: 1, previousId: null }, 1))).toMatchObject({
        _tag: "InvalidInput",
        problems: [{ path: "draft.content" }],
      });
      expect(
        await left(store.saveSummary(s, { content: "S", coversUpTo: Number.NaN, previousId: null }, 1)),
      ).toMatchObject({ _tag: "InvalidInput", problems: [{ path: "draft.coversUpTo" }] });
      expect(await left(store.saveSummary(s, { content: "S", coversUpTo: 1, previousId: -3 }, 1))).toMatchObject({
        _tag: "InvalidInput",
        problems: [{ path: "draft.previousId" }],
      });
      expect(O.isNone(await right(store.latestSummary(s)))).toBe(true);
    });

    it("concurrent appends to one stack get unique, consecutive ids", async () => {
      const s = fresh();
      const batches = await Promise.all(
        Array.from({ length: 24 }, (_, i) => right(store.append(s, [user(`${i}a`), user(`${i}b`)], i))),
      );
      const ids = batches
        .flat()
        .map((m) => m.id)
        .sort((x, y) => x - y);
      expect(ids).toEqual(Array.from({ length: 48 }, (_, i) => i + 1));
      for (const batch of batches) expect(batch[1]!.id).toBe(batch[0]!.id + 1);
      const stored = await right(store.messagesAfter(s, 0));
      expect(stored.map((m) => m.id)).toEqual(ids);
    });

    it("of two concurrent summaries built on the same predecessor exactly one is saved", async () => {
      const s = fresh();
      await right(store.append(s, ["a", "b", "c"].map(user), 1));
      const results = await Promise.all([
        store.saveSummary(s, { content: "A", coversUpTo: 2, previousId: null }, 1)(),
        store.saveSummary(s, { content: "B", coversUpTo: 3, previousId: null }, 1)(),
      ]);
      expect(results.filter((r) => r._tag === "Right")).toHaveLength(1);
      expect(results.filter((r) => r._tag === "Left" && r.left._tag === "SummaryConflict")).toHaveLength(1);
    });

    it("property: ids are 1..n in append order and messagesAfter(k) is exactly the suffix", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(messageArb, { maxLength: 4 }), { minLength: 1, maxLength: 5 }),
          fc.nat(20),
          async (batches, k) => {
            const s = fresh();
            const all: Message[] = [];
            for (const batch of batches) {
              const stored = await right(store.append(s, batch, 1));
              expect(stored.map((m) => m.id)).toEqual(batch.map((_, i) => all.length + i + 1));
              all.push(...batch);
            }
            const after = await right(store.messagesAfter(s, k));
            expect(after.map((m) => m.id)).toEqual(all.slice(k).map((_, i) => k + i + 1));
            expect(after.map((m) => m.message)).toEqual(all.slice(k));
          },
        ),
        { numRuns: runs(name === "memory" ? 300 : 40) },
      );
    });

    it("property: against a reference model, appends and summary saves succeed or fail exactly when they should", async () => {
      type Op =
        | { readonly kind: "append"; readonly n: number }
        | { readonly kind: "save"; readonly covers: number; readonly stale: boolean };
      const opArb: fc.Arbitrary<Op> = fc.oneof(
        fc.record({ kind: fc.constant("append" as const), n: fc.integer({ min: 0, max: 3 }) }),
        fc.record({ kind: fc.constant("save" as const), covers: fc.integer({ min: 0, max: 12 }), stale: fc.boolean() }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 10 }), async (ops) => {
          const s = fresh();
          let last = 0;
          let latest: { id: number; covers: number } | undefined;
          for (const op of ops) {
            if (op.kind === "append") {
              const stored = await right(
                store.append(
                  s,
                  Array.from({ length: op.n }, (_, i) => user(`m${last + i + 1}`)),
                  1,
                ),
              );
              expect(stored.map((m) => m.id)).toEqual(Array.from({ length: op.n }, (_, i) => last + i + 1));
              last += op.n;
              continue;
            }
            const previousId = op.stale ? (latest === undefined ? 999_999 : null) : (latest?.id ?? null);
            const result = await store.saveSummary(
              s,
              { content: `c${op.covers}`, coversUpTo: op.covers, previousId },
              1,
            )();
            const expected =
              op.covers < 1
                ? "InvalidInput"
                : op.stale
                  ? "SummaryConflict"
                  : op.covers > last || op.covers <= (latest?.covers ?? 0)
                    ? "InvalidWatermark"
                    : "ok";
            expect(result._tag === "Right" ? "ok" : result.left._tag).toBe(expected);
            if (result._tag === "Right") latest = { id: result.right.id, covers: op.covers };
          }
          const stored = O.toUndefined(await right(store.latestSummary(s)));
          expect(stored === undefined ? undefined : { id: stored.id, covers: stored.coversUpTo }).toEqual(latest);
          expect(await right(store.lastMessageId(s))).toBe(last);
          expect((await right(store.messagesAfter(s, latest?.covers ?? 0))).map((m) => m.message.content)).toEqual(
            Array.from({ length: last - (latest?.covers ?? 0) }, (_, i) => `m${(latest?.covers ?? 0) + i + 1}`),
          );
        }),
        { numRuns: runs(name === "memory" ? 300 : 40) },
      );
    });

    it("after close every operation fails with StoreUnavailable (runs last)", async () => {
      await right(store.close());
      expect(await left(store.append(fresh(), [user("a")], 1))).toMatchObject({ _tag: "StoreUnavailable" });
      expect(await left(store.messagesAfter(fresh(), 0))).toMatchObject({ _tag: "StoreUnavailable" });
      expect(await left(store.latestSummary(fresh()))).toMatchObject({ _tag: "StoreUnavailable" });
      await right(store.close());
    });
  });
}
