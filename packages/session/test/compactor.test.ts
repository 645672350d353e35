import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import { describe, expect, it } from "vitest";
import {
  SESSION_SUMMARY_PREFIX,
  createEventBus,
  decodeSessionCompactor,
  loadContext,
  memoryStore,
  type SessionCompactor,
  type SessionEvent,
  type SummaryStore,
} from "@cc/session";
import { SUMMARY_SECTIONS, PREVIOUS_SUMMARY_HEADING } from "@cc/test-support/session";
import { offlineProvider } from "@cc/lcm";
import { type Message, type Provider } from "@cc/messages";
import { chat } from "./conversation.js";
import { promptText, scriptedProvider } from "./scripted.js";
import { left, right } from "./support.js";

function setup(
  provider: Provider,
  config: unknown = { maxTokens: 1000, threshold: 1 },
  store: SummaryStore = memoryStore(),
) {
  const events = createEventBus<SessionEvent>({ onSubscriberError: () => undefined });
  const seen: SessionEvent[] = [];
  events.subscribe((e) => void seen.push(e));
  const made = decodeSessionCompactor({ store, provider, config, events, now: () => 1234 });
  if (E.isLeft(made)) expect.fail(made.left.message);
  return { store, compactor: made.right as SessionCompactor, seen, events };
}

describe("tryCompact", () => {
  it("holds below the threshold without calling the summariser", async () => {
    const provider = scriptedProvider([{ text: "S" }]);
    const { store, compactor } = setup(provider);
    await right(store.append("s", chat(20), 1));
    expect(await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 999 }))).toMatchObject({
      _tag: "Skipped",
      reason: "BelowThreshold",
      effectiveTokens: 999,
    });
    expect(provider.requests).toHaveLength(0);
  });

  it("at the threshold folds all but the newest 6 messages into one summary", async () => {
    const provider = scriptedProvider([{ text: "## Goal\nship" }]);
    const { store, compactor, seen } = setup(provider);
    await right(store.append("s", chat(10), 1));
    const outcome = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 1000 }));
    expect(outcome).toMatchObject({
      _tag: "Compacted",
      tokenSource: "reported",
      summary: { coversUpTo: 4, previousId: null, content: "## Goal\nship" },
    });
    const request = provider.requests[0]!;
    expect(request).toMatchObject({ model: "small", temperature: 0.3, maxTokens: 250 });
    expect(request.messages).toHaveLength(1);
    expect(request.messages[0]!.role).toBe("user");
    const prompt = promptText(request);
    for (const n of [1, 2, 3, 4]) expect(prompt).toContain(`message ${n}\n`);
    for (const n of [5, 10]) expect(prompt).not.toContain(`message ${n}\n`);
    for (const s of SUMMARY_SECTIONS) expect(prompt).toContain(`## ${s.title}`);
    expect(prompt).not.toContain(PREVIOUS_SUMMARY_HEADING);
    expect(seen).toEqual([
      {
        _tag: "CompactionDone",
        stackId: "s",
        trigger: "threshold",
        summaryId: outcome._tag === "Compacted" ? outcome.summary.id : -1,
        previousSummaryId: null,
        coversUpTo: 4,
        messagesSummarised: 4,
        messagesKept: 6,
        effectiveTokens: 1000,
        summaryChars: 12,
        level: "detailed",
        model: "small",
        at: 1234,
      },
    ]);
  });

  it("with 0 reported tokens uses the weighted estimate of the history", async () => {
    const provider = scriptedProvider([{ text: "S" }]);
    const { store, compactor } = setup(provider, { maxTokens: 200, threshold: 1 });
    await right(
      store.append(
        "s",
        chat(8).map((m) => ({ ...m, content: "word ".repeat(10) })),
        1,
      ),
    );
    const low = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 0 }));
    expect(low).toMatchObject({ _tag: "Skipped", reason: "BelowThreshold" });
    expect(low._tag === "Skipped" && low.effectiveTokens).toBeGreaterThan(50);
    await right(
      store.append(
        "s",
        chat(8).map((m) => ({ ...m, content: "word ".repeat(40) })),
        1,
      ),
    );
    expect(await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 0 }))).toMatchObject({
      _tag: "Compacted",
      tokenSource: "estimated",
    });
  });

  it("never compacts an ephemeral session, by threshold or by force", async () => {
    const provider = scriptedProvider([{ text: "S" }]);
    const { store, compactor } = setup(provider);
    await right(store.append("s", chat(20), 1));
    expect(await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 1e9, ephemeral: true }))).toMatchObject({
      reason: "Ephemeral",
      legacyReason: "ephemeral",
    });
    expect(await right(compactor.forceCompact({ stackId: "s", ephemeral: true }))).toMatchObject({
      reason: "Ephemeral",
    });
    expect(provider.requests).toHaveLength(0);
  });

  it("does nothing when at most preserveLast messages lie past the watermark", async () => {
    const provider = scriptedProvider([{ text: "S" }]);
    const { store, compactor } = setup(provider, { maxTokens: 1, threshold: 1, preserveLast: 6 });
    await right(store.append("s", chat(6), 1));
    expect(await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 5 }))).toMatchObject({
      reason: "TooFewMessages",
    });
    await right(store.append("s", chat(1), 1));
    expect(await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 5 }))).toMatchObject({
      _tag: "Compacted",
      summary: { coversUpTo: 1 },
    });
    expect(await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 5 }))).toMatchObject({
      reason: "TooFewMessages",
    });
  });

  it("with fallback none, skips an empty summary with a warning event and saves nothing", async () => {
    const provider = scriptedProvider([{ text: "  \n\t " }]);
    const { store, compactor, seen } = setup(provider, { maxTokens: 1000, threshold: 1, fallback: "none" });
    await right(store.append("s", chat(10), 1));
    expect(await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 5000 }))).toMatchObject({
      _tag: "Skipped",
      reason: "EmptySummary",
    });
    expect(seen).toEqual([
      expect.objectContaining({
        _tag: "CompactionWarning",
        reason: "EmptySummary",
        stackId: "s",
        fallback: "none",
        error: null,
      }),
    ]);
    expect(O.isNone(await right(store.latestSummary("s")))).toBe(true);
  });

  it("updates iteratively: the previous summary goes in under PREVIOUS SUMMARY and the new row supersedes it", async () => {
    const provider = scriptedProvider([{ text: "FIRST SUMMARY" }, { text: "SECOND SUMMARY" }]);
    const { store, compactor } = setup(provider);
    await right(store.append("s", chat(10), 1));
    const first = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 5000 }));
    await right(store.append("s", chat(10, 11), 2));
    const second = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 5000 }));
    if (first._tag !== "Compacted" || second._tag !== "Compacted") return expect.fail("both turns should compact");
    expect(second.summary).toMatchObject({ previousId: first.summary.id, coversUpTo: 14 });
    const prompt = promptText(provider.requests[1]);
    expect(prompt).toContain(`${PREVIOUS_SUMMARY_HEADING}\nFIRST SUMMARY`);
    for (const n of [5, 10, 14]) expect(prompt).toContain(`message ${n}\n`);
    for (const n of [1, 4, 15]) expect(prompt).not.toContain(`message ${n}\n`);
    const context = await right(loadContext(store, "s", { compaction: true, systemPrompt: "SYS" }));
    const summaries = context.filter((m) => m.content.includes(SESSION_SUMMARY_PREFIX));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.content).toContain("SECOND SUMMARY");
    expect(summaries[0]!.content).not.toContain("FIRST SUMMARY");
    expect(context.map((m) => m.content).slice(2)).toEqual(chat(6, 15).map((m) => m.content));
  });

  it("forceCompact ignores the threshold", async () => {
    const provider = scriptedProvider([{ text: "S" }]);
    const { store, compactor, seen } = setup(provider, { maxTokens: 1_000_000, threshold: 1 });
    await right(store.append("s", chat(8), 1));
    expect(await right(compactor.forceCompact({ stackId: "s" }))).toMatchObject({
      _tag: "Compacted",
      summary: { coversUpTo: 2 },
    });
    expect(seen[0]).toMatchObject({ _tag: "CompactionDone", trigger: "manual" });
  });

  it("a throwing subscriber never breaks compaction; its failure is in the outcome", async () => {
    const { store, compactor, events } = setup(scriptedProvider([{ text: "S" }]));
    events.subscribe(() => {
      throw new Error("listener bug");
    });
    await right(store.append("s", chat(8), 1));
    const outcome = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 5000 }));
    expect(outcome._tag === "Compacted" && outcome.subscriberFailures.map((f) => (f.error as Error).message)).toEqual([
      "listener bug",
    ]);
    expect(O.isSome(await right(store.latestSummary("s")))).toBe(true);
  });

  it("uses the configured model, or the cheapest listed of the configured strength", async () => {
    const models = [
      { id: "tiny", outputCostPerMTok: 0.1, strength: "very_low" as const },
      { id: "mid", outputCostPerMTok: 2, strength: "average" as const },
      { id: "big", outputCostPerMTok: 20, strength: "very_high" as const },
    ];
    for (const [config, expected] of [
      [{ maxTokens: 1, threshold: 1 }, "tiny"],
      [{ maxTokens: 1, threshold: 1, strength: "average" }, "mid"],
      [{ maxTokens: 1, threshold: 1, model: "pinned" }, "pinned"],
    ] as const) {
      const provider = scriptedProvider([{ text: "S" }], models);
      const { store, compactor } = setup(provider, config);
      await right(store.append("s", chat(8), 1));
      await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 5 }));
      expect(provider.requests[0]!.model).toBe(expected);
    }
    const none = setup(scriptedProvider([{ text: "S" }], []), { maxTokens: 1, threshold: 1, fallback: "none" });
    await right(none.store.append("s", chat(8), 1));
    expect(await left(none.compactor.tryCompact({ stackId: "s", lastInputTokens: 5000 }))).toMatchObject({
      _tag: "NoCompactionModel",
    });
    // With the default fallback, no usable model still yields a (truncated) summary and a warning.
    const fallback = setup(scriptedProvider([{ text: "S" }], []), { maxTokens: 1, threshold: 1 });
    await right(fallback.store.append("s", chat(8), 1));
    expect(await right(fallback.compactor.tryCompact({ stackId: "s", lastInputTokens: 5000 }))).toMatchObject({
      _tag: "Compacted",
      event: { level: "truncate", model: null },
      warning: { reason: "SummariserFailed", error: { _tag: "NoCompactionModel" } },
    });
  });

  it("rejects bad input with the field named", async () => {
    const { compactor } = setup(scriptedProvider([{ text: "S" }]));
    for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(await left(compactor.tryCompact({ stackId: "s", lastInputTokens: bad }))).toMatchObject({
        _tag: "InvalidInput",
        subject: "compaction input",
        problems: [{ path: "lastInputTokens" }],
      });
    }
    expect(await left(compactor.tryCompact({ stackId: "", lastInputTokens: 1 }))).toMatchObject({
      _tag: "InvalidInput",
      problems: [{ path: "stackId" }],
    });
  });

  it("an invalid configuration is refused at construction with actionable lines", () => {
    const made = decodeSessionCompactor({
      store: memoryStore(),
      provider: offlineProvider(),
      config: { preserveLast: 0 },
    });
    expect(E.isLeft(made) && made.left.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^maxTokens: expected a whole number of tokens ≥ 1 .* got undefined$/),
      expect.stringMatching(/^preserveLast: expected a whole number ≥ 1 .* got 0$/),
    ]);
    expect(made).toMatchObject(E.left({ _tag: "InvalidOptions", subject: "session compaction config" }));
  });

  it("works end to end with the offline summariser, on odd Unicode", async () => {
    const { store, compactor } = setup(offlineProvider(), { maxTokens: 1, threshold: 1, preserveLast: 2 });
    const odd: Message[] = [
      { role: "user", content: "修复 src/a.ts 的错误 🧠" },
      { role: "assistant", content: "looking \ud800 at src/a.ts" },
      { role: "user", content: "error: cannot find module ./b" },
      { role: "assistant", content: "ok" },
    ];
    await right(store.append("s", odd, 1));
    const outcome = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 10 }));
    expect(outcome).toMatchObject({ _tag: "Compacted", summary: { coversUpTo: 2 } });
    expect(outcome._tag === "Compacted" && outcome.summary.content).toContain("src/a.ts");
  });
});
