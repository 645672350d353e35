import { describe, expect, it } from "vitest";
import { memoryStore } from "@cc/session";
import { type Message } from "@cc/messages";
import { right } from "../support.js";
import { storeContract } from "./contract.js";

storeContract("memory", () => Promise.resolve({ store: memoryStore(), cleanup: () => Promise.resolve() }));

describe("memory store: records are frozen once at append and shared by reads", () => {
  it("reads return the stored records themselves, deep-frozen", async () => {
    const store = memoryStore();
    const appended = await right(
      store.append(
        "s",
        [{ role: "assistant", content: "calling", toolCalls: [{ id: "c1", name: "bash", arguments: "{}" }] }],
        1,
      ),
    );
    const [first] = await right(store.messagesAfter("s", 0));
    const [again] = await right(store.messagesAfter("s", 0));
    expect(first).toBe(appended[0]);
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.message)).toBe(true);
    const calls = first?.message.role === "assistant" ? first.message.toolCalls : undefined;
    expect(Object.isFrozen(calls)).toBe(true);
    expect(Object.isFrozen(calls?.[0])).toBe(true);
    // A caller that ignores the readonly types cannot change what is stored.
    expect(() => {
      (first!.message as { content: string }).content = "changed";
    }).toThrow(TypeError);
    expect((await right(store.messagesAfter("s", 0)))[0]?.message.content).toBe("calling");
  });

  it("the returned array is the caller's: changing it changes nothing stored", async () => {
    const store = memoryStore();
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
    const read = (await right(store.messagesAfter("s", 0))) as unknown as unknown[];
    read.length = 0;
    expect(await right(store.messagesAfter("s", 0))).toHaveLength(2);
  });

  it("summaries are frozen too", async () => {
    const store = memoryStore();
    await right(store.append("s", [{ role: "user", content: "a" }], 1));
    const saved = await right(store.saveSummary("s", { content: "S", coversUpTo: 1, previousId: null }, 2));
    expect(Object.isFrozen(saved)).toBe(true);
    const latest = await right(store.latestSummary("s"));
    expect(latest).toEqual({ _tag: "Some", value: saved });
  });

  it("keys holding undefined are dropped, as the database backends drop them", async () => {
    const store = memoryStore();
    const message = { role: "tool", content: "out", toolCallId: "c1", name: undefined } as unknown as Message;
    const [stored] = await right(store.append("s", [message], 1));
    expect(Object.keys(stored!.message)).toEqual(["role", "content", "toolCallId"]);
  });

  it("one batch of 300,000 messages appends without overflowing the call stack", async () => {
    const store = memoryStore();
    const batch: Message[] = Array.from({ length: 300_000 }, (_, i) => ({ role: "user", content: `m${i}` }));
    const stored = await right(store.append("big", batch, 1));
    expect(stored).toHaveLength(300_000);
    expect(await right(store.lastMessageId("big"))).toBe(300_000);
    expect((await right(store.messagesAfter("big", 299_999)))[0]).toMatchObject({
      id: 300_000,
      message: { content: "m299999" },
    });
  });

  it("unknown and invalid stack ids are still checked on reads", async () => {
    const store = memoryStore();
    expect(await store.latestSummary("bad \ud800")()).toMatchObject({
      _tag: "Left",
      left: { _tag: "InvalidInput", problems: [{ path: "stackId" }] },
    });
    expect(await store.lastMessageId("")()).toMatchObject({
      _tag: "Left",
      left: { _tag: "InvalidInput", problems: [{ path: "stackId" }] },
    });
    expect(await right(store.lastMessageId("never-used"))).toBe(0);
    expect(await right(store.messagesAfter("never-used", 0))).toEqual([]);
  });
});
