import { afterAll, describe, expect, it } from "vitest";
import type { Message } from "@cc/messages";
import { countMessagesWith, estimateCounter, tiktokenCounter } from "@cc/tokens";

describe("countMessages formula", () => {
  const counter = tiktokenCounter();
  afterAll(() => counter.dispose());

  it("is 0 for no messages", () => {
    expect(counter.countMessages([])).toBe(0);
  });

  it("adds 3 per message, 1 per name, 3 to prime the reply", () => {
    const msgs: Message[] = [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "hello world", name: "alice" },
    ];
    const text = (s: string): number => counter.count(s);
    const expected =
      3 + (3 + text("system") + text(msgs[0]!.content)) + (3 + text("user") + text("hello world") + 1 + text("alice"));
    expect(counter.countMessages(msgs)).toBe(expected);
  });

  it("counts tool calls (name + arguments + 3 each) and the tool call id", () => {
    const call: Message = {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_1", name: "bash", arguments: '{"command":"ls -F"}' }],
    };
    const result: Message = { role: "tool", content: "README.md\nsrc/", toolCallId: "call_1" };
    const c = (s: string): number => counter.count(s);
    expect(counter.countMessages([call, result])).toBe(
      3 +
        (3 + c("assistant") + 3 + c("bash") + c('{"command":"ls -F"}')) +
        (3 + c("tool") + c("README.md\nsrc/") + c("call_1")),
    );
  });

  it("uses the same formula for every backend", () => {
    const est = estimateCounter();
    const msgs: Message[] = [{ role: "user", content: "中文 😀 <|endoftext|>" }];
    expect(est.countMessages(msgs)).toBe(countMessagesWith(est.count, msgs));
    expect(countMessagesWith((t) => t.length, [{ role: "user", content: "hi" }])).toBe(12);
  });
});
