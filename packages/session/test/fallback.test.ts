// The truncation fallback: every way the summariser can fail, with the fallback on and off;
// the truncated summary fits its budget and takes part in iterative updates.
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import { estimateCounter, tiktokenCounter } from "@cc/tokens";
import { describe, expect, it } from "vitest";
import { NEW_MESSAGES_HEADING, PREVIOUS_SUMMARY_HEADING, TRUNCATED_SUMMARY_HEADING } from "@cc/test-support/session";
import { createEventBus, decodeSessionCompactor, memoryStore, type SessionEvent, type SummaryStore } from "@cc/session";
import { type Provider } from "@cc/messages";
import { chat } from "./conversation.js";
import { promptText, scriptedProvider, type Reply } from "./scripted.js";
import { left, right } from "./support.js";

function compactorFor(store: SummaryStore, provider: Provider, config: Record<string, unknown>) {
  const seen: SessionEvent[] = [];
  const events = createEventBus<SessionEvent>();
  events.subscribe((e) => void seen.push(e));
  const made = decodeSessionCompactor({
    store,
    provider,
    config: { maxTokens: 100, threshold: 1, preserveLast: 4, ...config },
    events,
    now: () => 42,
  });
  if (E.isLeft(made)) throw new Error(made.left.message);
  return { compactor: made.right, seen };
}

const hanging: Provider = {
  name: "hanging",
  complete: () => () => new Promise(() => undefined),
  listModels: () => () => Promise.resolve(E.right([{ id: "small", outputCostPerMTok: 1 }])),
};

const modelListDown: Provider = {
  name: "down",
  complete: () => () =>
    Promise.resolve(E.right({ text: "unused", model: "m", usage: { inputTokens: 0, outputTokens: 0 } })),
  listModels: () => () => Promise.resolve(E.left({ _tag: "ProviderTransientError", status: 503, message: "down" })),
};

type Mode = readonly [label: string, provider: () => Provider, extra: Record<string, unknown>, error: unknown];

const scripted = (reply: Reply) => () => scriptedProvider([reply]);
const modes: readonly Mode[] = [
  [
    "typed transient error",
    scripted({ error: { _tag: "ProviderTransientError", status: 503, message: "overloaded" } }),
    {},
    { _tag: "SummariserFailed", error: { _tag: "ProviderTransientError", status: 503, message: "overloaded" } },
  ],
  [
    "typed auth error",
    scripted({ error: { _tag: "ProviderAuthError", status: 401, message: "bad key" } }),
    {},
    { _tag: "SummariserFailed", error: { _tag: "ProviderAuthError" } },
  ],
  [
    "a throw",
    scripted({ throws: "provider bug" }),
    {},
    {
      _tag: "SummariserFailed",
      error: { _tag: "ProviderUnexpected", message: expect.stringContaining("provider bug") },
    },
  ],
  [
    "a rejection",
    scripted({ rejects: "socket hang up" }),
    {},
    {
      _tag: "SummariserFailed",
      error: { _tag: "ProviderUnexpected", message: expect.stringContaining("socket hang up") },
    },
  ],
  [
    "a timeout",
    () => hanging,
    { timeoutMs: 20 },
    { _tag: "SummariserFailed", error: { _tag: "ProviderTimeout", timeoutMs: 20 } },
  ],
  [
    "the model list failing",
    () => modelListDown,
    {},
    { _tag: "ModelListFailed", error: { _tag: "ProviderTransientError" } },
  ],
];

describe("summariser failures with fallback truncate (the default)", () => {
  for (const [label, provider, extra, error] of modes) {
    it(`${label}: a truncated summary is saved under the usual watermark; a warning carries the error`, async () => {
      const store = memoryStore();
      const { compactor, seen } = compactorFor(store, provider(), { maxSummaryTokens: 80, ...extra });
      await right(store.append("s", chat(10), 1));
      const outcome = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }));
      expect(outcome).toMatchObject({
        _tag: "Compacted",
        summary: { coversUpTo: 6, previousId: null },
        event: {
          _tag: "CompactionDone",
          level: "truncate",
          model: null,
          coversUpTo: 6,
          messagesSummarised: 6,
          messagesKept: 4,
        },
        warning: { _tag: "CompactionWarning", reason: "SummariserFailed", fallback: "truncate", error },
      });
      expect(seen.map((e) => e._tag)).toEqual(["CompactionWarning", "CompactionDone"]);
      expect(seen[0]).toMatchObject({ error, stackId: "s", at: 42 });
      if (outcome._tag !== "Compacted") return;
      const content = outcome.summary.content;
      expect(content.startsWith(`${TRUNCATED_SUMMARY_HEADING}\n`)).toBe(true);
      expect(estimateCounter().count(content)).toBeLessThanOrEqual(80);
      expect(outcome.event.summaryChars).toBe(content.length);
      // The head of the folded history is kept verbatim; nothing past the watermark is in it.
      expect(content).toContain("message 1");
      expect(content).not.toContain("message 7");
      // The newest messages are still sent verbatim after the watermark.
      expect((await right(store.messagesAfter("s", 6))).map((m) => m.message.content)).toEqual([
        "message 7",
        "message 8",
        "message 9",
        "message 10",
      ]);
    });
  }

  it("an empty summary: the truncated summary is saved and the warning says it was empty", async () => {
    const store = memoryStore();
    const { compactor, seen } = compactorFor(store, scriptedProvider([{ text: " \n " }]), {});
    await right(store.append("s", chat(10), 1));
    const outcome = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }));
    expect(outcome).toMatchObject({
      _tag: "Compacted",
      event: { level: "truncate" },
      warning: { reason: "EmptySummary", error: null, fallback: "truncate" },
    });
    expect(seen.map((e) => e._tag)).toEqual(["CompactionWarning", "CompactionDone"]);
    expect(O.toUndefined(await right(store.latestSummary("s")))?.coversUpTo).toBe(6);
  });

  it("a caller's abort is not papered over: nothing is saved", async () => {
    const slow: Provider = {
      name: "slow",
      complete: (request) => () =>
        new Promise((resolve) =>
          request.signal?.addEventListener("abort", () => resolve(E.left({ _tag: "ProviderAborted" })), { once: true }),
        ),
      listModels: () => () => Promise.resolve(E.right([{ id: "m", outputCostPerMTok: 1 }])),
    };
    const store = memoryStore();
    const { compactor, seen } = compactorFor(store, slow, {});
    await right(store.append("s", chat(10), 1));
    const controller = new AbortController();
    const running = compactor.tryCompact({ stackId: "s", lastInputTokens: 500, signal: controller.signal })();
    setImmediate(() => controller.abort());
    expect(await running).toEqual(E.left({ _tag: "SummariserFailed", error: { _tag: "ProviderAborted" } }));
    expect(seen.map((e) => e._tag)).toEqual(["CompactionFailed"]);
    expect(O.isNone(await right(store.latestSummary("s")))).toBe(true);
  });

  it("a store failure while saving the fallback is reported and saves nothing", async () => {
    const inner = memoryStore();
    const failing: SummaryStore = {
      ...inner,
      saveSummary: () => () =>
        Promise.resolve(E.left({ _tag: "StoreUnavailable", backend: "memory", message: "disk full" })),
    };
    const { compactor, seen } = compactorFor(failing, scriptedProvider([{ throws: "down" }]), {});
    await right(inner.append("s", chat(10), 1));
    expect(await left(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }))).toMatchObject({
      _tag: "StoreUnavailable",
    });
    expect(seen.map((e) => e._tag)).toEqual(["CompactionWarning", "CompactionFailed"]);
    expect(O.isNone(await right(inner.latestSummary("s")))).toBe(true);
  });
});

describe("summariser failures with fallback none", () => {
  for (const [label, provider, extra, error] of modes) {
    it(`${label}: a typed failure, CompactionFailed, the store unchanged`, async () => {
      const store = memoryStore();
      const { compactor, seen } = compactorFor(store, provider(), { fallback: "none", ...extra });
      await right(store.append("s", chat(10), 1));
      expect(await left(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }))).toMatchObject(error as object);
      expect(seen.map((e) => e._tag)).toEqual(["CompactionFailed"]);
      expect(O.isNone(await right(store.latestSummary("s")))).toBe(true);
      expect(await right(store.lastMessageId("s"))).toBe(10);
    });
  }

  it("an empty summary: skipped with a warning, nothing saved", async () => {
    const store = memoryStore();
    const { compactor, seen } = compactorFor(store, scriptedProvider([{ text: "" }]), { fallback: "none" });
    await right(store.append("s", chat(10), 1));
    expect(await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }))).toMatchObject({
      _tag: "Skipped",
      reason: "EmptySummary",
    });
    expect(seen).toEqual([
      expect.objectContaining({ _tag: "CompactionWarning", reason: "EmptySummary", fallback: "none", error: null }),
    ]);
    expect(O.isNone(await right(store.latestSummary("s")))).toBe(true);
  });
});

describe("iterative update through the fallback", () => {
  it("a later LLM compaction gets the truncated summary as PREVIOUS SUMMARY and supersedes it", async () => {
    const store = memoryStore();
    const provider = scriptedProvider([
      { error: { _tag: "ProviderTransientError", message: "down" } },
      { text: "REAL SUMMARY" },
    ]);
    const { compactor } = compactorFor(store, provider, {});
    await right(store.append("s", chat(10), 1));
    const first = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }));
    if (first._tag !== "Compacted") return expect.fail("expected the fallback to compact");
    await right(store.append("s", chat(4, 11), 2));
    const second = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }));
    expect(second).toMatchObject({
      _tag: "Compacted",
      event: { level: "detailed", model: "small", previousSummaryId: first.summary.id },
      summary: { content: "REAL SUMMARY", previousId: first.summary.id, coversUpTo: 10 },
    });
    expect(second._tag === "Compacted" && second.warning).toBe(undefined);
    const prompt = promptText(provider.requests[1]);
    expect(prompt).toContain(`${PREVIOUS_SUMMARY_HEADING}\n${first.summary.content}\n\n${NEW_MESSAGES_HEADING}`);
  });

  it("a fallback after a real summary keeps the start of that summary; repeated fallbacks do not nest headings", async () => {
    const store = memoryStore();
    const provider = scriptedProvider([{ text: "## Goal\nship the parser fix" }, { throws: "down" }]);
    const { compactor } = compactorFor(store, provider, { maxTokens: 1000, threshold: 1, maxSummaryTokens: 120 });
    await right(store.append("s", chat(10), 1));
    await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 5000 }));
    let last = "";
    for (let round = 0; round < 5; round++) {
      await right(store.append("s", chat(6, 11 + round * 6), 2));
      const outcome = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 5000 }));
      if (outcome._tag !== "Compacted") return expect.fail("expected the fallback to compact");
      expect(outcome.event.level).toBe("truncate");
      last = outcome.summary.content;
      expect(last.split(TRUNCATED_SUMMARY_HEADING)).toHaveLength(2);
      expect(last.split(PREVIOUS_SUMMARY_HEADING)).toHaveLength(2);
      expect(estimateCounter().count(last)).toBeLessThanOrEqual(120);
    }
    expect(last).toContain("## Goal\nship the parser fix");
    // The tail holds the newest folded message.
    expect(last).toContain("message 36");
  });
});

describe("fallback budget with the real tokenizer", () => {
  it("stays within maxSummaryTokens counted by tiktoken, for CJK, emoji and lone surrogates", async () => {
    const counter = tiktokenCounter();
    for (const body of [
      "中文上下文压缩".repeat(400),
      "🧠🔥👩‍💻".repeat(500),
      "lone \ud800 high ".repeat(300),
      "x".repeat(20000),
    ]) {
      for (const maxSummaryTokens of [16, 17, 50, 300]) {
        const store = memoryStore();
        const made = decodeSessionCompactor({
          store,
          provider: scriptedProvider([{ throws: "down" }]),
          config: { maxTokens: 1000, threshold: 1, preserveLast: 1, maxSummaryTokens },
          counter,
        });
        if (E.isLeft(made)) return expect.fail(made.left.message);
        await right(
          store.append(
            "s",
            [
              { role: "user", content: body },
              { role: "assistant", content: "ok" },
            ],
            1,
          ),
        );
        const outcome = await right(made.right.forceCompact({ stackId: "s" }));
        if (outcome._tag !== "Compacted") return expect.fail(`expected a compaction, got ${outcome.reason}`);
        expect(counter.count(outcome.summary.content)).toBeLessThanOrEqual(maxSummaryTokens);
        expect(outcome.summary.content.trim()).not.toBe("");
      }
    }
  });
});
