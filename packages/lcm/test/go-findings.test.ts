// Regression examples for the defects of the Go original (GO-FINDINGS.md items 13–17).
import { estimateCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { describe, expect, it } from "vitest";
import { createLcmCompactor } from "../src/compactor.js";
import type { Message } from "@cc/messages";
import type { Provider } from "@cc/messages";
import { safeSplit } from "@cc/messages";
import { truncateToBudget } from "../src/truncate.js";
import { a, call, tool, u } from "../../messages/test/support/conversation.js";

const counter = estimateCounter();

describe("GO-FINDINGS 13: the safe split walks back exactly to the issuing assistant", () => {
  it("[u, u, a+call, tool, u] with split 3 becomes 2, not 1", () => {
    expect(safeSplit([u(), u(), call("c"), tool("c"), u()], 2)).toBe(2);
  });
  it("1 user + 100 tool cycles, preserveLast 20: split 181 (21 kept), not 1", () => {
    const m: Message[] = [u()];
    for (let i = 0; i < 100; i++) m.push(call(`c${i}`), tool(`c${i}`));
    expect(m).toHaveLength(201 + 0);
    const split = safeSplit(m, 20);
    expect(split).toBe(181);
    expect(m[split]?.role).toBe("assistant");
  });
});

describe("GO-FINDINGS 14: no floor of 1 that orphans a tool result", () => {
  it("[a+call, tool, tool, u] with split 1 keeps the call with its results", () => {
    const m = [call("x", "y"), tool("x"), tool("y"), u()];
    const split = safeSplit(m, 3);
    expect(split).toBe(0);
    expect(m[split]?.role).not.toBe("tool");
  });
});

describe("GO-FINDINGS 15: truncation fits small targets, is marked, and is labelled honestly", () => {
  const source = "The quick brown fox jumps over the lazy dog. ".repeat(200);
  it("a target of 10 tokens gives at most 10 tokens (the original gave ~142)", () => {
    const r = truncateToBudget(source, 10, counter);
    expect(r.tokens).toBeLessThanOrEqual(10);
    expect(r.text).toMatch(/…/);
  });
  it("marks where text was cut", () => {
    expect(truncateToBudget(source, 100, counter).text).toMatch(/\[… \d+ chars omitted …\]/);
  });
  it("is not labelled cut when nothing was cut", () => {
    expect(truncateToBudget("short text", 100, counter).cut).toBe(false);
  });
  it("keeps invalid UTF-16 (lone surrogates) as it is instead of replacing it", () => {
    expect(truncateToBudget("a\ud800b", 100, counter).text).toBe("a\ud800b");
  });
});

describe("GO-FINDINGS 16: truncation builds its output in linear structure", () => {
  it("counts the source once and each candidate at most a bounded number of times", () => {
    let counted = 0;
    const spy = { ...counter, count: (t: string) => ((counted += t.length), counter.count(t)) };
    const source = "line of text with words\n".repeat(40_000);
    truncateToBudget(source, 500, spy);
    // One pass over the source plus a few passes over outputs of ~budget size: far below 2× the source.
    expect(counted).toBeLessThan(source.length * 1.1);
  });
});

describe("GO-FINDINGS 17: a summary is accepted only when smaller than its source", () => {
  it("a provider that echoes a longer text is rejected at both LLM levels; truncation saves tokens", async () => {
    const echo: Provider = {
      name: "echo",
      complete: (req) =>
        TE.right({
          text: req.messages
            .map((m) => m.content)
            .join("\n")
            .repeat(2),
          model: req.model,
          usage: { inputTokens: 0, outputTokens: 0 },
        }),
      listModels: () => TE.right([]),
    };
    const messages = [
      u("a first question about src/a.ts and its failing test"),
      a("a first answer that looks at the code"),
      u("another question"),
      a("another reply with more detail"),
      u("latest"),
    ];
    const r = await createLcmCompactor({ provider: echo, counter }).compact(messages, {
      maxTokens: 1_000_000,
      preserveLast: 1,
      compactionModel: "m",
    })();
    expect(E.isRight(r)).toBe(true);
    if (E.isLeft(r)) return;
    expect(r.right.attempts.slice(0, 2).every((x) => !x.accepted)).toBe(true);
    expect(r.right.level).toBe("truncate");
    expect(r.right.compactedTokens).toBeLessThan(r.right.originalTokens);
    expect(counter.count(r.right.summary)).toBeLessThan(counter.countMessages(messages.slice(0, 4)));
  });
});
