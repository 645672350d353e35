import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import {
  SESSION_SUMMARY_PREFIX,
  buildContext,
  decodeContextOptions,
  loadContext,
  memoryStore,
  type LoadContextOptions,
  type StoredMessage,
  type StoredSummary,
} from "@cc/session";
import { sessionSummaryMessage, limitHistory } from "@cc/test-support/session";
import { type Message } from "@cc/messages";
import { chat, conversationArb } from "./conversation.js";
import { left, right, runs } from "./support.js";

const stored = (messages: readonly Message[]): StoredMessage[] =>
  messages.map((message, i) => ({ stackId: "s", id: i + 1, message, createdAt: 0 }));
const summary = (coversUpTo: number, content = "SUMMARY"): StoredSummary => ({
  stackId: "s",
  id: 1,
  content,
  coversUpTo,
  previousId: null,
  createdAt: 0,
});

describe("buildContext", () => {
  it("is system prompt + injected summary + the messages after the watermark", () => {
    const messages = stored(chat(5));
    expect(buildContext({ systemPrompt: "SYS", summary: summary(3), messages })).toEqual([
      { role: "system", content: "SYS" },
      sessionSummaryMessage("SUMMARY"),
      messages[3]!.message,
      messages[4]!.message,
    ]);
  });

  it("without a summary sends every message; without a system prompt sends none", () => {
    const messages = stored(chat(3));
    expect(buildContext({ messages })).toEqual(messages.map((m) => m.message));
    expect(buildContext({ systemPrompt: "", messages: [] })).toEqual([]);
  });

  it("marks the injected summary as reference only", () => {
    const m = sessionSummaryMessage("## Goal\nship 中文 🧠");
    expect(m.role).toBe("user");
    expect(m.content.startsWith(SESSION_SUMMARY_PREFIX)).toBe(true);
    expect(m.content).toContain("<conversation_summary>\n## Goal\nship 中文 🧠\n</conversation_summary>");
    expect(SESSION_SUMMARY_PREFIX).toMatch(/reference only/);
  });

  it("property: never drops, reorders or alters a message after the watermark", () => {
    fc.assert(
      fc.property(conversationArb(), fc.nat(40), fc.boolean(), (messages, watermark, pruning) => {
        const all = stored(messages);
        const w = Math.min(watermark, all.length);
        const out = buildContext({
          systemPrompt: "SYS",
          messages: all,
          ...(w > 0 ? { summary: summary(w) } : {}),
          ...(pruning ? { prune: { maxChars: 10, protectTurns: 1, protectResults: 0 } } : {}),
        });
        const tail = out.slice(w > 0 ? 2 : 1);
        const expected = all.filter((m) => m.id > w).map((m) => m.message);
        expect(tail).toHaveLength(expected.length);
        tail.forEach((m, i) => {
          const e = expected[i]!;
          expect(m.role).toBe(e.role);
          // Pruning may shorten an earlier tool result's text; everything else is identical.
          if (m.content !== e.content) expect(pruning && e.role === "tool").toBe(true);
          else expect(m).toEqual(e);
        });
      }),
      { numRuns: runs(500) },
    );
  });
});

describe("limitHistory (compaction disabled)", () => {
  it("keeps the newest max messages", () => {
    const messages = chat(10);
    expect(limitHistory(messages, 4)).toEqual(messages.slice(6));
    expect(limitHistory(messages, 50)).toBe(messages);
    expect(limitHistory(messages, 0)).toEqual([]);
  });

  it("never opens on a tool result whose call it cut off: it takes the issuing assistant too", () => {
    const messages: Message[] = [
      { role: "user", content: "u" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "a", name: "bash", arguments: "{}" },
          { id: "b", name: "bash", arguments: "{}" },
        ],
      },
      { role: "tool", content: "ra", toolCallId: "a" },
      { role: "tool", content: "rb", toolCallId: "b" },
      { role: "assistant", content: "done" },
    ];
    expect(limitHistory(messages, 2)).toEqual(messages.slice(1));
  });
});

describe("loadContext", () => {
  it("reads the active summary and only what follows its watermark", async () => {
    const store = memoryStore();
    await right(store.append("s", chat(8), 1));
    await right(store.saveSummary("s", { content: "S", coversUpTo: 5, previousId: null }, 2));
    const context = await right(loadContext(store, "s", { compaction: true, systemPrompt: "SYS" }));
    expect(context.map((m) => m.content)).toEqual([
      "SYS",
      sessionSummaryMessage("S").content,
      "message 6",
      "message 7",
      "message 8",
    ]);
  });

  it("with compaction disabled ignores summaries and sends the last maxHistoryMessages", async () => {
    const store = memoryStore();
    await right(store.append("s", chat(8), 1));
    await right(store.saveSummary("s", { content: "S", coversUpTo: 5, previousId: null }, 2));
    const context = await right(
      loadContext(store, "s", { compaction: false, maxHistoryMessages: 2, systemPrompt: "SYS" }),
    );
    expect(context.map((m) => m.content)).toEqual(["SYS", "message 7", "message 8"]);
    for (const bad of [0, -1, Number.NaN, 2.5]) {
      expect(await left(loadContext(store, "s", { compaction: false, maxHistoryMessages: bad }))).toMatchObject({
        _tag: "InvalidOptions",
        subject: "context options",
        problems: [{ path: "maxHistoryMessages" }],
      });
    }
  });

  it("refuses a typo key, NaN, ±Infinity, negatives and bad prune settings in the options, naming the field", async () => {
    const store = memoryStore();
    const bad = (options: unknown) => left(loadContext(store, "s", options as LoadContextOptions));
    expect(await bad({ compaction: false, maxHistoryMessage: 5 })).toMatchObject({
      _tag: "InvalidOptions",
      problems: expect.arrayContaining([
        expect.objectContaining({ message: "maxHistoryMessage: unknown field (did you mean maxHistoryMessages?)" }),
      ]),
    });
    expect(await bad({ compaction: true, systemPromt: "x" })).toMatchObject({
      problems: [{ message: "systemPromt: unknown field (did you mean systemPrompt?)" }],
    });
    for (const n of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1]) {
      expect(await bad({ compaction: false, maxHistoryMessages: n })).toMatchObject({
        problems: [{ path: "maxHistoryMessages" }],
      });
      expect(await bad({ compaction: true, prune: { maxChars: n, protectTurns: 1, protectResults: 0 } })).toMatchObject(
        { problems: [{ path: "prune.maxChars" }] },
      );
    }
    expect(await bad({ compaction: "yes" })).toMatchObject({ problems: [{ path: "compaction" }] });
    expect(await bad({ compaction: true, prune: { maxChars: 500 } })).toMatchObject({
      problems: [{ path: "prune.protectTurns" }, { path: "prune.protectResults" }],
    });
    const settings = { maxChars: 500, protectTurns: 1, protectResults: 0 };
    expect(decodeContextOptions({ compaction: true, prune: settings })).toEqual(
      E.right({ compaction: true, prune: settings }),
    );
  });

  it("property: loading a pruned context never changes stored content", async () => {
    await fc.assert(
      fc.asyncProperty(conversationArb(5), fc.integer({ min: 0, max: 40 }), async (messages, maxChars) => {
        const store = memoryStore();
        await right(store.append("s", messages, 1));
        const before = await right(store.messagesAfter("s", 0));
        await right(
          loadContext(store, "s", { compaction: true, prune: { maxChars, protectTurns: 0, protectResults: 0 } }),
        );
        await right(
          loadContext(store, "s", {
            compaction: false,
            maxHistoryMessages: 3,
            prune: { maxChars, protectTurns: 0, protectResults: 0 },
          }),
        );
        expect(await right(store.messagesAfter("s", 0))).toEqual(before);
        expect(before.map((m) => m.message)).toEqual(messages);
      }),
      { numRuns: runs(200) },
    );
  });

  it("property: with compaction disabled the windowed read equals limitHistory over the whole stack", async () => {
    await fc.assert(
      fc.asyncProperty(conversationArb(8), fc.integer({ min: 1, max: 12 }), async (messages, max) => {
        const store = memoryStore();
        await right(store.append("s", messages, 1));
        expect(await right(loadContext(store, "s", { compaction: false, maxHistoryMessages: max }))).toEqual(
          limitHistory(messages, max),
        );
      }),
      { numRuns: runs(300) },
    );
  });

  it("with compaction disabled a tool chain longer than the read window is still sent whole", async () => {
    const store = memoryStore();
    const calls = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, name: "bash", arguments: "{}" }));
    await right(store.append("s", chat(30), 1));
    await right(
      store.append(
        "s",
        [
          { role: "assistant", content: "fan out", toolCalls: calls },
          ...calls.map((c): Message => ({ role: "tool", content: c.id, toolCallId: c.id })),
        ],
        2,
      ),
    );
    const context = await right(loadContext(store, "s", { compaction: false, maxHistoryMessages: 3 }));
    expect(context.map((m) => m.content)).toEqual(["fan out", ...calls.map((c) => c.id)]);
    const plain = await right(loadContext(store, "s", { compaction: false, maxHistoryMessages: 40 }));
    expect(plain).toHaveLength(40);
  });

  it("pruning changes what is sent, never what is stored", async () => {
    const store = memoryStore();
    const big = "x".repeat(5000);
    await right(
      store.append(
        "s",
        [
          { role: "user", content: "read it" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"src/a.ts"}' }],
          },
          { role: "tool", content: big, toolCallId: "c1" },
          { role: "user", content: "thanks" },
        ],
        1,
      ),
    );
    const context = await right(
      loadContext(store, "s", { compaction: true, prune: { maxChars: 2000, protectTurns: 1, protectResults: 0 } }),
    );
    expect(context[2]!.content).toBe("[read_file] read src/a.ts (5000 chars)");
    expect((await right(store.messagesAfter("s", 0)))[2]!.message.content).toBe(big);
  });
});
