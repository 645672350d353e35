// The three steps of a compaction pass, each on its own: planSummary (pure), summarise (the
// model call and the fallback, no store, no events), saveSummary (the write and the events).
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateCounter } from "@cc/tokens";
import {
  createEventBus,
  decodeSessionConfig,
  memoryStore,
  type SessionEvent,
  type StoredMessage,
  type StoredSummary,
} from "@cc/session";
import {
  PREVIOUS_SUMMARY_HEADING,
  planSummary,
  saveSummary,
  summarise,
  TRUNCATED_SUMMARY_HEADING,
  type Pass,
  type SummaryJob,
} from "@cc/test-support/session";
import { defaultTranscriptLimits } from "@cc/test-support/lcm";
import type { Message } from "@cc/messages";
import { chat, conversationArb } from "./conversation.js";
import { promptText, scriptedProvider } from "./scripted.js";
import { left, right, runs } from "./support.js";

const stored = (messages: readonly Message[], firstId = 1): StoredMessage[] =>
  messages.map((message, i) => ({ stackId: "s", id: firstId + i, message, createdAt: 0 }));
const previous: StoredSummary = {
  stackId: "s",
  id: 7,
  content: "OLD SUMMARY",
  coversUpTo: 0,
  previousId: null,
  createdAt: 0,
};
const pass: Pass = { stackId: "s", trigger: "threshold", effectiveTokens: 1000, tokenSource: "reported", at: 5 };
const config = (raw: object) => {
  const decoded = decodeSessionConfig({ maxTokens: 1000, ...raw });
  if (E.isLeft(decoded)) return expect.fail(decoded.left.message);
  return decoded.right;
};
const job = (messages: readonly Message[], latest: O.Option<StoredSummary> = O.none): SummaryJob => {
  const planned = planSummary({ latest, after: stored(messages) }, { preserveLast: 2 }, defaultTranscriptLimits, 1000);
  if (planned._tag !== "Job") return expect.fail(planned.message);
  return planned;
};

describe("planSummary (pure)", () => {
  it("folds all but the newest preserveLast and builds the iterative prompt from the previous summary", () => {
    const planned = job(chat(6), O.some(previous));
    expect(planned.plan.summarise.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(planned.plan.keep.map((m) => m.id)).toEqual([5, 6]);
    expect(planned.previous).toBe(previous);
    expect(promptText({ model: "m", messages: planned.prompt })).toContain(`${PREVIOUS_SUMMARY_HEADING}\nOLD SUMMARY`);
  });

  it("skips with the reason when at most preserveLast messages lie past the watermark", () => {
    expect(
      planSummary({ latest: O.none, after: stored(chat(2)) }, { preserveLast: 2 }, defaultTranscriptLimits, 42),
    ).toMatchObject({
      _tag: "Skipped",
      reason: "TooFewMessages",
      effectiveTokens: 42,
      message: expect.stringContaining("preserveLast is 2"),
    });
  });

  it("property: the same input gives the same plan, and folded + kept are the input in order", () => {
    fc.assert(
      fc.property(conversationArb(30), fc.integer({ min: 1, max: 8 }), (messages, preserveLast) => {
        const loaded = { latest: O.none, after: stored(messages) };
        const a = planSummary(loaded, { preserveLast }, defaultTranscriptLimits, 0);
        expect(planSummary(loaded, { preserveLast }, defaultTranscriptLimits, 0)).toEqual(a);
        if (a._tag === "Job") expect([...a.plan.summarise, ...a.plan.keep]).toEqual(loaded.after);
      }),
      { numRuns: runs(200) },
    );
  });
});

describe("summarise (no store, no events)", () => {
  const deps = (replies: Parameters<typeof scriptedProvider>[0], raw: object = {}) => {
    const provider = scriptedProvider(replies);
    return { provider, guarded: provider, config: config(raw), counter: estimateCounter() };
  };

  it("a summary from the model is saved as detailed", async () => {
    const d = deps([{ text: "  ## Goal\nship  " }]);
    expect(await summarise(d, job(chat(6)), pass)()).toEqual({
      _tag: "Save",
      text: "## Goal\nship",
      level: "detailed",
      model: "small",
    });
    expect(d.provider.requests[0]).toMatchObject({ model: "small", maxTokens: 200, temperature: 0.3 }); // a quarter of the trigger 0.8 × 1000
  });

  it("a failed call with fallback truncate settles on a truncated summary and a typed warning", async () => {
    const decision = await summarise(
      deps([{ error: { _tag: "ProviderTransientError", message: "down" } }]),
      job(chat(6)),
      pass,
    )();
    expect(decision).toMatchObject({
      _tag: "Save",
      level: "truncate",
      model: null,
      warning: {
        _tag: "CompactionWarning",
        reason: "SummariserFailed",
        fallback: "truncate",
        error: { _tag: "SummariserFailed" },
        at: 5,
      },
    });
    expect(decision._tag === "Save" && decision.text.startsWith(TRUNCATED_SUMMARY_HEADING)).toBe(true);
  });

  it("with fallback none, a failure is a Fail and an empty summary a Skip with a warning", async () => {
    const failure = { _tag: "ProviderTransientError", message: "down" } as const;
    expect(await summarise(deps([{ error: failure }], { fallback: "none" }), job(chat(6)), pass)()).toEqual({
      _tag: "Fail",
      error: { _tag: "SummariserFailed", error: failure },
    });
    expect(await summarise(deps([{ text: " " }], { fallback: "none" }), job(chat(6)), pass)()).toMatchObject({
      _tag: "Skip",
      outcome: { _tag: "Skipped", reason: "EmptySummary", legacyReason: "empty_summary" },
      warning: { reason: "EmptySummary", legacyReason: "empty_summary", fallback: "none", error: null },
    });
  });
});

describe("saveSummary", () => {
  it("saves the decision, then publishes the warning and CompactionDone", async () => {
    const store = memoryStore();
    await right(store.append("s", chat(6), 1));
    const events = createEventBus<SessionEvent>();
    const seen: string[] = [];
    events.subscribe((e) => void seen.push(e._tag));
    const warning = {
      _tag: "CompactionWarning",
      stackId: "s",
      reason: "EmptySummary",
      legacyReason: "empty_summary",
      error: null,
      fallback: "truncate",
      message: "w",
      at: 5,
    } as const;
    const outcome = await right(
      saveSummary(
        store,
        events,
        job(chat(6)),
        { _tag: "Save", text: "T", level: "truncate", model: null, warning },
        pass,
      ),
    );
    expect(outcome).toMatchObject({
      _tag: "Compacted",
      summary: { coversUpTo: 4, content: "T" },
      event: { level: "truncate", messagesSummarised: 4, messagesKept: 2 },
      warning,
    });
    expect(seen).toEqual(["CompactionWarning", "CompactionDone"]);
  });

  it("a Fail is returned as is and nothing is written or published", async () => {
    const store = memoryStore();
    await right(store.append("s", chat(6), 1));
    const events = createEventBus<SessionEvent>();
    const seen: string[] = [];
    events.subscribe((e) => void seen.push(e._tag));
    const error = { _tag: "SummariserFailed", error: { _tag: "ProviderTransientError", message: "down" } } as const;
    expect(await left(saveSummary(store, events, job(chat(6)), { _tag: "Fail", error }, pass))).toEqual(error);
    expect(O.isNone(await right(store.latestSummary("s")))).toBe(true);
    expect(seen).toEqual([]);
  });

  it("a summary saved meanwhile by another writer turns the pass into a ConcurrentCompaction skip", async () => {
    const store = memoryStore();
    await right(store.append("s", chat(6), 1));
    const planned = job(chat(6));
    await right(store.saveSummary("s", { content: "OTHER", coversUpTo: 2, previousId: null }, 1));
    expect(
      await right(
        saveSummary(
          store,
          createEventBus<SessionEvent>(),
          planned,
          { _tag: "Save", text: "T", level: "detailed", model: "m" },
          pass,
        ),
      ),
    ).toMatchObject({
      _tag: "Skipped",
      reason: "ConcurrentCompaction",
    });
  });
});
