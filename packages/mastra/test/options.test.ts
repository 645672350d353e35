// Options are decoded by a closed codec (typed errors); failures inside hooks and callbacks are
// caught and reported, never thrown into the agent run.
import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import {
  createCompactionProcessor,
  CompactionProcessorError,
  decodeCompactionProcessor,
  decodeCompactionProcessorOptions,
} from "@cc/mastra";
import { MessageList } from "@mastra/core/agent/message-list";
import type { ProcessLLMRequestArgs, ProcessToolResultArgs } from "@mastra/core/processors";
import type { LLMPrompt } from "@cc/test-support/mastra";

const problems = (input: unknown): string[] => {
  const r = decodeCompactionProcessorOptions(input);
  return E.isLeft(r) ? r.left.problems.map((p) => p.message) : [];
};

describe("options", () => {
  it("rejects unknown keys with a suggestion, bad numbers, bad callbacks and missing maxTokens", () => {
    expect(problems({ maxTokens: 100, toolResultMaxToken: 5 }).join()).toMatch(
      /toolResultMaxToken: unknown field \(did you mean toolResultMaxTokens\?\)/,
    );
    expect(problems({ maxTokens: Number.NaN }).join()).toMatch(/maxTokens/);
    expect(problems({ maxTokens: 100, threshold: Number.POSITIVE_INFINITY }).join()).toMatch(/threshold/);
    expect(problems({ maxTokens: 100, toolResultMaxTokens: -1 }).join()).toMatch(/toolResultMaxTokens/);
    expect(problems({ maxTokens: 100, maxExpandChars: 0 }).join()).toMatch(/maxExpandChars/);
    expect(problems({ maxTokens: 100, onCompaction: "log" }).join()).toMatch(/onCompaction/);
    expect(problems({ maxTokens: 100, id: "" }).join()).toMatch(/id/);
    expect(problems({}).join()).toMatch(/maxTokens/);
    expect(problems(null).join()).toMatch(/an options object/);
    const r = decodeCompactionProcessor({ maxTokens: 100, preserveLast: 1.5 });
    expect(E.isLeft(r) && r.left._tag === "InvalidOptions" && r.left.subject === "mastra compaction options").toBe(
      true,
    );
    expect(() => createCompactionProcessor({ maxTokens: 0 })).toThrow(CompactionProcessorError);
    expect(problems({ maxTokens: 100, toolResultMaxTokens: 0, namespace: "s1", strategy: "lcm" })).toEqual([]);
  });
});

describe("the context manager's options pass through", () => {
  it("a policy (and its events and resume) is accepted and reaches the manager; a bad policy field is named", async () => {
    const processor = createCompactionProcessor({ maxTokens: 8000, policy: { kind: "cost" } });
    expect(processor.settings.context.policy).toEqual({ kind: "cost" });
    // The manager runs its turns under the policy: it keeps a snapshot and every turn carries a decision.
    expect(processor.manager.snapshot()).toBeDefined();
    expect((await processor.manager.compact([{ role: "user", content: "hi" }])).decision).toMatchObject({
      _tag: "Waited",
      reason: "BelowTrigger",
    });
    expect(problems({ maxTokens: 8000, policy: { kind: "hermes" }, events: { publish: () => undefined } })).toEqual([]);
    expect(problems({ maxTokens: 8000, policy: { kind: "cost", targt: 0.4 } })).toEqual([
      "policy.targt: unknown field (did you mean target?)",
    ]);
    expect(problems({ maxTokens: 8000, policy: { kind: "cost", hardThreshold: Number.NaN } })).toEqual([
      expect.stringMatching(/^policy\.hardThreshold: .*got NaN$/),
    ]);
  });

  it("a combination the manager refuses (resume without a policy, a policy target above the threshold) is InvalidOptions, not a throw", () => {
    const snapshot = createCompactionProcessor({ maxTokens: 8000, policy: { kind: "hermes" } }).manager.snapshot();
    for (const options of [
      { maxTokens: 8000, resume: snapshot },
      { maxTokens: 8000, threshold: 0.5, policy: { kind: "hermes", target: 0.9 } },
    ]) {
      const r = decodeCompactionProcessor(options);
      expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "InvalidOptions", subject: "mastra compaction options" });
    }
  });
});

const hookArgs = {
  abort: (() => {
    throw new Error("abort");
  }) as never,
  retryCount: 0,
  stepNumber: 0,
  steps: [],
  state: {},
};

describe("failures are reported, never thrown", () => {
  it("a throwing onCompaction callback is caught and reported as CallbackFailed", async () => {
    const p = createCompactionProcessor({
      maxTokens: 60,
      preserveLast: 1,
      onCompaction: () => {
        throw new Error("sink down");
      },
    });
    const big = "lorem ipsum dolor sit amet ".repeat(40);
    const prompt: LLMPrompt = [
      { role: "system", content: "sys" },
      { role: "user", content: [{ type: "text", text: big }] },
      { role: "assistant", content: [{ type: "text", text: big }] },
      { role: "user", content: [{ type: "text", text: "now?" }] },
    ];
    const r = await p.processLLMRequest({ ...hookArgs, prompt, model: {} as never } as ProcessLLMRequestArgs);
    expect(r?.prompt).toBeDefined();
    expect(p.lastReport?.warnings).toContainEqual({ _tag: "CallbackFailed", message: "sink down" });
  });

  it("an index that refuses an oversized tool result leaves the result in place and reports ToolResultKept", async () => {
    const refusing = {
      backend: "broken",
      write: () => async () =>
        E.left({ _tag: "StorageError" as const, backend: "broken", operation: "write", message: "disk full" }),
      search: () => async () => E.right([]),
      expand: () => async () => E.right(undefined),
      deleteNamespace: () => async () => E.right(0),
      count: () => async () => E.right(0),
      close: () => async () => E.right(undefined),
    };
    const p = createCompactionProcessor({ maxTokens: 1000, toolResultMaxTokens: 5, index: refusing });
    const messageList = new MessageList();
    const r = await p.processToolResult({
      ...hookArgs,
      messages: [],
      messageList,
      systemMessages: [],
      toolName: "grep",
      toolCallId: "c1",
      args: {},
      result: "x ".repeat(100),
    } as ProcessToolResultArgs);
    expect(r).toBeUndefined();
    expect(p.lastReport?.warnings[0]).toMatchObject({
      _tag: "ToolResultKept",
      toolCallId: "c1",
      reason: expect.stringContaining("disk full") as unknown,
    });
  });

  it("a compaction that fails lets the prompt through unchanged and reports CompactionFailed", async () => {
    const throwing = {
      count: () => {
        throw new Error("counter broke");
      },
      countMessages: () => {
        throw new Error("counter broke");
      },
    };
    const p = createCompactionProcessor({ maxTokens: 100, counter: throwing as never });
    const prompt: LLMPrompt = [{ role: "user", content: [{ type: "text", text: "hi" }] }];
    expect(
      await p.processLLMRequest({ ...hookArgs, prompt, model: {} as never } as ProcessLLMRequestArgs),
    ).toBeUndefined();
    expect(p.lastReport?.warnings[0]).toMatchObject({
      _tag: "CompactionFailed",
      error: { _tag: "DependencyFailed", problems: ["a dependency threw: counter broke"] },
    });
  });
});
