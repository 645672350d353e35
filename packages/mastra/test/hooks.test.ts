// The hooks driven directly: processInputStep with Mastra's real MessageList, for the path an Agent
// takes when the prompt stage does not run (the note becomes a tagged system message), and
// processLLMRequest on a provider prompt.
import { describe, expect, it } from "vitest";
import { MessageList, type MastraDBMessage } from "@mastra/core/agent/message-list";
import type { ProcessInputStepArgs } from "@mastra/core/processors";
import { createCompactionProcessor, NOTE_TAG } from "@cc/mastra";
import { fromLLMPrompt, type LLMPrompt } from "@cc/test-support/mastra";

const at = (n: number): Date => new Date(1_700_000_000_000 + n * 1000);
const text = (id: string, role: "user" | "assistant", body: string, n: number): MastraDBMessage => ({
  id,
  role,
  createdAt: at(n),
  threadId: "t",
  resourceId: "u",
  content: { format: 2, parts: [{ type: "text", text: body }] },
});
const toolTurn = (id: string, call: string, result: string, n: number): MastraDBMessage => ({
  id,
  role: "assistant",
  createdAt: at(n),
  threadId: "t",
  resourceId: "u",
  content: {
    format: 2,
    parts: [
      { type: "step-start" },
      {
        type: "tool-invocation",
        toolInvocation: {
          state: "result",
          toolCallId: call,
          toolName: "grep",
          args: { q: call },
          result: { lines: result },
        },
      },
      { type: "text", text: "done" },
    ],
  },
});

describe("processInputStep with a real MessageList", () => {
  it("removes evicted stored messages only, keeps the current run's, and puts the note in a tagged system message", async () => {
    const stored: MastraDBMessage[] = [];
    for (let i = 0; i < 8; i++) {
      stored.push(text(`q${i}`, "user", `question ${i} about src/module${i}.ts`, i * 3));
      stored.push(toolTurn(`a${i}`, `c${i}`, `match ${i} `.repeat(60), i * 3 + 1));
    }
    const list = new MessageList({ threadId: "t", resourceId: "u" });
    list.addSystem("You are terse.");
    list.add(stored, "memory");
    const current = text("now", "user", "and what about module 3? ".repeat(15), 100);
    list.add(current, "input");
    // The run's first step, not saved yet: removing it would lose it from memory.
    list.add(toolTurn("step1", "cnow", "fresh ".repeat(150), 101), "response");
    const p = createCompactionProcessor({ maxTokens: 450, preserveLast: 0 });
    const messages = list.get.all.db();
    const r = await p.processInputStep({
      messages,
      messageList: list,
      systemMessages: list.getSystemMessages(),
      stepNumber: 0,
      steps: [],
      state: {},
      retryCount: 0,
      abort: (() => {
        throw new Error("abort");
      }) as never,
      model: {} as never,
    } as ProcessInputStepArgs);
    const kept = (r as { messages: MastraDBMessage[] }).messages;
    expect(kept.length).toBeLessThan(messages.length);
    // Kept messages are the message list's own objects, in order; the current run's input is there.
    for (const m of kept) expect(messages).toContain(m);
    expect(kept.slice(-2).map((m) => m.id)).toEqual(["now", "step1"]);
    // Every kept assistant message still carries its tool call with its result (one unit).
    for (const m of kept.filter((x) => x.role === "assistant"))
      expect(m.content.parts.some((x) => x.type === "tool-invocation" && x.toolInvocation.state === "result")).toBe(
        true,
      );
    const note = list.getSystemMessages(NOTE_TAG);
    expect(note).toHaveLength(1);
    expect(String(note[0]!.content)).toMatch(/Evicted to the journal/);
    expect(p.lastReport?.turn?.budgetMet).toBe(true);
  });
});

describe("processLLMRequest", () => {
  it("shrinks the preserved tail to the last step when the tail alone would keep the prompt over the budget", async () => {
    const p = createCompactionProcessor({ maxTokens: 700 }); // preserveLast 6 by default
    const prompt: LLMPrompt = [{ role: "system", content: "You are terse." }];
    for (let i = 0; i < 6; i++) {
      prompt.push({ role: "user", content: [{ type: "text", text: `read part ${i}` }] });
      prompt.push({
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "read", input: { part: i } }],
      });
      prompt.push({
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: `c${i}`,
            toolName: "read",
            output: { type: "text", value: `part ${i} `.repeat(120) },
          },
        ],
      });
    }
    const r = await p.processLLMRequest({
      prompt,
      model: {} as never,
      stepNumber: 3,
      steps: [],
      state: {},
      retryCount: 0,
      abort: (() => {
        throw new Error("abort");
      }) as never,
    });
    const out = r?.prompt ?? prompt;
    const messages = fromLLMPrompt(out).messages;
    expect(p.manager.count(messages)).toBeLessThanOrEqual(700);
    // The last step — the call the model waits on and its result — is there, as the same objects.
    expect(out.slice(-2)).toEqual([prompt[prompt.length - 2], prompt[prompt.length - 1]]);
    expect(out.at(-1)).toBe(prompt.at(-1));
  });

  /** Six read steps with results of `repeat` words each, after a system prompt. */
  const steps = (repeat: number): LLMPrompt => {
    const prompt: LLMPrompt = [{ role: "system", content: "You are terse." }];
    for (let i = 0; i < 6; i++) {
      prompt.push({ role: "user", content: [{ type: "text", text: `read part ${i}` }] });
      prompt.push({
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "read", input: { part: i } }],
      });
      prompt.push({
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: `c${i}`,
            toolName: "read",
            output: { type: "text", value: `part ${i} `.repeat(repeat) },
          },
        ],
      });
    }
    return prompt;
  };
  const hook = {
    model: {} as never,
    stepNumber: 3,
    steps: [],
    state: {},
    retryCount: 0,
    abort: (() => {
      throw new Error("abort");
    }) as never,
  };

  it.each([{ kind: "hermes" as const }, { kind: "cost" as const }])(
    "under a policy ($kind) the prompt stage brings a prompt whose default tail is over the budget within it, on the one manager",
    async (policy) => {
      const p = createCompactionProcessor({ maxTokens: 700, policy });
      // Results so large that the last two steps (the default tail of 6) alone are over the budget.
      const prompt = steps(150);
      const r = await p.processLLMRequest({ ...hook, prompt });
      const out = r?.prompt ?? prompt;
      expect(p.manager.count(fromLLMPrompt(out).messages)).toBeLessThanOrEqual(700);
      expect(out.slice(-2)).toEqual(prompt.slice(-2));
      expect(out.at(-1)).toBe(prompt.at(-1));
      expect(p.lastReport?.turn?.decision).toMatchObject({ _tag: "Compacted" });
      // The policy's state is the one manager's: the request's turns were decided there.
      expect(p.manager.snapshot()?.state.lastCompactionTurn).toBeGreaterThanOrEqual(1);
    },
  );

  it.each([{}, { policy: { kind: "hermes" as const } }])(
    "when even the last step is over the budget the first turn's compaction still goes out (%o)",
    async (options) => {
      const p = createCompactionProcessor({ maxTokens: 700, ...options });
      const prompt = steps(200);
      const r = await p.processLLMRequest({ ...hook, prompt });
      const out = r?.prompt ?? prompt;
      expect(out.length).toBeLessThan(prompt.length);
      expect(p.manager.count(fromLLMPrompt(out).messages)).toBeLessThan(
        p.manager.count(fromLLMPrompt(prompt).messages) / 2,
      );
      expect(out.at(-1)).toBe(prompt.at(-1));
    },
  );
});
