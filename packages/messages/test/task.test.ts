import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SUMMARY_PREFIX, summaryMessage, type Message } from "@cc/messages";
import { planTaskPin, TASK_PIN_MAX_SHARE, taskIndex } from "@cc/test-support/messages";
import { runsFor } from "../../../.ci/support/runs.js";

const numRuns = runsFor(200, 1000);
const sys = (content: string): Message => ({ role: "system", content });
const user = (content: string): Message => ({ role: "user", content });
const assistant = (content: string): Message => ({ role: "assistant", content });

describe("taskIndex: the user message the agent first answered", () => {
  it("a chat's first request, a SWE-agent run's issue (after its demonstration)", () => {
    expect(taskIndex([sys("be brief"), user("fix the reader"), assistant("ok")])).toBe(1);
    expect(taskIndex([sys("agent"), user("demonstration …"), user("ISSUE: the reader fails"), assistant("ls")])).toBe(
      2,
    );
    expect(taskIndex([user("only a request")])).toBe(0);
  });

  it("the shapes a pinning compaction leaves keep the same task", () => {
    // lcm: system, task, summary, tail (the tail may start with a user observation)
    expect(
      taskIndex([sys("s"), user("the task"), summaryMessage("older work"), user("observation"), assistant("next")]),
    ).toBe(1);
    // an eviction pass: system, task, note, the rest
    expect(
      taskIndex([sys("s"), user("demo"), user("the task"), summaryMessage("Evicted …"), user("observation")]),
    ).toBe(2);
  });

  it("none when the conversation opens with another role or with a summary (its task was compacted before)", () => {
    expect(taskIndex([sys("s"), assistant("hello")])).toBeUndefined();
    expect(taskIndex([sys("s"), summaryMessage("earlier"), user("observation")])).toBeUndefined();
    expect(taskIndex([sys("s")])).toBeUndefined();
    expect(taskIndex([])).toBeUndefined();
  });

  it("property: the task is a user message that is no summary, preceded only by system messages and opening user messages, and followed by none of them", () => {
    const message = fc.oneof(
      fc.string().map(sys),
      fc.string().map(user),
      fc.string().map((s) => user(`${SUMMARY_PREFIX}${s}`)),
      fc.string().map(assistant),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
        const i = taskIndex(messages);
        const isOpening = (m: Message): boolean =>
          m.role === "user" && !(typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX));
        const sysEnd = messages.findIndex((m) => m.role !== "system");
        const start = sysEnd === -1 ? messages.length : sysEnd;
        if (i === undefined) {
          expect(start === messages.length || !isOpening(messages[start]!)).toBe(true);
          return;
        }
        expect(isOpening(messages[i]!)).toBe(true);
        expect(messages.slice(start, i).every(isOpening)).toBe(true);
        const next = messages[i + 1];
        expect(next === undefined || !isOpening(next)).toBe(true);
      }),
      { numRuns },
    );
  });
});

describe("planTaskPin", () => {
  const history = [sys("s"), user("the task"), assistant("a"), user("b"), assistant("c")];
  it("pins a task that takes at most half the target", () => {
    expect(planTaskPin(history, { enabled: true, targetTokens: 100 }, () => 50)).toEqual({
      _tag: "Pinned",
      index: 1,
      tokens: 50,
    });
    expect(planTaskPin(history, { enabled: true, targetTokens: 100 }, () => 51)).toEqual({
      _tag: "TooLarge",
      index: 1,
      tokens: 51,
      limit: 50,
    });
    expect(TASK_PIN_MAX_SHARE).toBe(0.5);
  });
  it("does nothing when off or without a task", () => {
    expect(planTaskPin(history, { enabled: false, targetTokens: 100 }, () => 1)).toEqual({ _tag: "NotPinned" });
    expect(planTaskPin([sys("s"), assistant("a")], { enabled: true, targetTokens: 100 }, () => 1)).toEqual({
      _tag: "NotPinned",
    });
  });
});
