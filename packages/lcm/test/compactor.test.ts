import { describeWarnings } from "../src/warnings.js";
import { estimateCounter } from "@cc/tokens";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { describe, expect, it } from "vitest";
import { memoryAlertSink } from "../src/alerts.js";
import { createLcmCompactor, nextContext, type CompactionResult } from "../src/compactor.js";
import type { Message } from "@cc/messages";
import { offlineProvider } from "../src/providers/offline.js";
import type { Completion, CompletionRequest, Provider, ProviderError } from "@cc/messages";
import { a, call, conversationArb, issued, runs, sys, tool, u } from "../../messages/test/support/conversation.js";

const counter = estimateCounter();
const long = (i: number): string =>
  `step ${i}: edited src/module${i}.ts and ran the tests; Error: expected ${i} got ${i + 1}. `.repeat(8);
const conversation: readonly Message[] = [
  sys("You are a coding agent."),
  ...Array.from({ length: 12 }, (_, i) => [
    u(long(i)),
    call(`c${i}`),
    tool(`c${i}`, long(i * 7)),
    a(long(i + 100)),
  ]).flat(),
];

const scripted = (reply: (req: CompletionRequest) => Promise<E.Either<ProviderError, Completion>>): Provider => ({
  name: "scripted",
  complete: (req) => () => reply(req),
  listModels: () => TE.right([{ id: "cheap", outputCostPerMTok: 1 }]),
});
const text = (t: string): Promise<E.Either<ProviderError, Completion>> =>
  Promise.resolve(E.right({ text: t, model: "cheap", usage: { inputTokens: 0, outputTokens: 0 } }));

async function run(
  provider: Provider | undefined,
  messages = conversation,
  opts = {},
  signal?: AbortSignal,
): Promise<CompactionResult> {
  const compactor = createLcmCompactor({ ...(provider === undefined ? {} : { provider }), counter, timeoutMs: 200 });
  const r = await compactor.compact(messages, { maxTokens: 2000, preserveLast: 4, ...opts }, signal)();
  if (E.isLeft(r)) throw new Error(`unexpected ${r.left._tag}`);
  return r.right;
}

describe("LcmCompactor", () => {
  it("accepts a detailed summary from the offline provider and keeps system + tail verbatim", async () => {
    const r = await run(offlineProvider({ counter }));
    expect(r.level).toBe("detailed");
    expect(r.system).toEqual([conversation[0]]);
    expect(r.messages).toEqual(conversation.slice(-4));
    expect(r.messagesCompacted + r.messagesPreserved + 1).toBe(conversation.length);
    expect(r.compactedTokens).toBeLessThan(r.originalTokens);
    expect(r.ratio).toBeCloseTo(r.compactedTokens / r.originalTokens);
    expect(r.model).toBe("offline-extractive");
    expect(nextContext(r)[0]).toEqual(conversation[0]);
  });
  it("escalates to bullet when the detailed summary is over target", async () => {
    const r = await run(
      scripted((req) => text(req.messages[0]!.content.includes("bullet") ? "- short" : "word ".repeat(5000))),
    );
    expect(r.level).toBe("bullet");
    expect(r.attempts.map((x) => [x.level, x.accepted, x.rejection?._tag])).toEqual([
      ["detailed", false, "OverTarget"],
      ["bullet", true, undefined],
    ]);
    expect(r.attempts[1]!.target).toBe(Math.floor(r.attempts[0]!.target / 2));
  });
  it("reports shouldCompact pressure and rejects bad options with field names", () => {
    const c = createLcmCompactor({ counter });
    const usage = c.shouldCompact(conversation, { maxTokens: 100 });
    expect(E.isRight(usage) && usage.right.pressure).toBe("hard");
    expect(E.isRight(c.shouldCompact([u("hi")], { maxTokens: 100_000 })) && c.estimateUsage([u("hi")])).toBeGreaterThan(
      0,
    );
    const bad = c.shouldCompact(conversation, { maxTokens: Number.NaN, softThreshold: 2 });
    expect(E.isLeft(bad) && bad.left.message).toMatch(/^invalid compact options: maxTokens[\s\S]*softThreshold/);
    expect(E.isLeft(bad) && bad.left.problems.map((p) => p.path)).toEqual(["maxTokens", "softThreshold"]);
  });
  it("does nothing (level none) when only the system prefix and the tail exist", async () => {
    const r = await run(offlineProvider({ counter }), [sys(), u(), a()], { preserveLast: 5 });
    expect(r.level).toBe("none");
    expect(r.messages).toEqual([u(), a()]);
    expect(describeWarnings(r.warnings)).toMatch(/nothing/);
    expect(r.warnings).toEqual([
      { _tag: "NothingCompacted", reason: "only_tail", message: "nothing before the preserved tail can be compacted" },
    ]);
  });
  it("empty input is a no-op with a reason", async () => {
    const r = await run(undefined, []);
    expect(r.level).toBe("none");
    expect(r.originalTokens).toBe(0);
  });
});

describe("faults: each yields a valid result or a typed error, and the caller's messages are untouched", () => {
  const faults: Record<string, Provider> = {
    throws: {
      name: "t",
      complete: () => {
        throw new Error("boom");
      },
      listModels: () => TE.right([{ id: "m", outputCostPerMTok: 1 }]),
    },
    rejects: scripted(() => Promise.reject(new Error("kaput"))),
    hangs: scripted(() => new Promise(() => undefined)),
    empty: scripted(() => text("   ")),
    longer: scripted(() => text("x ".repeat(100_000))),
    garbage: scripted(() => text("\ud800\u0000<<<>>>")),
    listingFails: {
      name: "l",
      complete: () => TE.right({ text: "ok", model: "m", usage: { inputTokens: 0, outputTokens: 0 } }),
      listModels: () => () => Promise.reject(new Error("down")),
    },
    auth: scripted(() => Promise.resolve(E.left({ _tag: "ProviderAuthError", status: 401, message: "bad key" }))),
  };
  for (const [name, provider] of Object.entries(faults)) {
    it(`provider ${name}`, async () => {
      const input = structuredClone(conversation);
      const r = await run(provider, input);
      expect(input).toEqual(conversation);
      expect(["detailed", "bullet", "truncate"]).toContain(r.level);
      expect(r.compactedTokens).toBeLessThan(r.originalTokens);
      if (r.level === "truncate") expect(describeWarnings(r.warnings)).toMatch(/fell to truncation/);
    });
  }
  it("garbage that fits is accepted only under the acceptance rule", async () => {
    const r = await run(faults["garbage"]!);
    expect(r.level).toBe("detailed");
    expect(r.summary).toBe("\ud800\u0000<<<>>>");
  });
  it("a hang is reported as a timeout", async () => {
    const r = await run(faults["hangs"]!);
    expect(r.attempts[0]?.rejection).toEqual({
      _tag: "ProviderFailed",
      error: { _tag: "ProviderTimeout", timeoutMs: 200 },
    });
  });
  it("abort mid-compaction yields CompactionAborted", async () => {
    const controller = new AbortController();
    const provider = scripted(() => {
      controller.abort();
      return new Promise(() => undefined);
    });
    const r = await createLcmCompactor({ provider, counter }).compact(
      conversation,
      { maxTokens: 2000 },
      controller.signal,
    )();
    expect(r).toEqual(E.left({ _tag: "CompactionAborted" }));
  });
  it("an alert sink whose promise never settles cannot hang compaction: it is reported after the timeout", async () => {
    const c = createLcmCompactor({
      counter,
      alertSink: { alert: () => new Promise<void>(() => undefined) },
      sessionId: "s0",
    });
    const r = await c.compact(conversation, { maxTokens: 2000 })();
    expect(E.isRight(r) && describeWarnings(r.right.warnings)).toMatch(/alert sink did not settle within 1000 ms/);
  });

  it("a throwing or rejecting alert sink never breaks compaction; a good one gets compaction_skip", async () => {
    for (const bad of [
      {
        alert: () => {
          throw new Error("sink down");
        },
      },
      { alert: () => Promise.reject(new Error("sink down")) },
    ]) {
      const c = createLcmCompactor({ counter, alertSink: bad, sessionId: "s1" });
      const r = await c.compact(conversation, { maxTokens: 2000 })();
      expect(E.isRight(r) && describeWarnings(r.right.warnings)).toMatch(/alert sink failed: sink down/);
    }
    const sink = memoryAlertSink();
    const c = createLcmCompactor({ counter, now: () => 42, alertSink: sink, sessionId: "s2" });
    await c.compact(conversation, { maxTokens: 2000 })();
    expect(sink.alerts).toHaveLength(1);
    expect(sink.alerts[0]).toMatchObject({ kind: "compaction_skip", sessionId: "s2", at: 42 });
  });
});

describe("secrets in what any provider or sink says never reach results, warnings or alerts", () => {
  it("a provider's error messages and throws are redacted (URL queries, credential parameters and headers, bearer tokens) and bounded", async () => {
    const token = "tok-9f8e7d6c5b4a";
    const says = [
      `401 from https://llm.example/v1/chat?api_key=${token}&v=2`,
      `upstream said {"access_token": "${token}"} ${"x".repeat(50_000)}`,
      `bad header Authorization: Bearer ${token}`,
      `POST /v1/chat?token=${token} refused`,
    ];
    for (const [i, message] of says.entries()) {
      const sink = memoryAlertSink();
      const provider = scripted(() =>
        i % 2 === 0
          ? Promise.resolve(E.left({ _tag: "ProviderRequestError", status: 400, message }))
          : Promise.reject(new Error(message)),
      );
      const r = await createLcmCompactor({
        provider,
        counter,
        timeoutMs: 200,
        alertSink: sink,
        sessionId: "s",
      }).compact(conversation, { maxTokens: 2000, preserveLast: 4 })();
      const shown = JSON.stringify([r, sink.alerts, E.isRight(r) ? describeWarnings(r.right.warnings) : ""]);
      expect(shown, message.slice(0, 80)).not.toContain(token);
      expect(shown).toContain("***");
      expect(shown.length).toBeLessThan(40_000);
    }
  });

  it("an alert sink's failure message is redacted", async () => {
    const c = createLcmCompactor({
      counter,
      alertSink: {
        alert: () => {
          throw new Error("POST https://hooks.example/alert?token=hook-secret-77 failed");
        },
      },
      sessionId: "s3",
    });
    const r = await c.compact(conversation, { maxTokens: 2000 })();
    const shown = E.isRight(r) ? (describeWarnings(r.right.warnings) ?? "") : "";
    expect(shown).toContain("alert sink failed: POST https://hooks.example/alert?*** failed");
    expect(shown).not.toContain("hook-secret");
  });
});

describe("property: escalation converges", () => {
  it("any provider behaviour on any conversation gives a valid, smaller context with paired tool calls", async () => {
    const behaviours = fc.constantFrom("offline", "empty", "huge", "echo", "fail");
    await fc.assert(
      fc.asyncProperty(
        conversationArb,
        behaviours,
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 50, max: 5000 }),
        async (messages, behaviour, keep, maxTokens) => {
          const provider: Provider =
            behaviour === "offline"
              ? offlineProvider({ counter })
              : scripted((req) =>
                  behaviour === "fail"
                    ? Promise.resolve(E.left({ _tag: "ProviderTransientError", message: "503" }))
                    : text(
                        behaviour === "empty"
                          ? ""
                          : behaviour === "huge"
                            ? "y ".repeat(20_000)
                            : req.messages.map((m) => m.content).join(""),
                      ),
                );
          const r = await createLcmCompactor({ provider, counter }).compact(messages, {
            maxTokens,
            preserveLast: keep,
          })();
          if (E.isLeft(r)) throw new Error(r.left._tag);
          const res = r.right;
          if (res.level === "none") {
            expect(nextContext(res)).toEqual(messages);
            return;
          }
          expect(res.summary.trim()).not.toBe("");
          expect(res.compactedTokens).toBeLessThan(res.originalTokens);
          const compacted = messages.slice(res.system.length, res.system.length + res.messagesCompacted);
          const calls = issued(compacted);
          for (const m of res.messages) if (m.role === "tool") expect(calls.has(m.toolCallId)).toBe(false);
        },
      ),
      { numRuns: runs },
    );
  });
});
