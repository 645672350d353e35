import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import {
  createChatSession,
  decodeSessionCompactor,
  memoryStore,
  openSqliteStore,
  type SummaryStore,
} from "@cc/session";
import { type Provider } from "@cc/messages";
import { chat } from "./conversation.js";
import { scriptedProvider } from "./scripted.js";
import { left, right } from "./support.js";

function sessionOn(store: SummaryStore, provider: Provider, config: unknown, ephemeral = false) {
  const compactor = decodeSessionCompactor({ store, provider, config, now: () => 7 });
  if (E.isLeft(compactor)) throw new Error(compactor.left.message);
  return createChatSession({
    store,
    compactor: compactor.right,
    stackId: "c",
    systemPrompt: "SYS",
    ephemeral,
    now: () => 7,
  });
}

describe("ChatSession", () => {
  it("triggers on the previous turn's reported tokens, not the current one", async () => {
    const provider = scriptedProvider([{ text: "CK" }]);
    const session = sessionOn(memoryStore(), provider, { maxTokens: 1000, threshold: 1, preserveLast: 2 });
    const t1 = await right(session.prepareTurn(chat(3)));
    expect(t1.compaction).toMatchObject({
      _tag: "Skipped",
      reason: "BelowThreshold",
      effectiveTokens: expect.any(Number),
    });
    await right(session.finishTurn([{ role: "assistant", content: "a" }], 5000));
    expect(session.lastInputTokens).toBe(5000);
    const t2 = await right(session.prepareTurn([{ role: "user", content: "next" }]));
    expect(t2.compaction).toMatchObject({ _tag: "Compacted", summary: { coversUpTo: 3 } });
    expect(t2.prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(t2.stored.map((m) => m.id)).toEqual([5]);
  });

  it("after a restart (reported tokens unknown) the estimate still triggers a long history", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cc-lcm-session-"));
    try {
      const path = join(dir, "a.db");
      const first = await right(openSqliteStore({ path }));
      await right(
        first.append(
          "c",
          chat(40).map((m) => ({ ...m, content: `${m.content} ${"context ".repeat(30)}` })),
          1,
        ),
      );
      await right(first.close());
      const reopened = await right(openSqliteStore({ path }));
      const session = sessionOn(reopened, scriptedProvider([{ text: "CK" }]), { maxTokens: 2000, threshold: 1 });
      expect(session.lastInputTokens).toBe(0);
      const turn = await right(session.prepareTurn([{ role: "user", content: "where were we?" }]));
      expect(turn.compaction).toMatchObject({
        _tag: "Compacted",
        tokenSource: "estimated",
        summary: { coversUpTo: 35 },
      });
      expect(turn.prompt).toHaveLength(2 + 6);
      await right(reopened.close());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an ephemeral session never compacts, even on demand", async () => {
    const provider = scriptedProvider([{ text: "CK" }]);
    const session = sessionOn(memoryStore(), provider, { maxTokens: 1, threshold: 1 }, true);
    await right(session.prepareTurn(chat(20)));
    await right(session.finishTurn([], 1e6));
    expect((await right(session.prepareTurn(chat(1)))).compaction).toMatchObject({ reason: "Ephemeral" });
    expect(await right(session.compactNow())).toMatchObject({ reason: "Ephemeral" });
    expect(provider.requests).toHaveLength(0);
  });

  it("compactNow compacts regardless of the threshold", async () => {
    const session = sessionOn(memoryStore(), scriptedProvider([{ text: "CK" }]), {
      maxTokens: 1e9,
      threshold: 1,
      preserveLast: 2,
    });
    await right(session.prepareTurn(chat(5)));
    expect(await right(session.compactNow())).toMatchObject({ _tag: "Compacted", summary: { coversUpTo: 3 } });
  });

  it("refuses nonsense usage figures and bad messages without storing anything", async () => {
    const store = memoryStore();
    const session = sessionOn(store, scriptedProvider([{ text: "CK" }]), { maxTokens: 10, threshold: 1 });
    for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(await left(session.finishTurn([{ role: "assistant", content: "x" }], bad))).toMatchObject({
        _tag: "InvalidInput",
        problems: [{ path: "reportedInputTokens" }],
      });
    }
    expect(session.lastInputTokens).toBe(0);
    expect(await left(session.prepareTurn([{ role: "robot", content: "x" } as never]))).toMatchObject({
      _tag: "InvalidInput",
    });
    expect(await right(store.lastMessageId("c"))).toBe(0);
  });
});
