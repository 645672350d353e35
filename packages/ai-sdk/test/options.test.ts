// Bad options are typed failures naming the field; tool arguments and index failures are tool
// results; a throwing callback never breaks a step.
import {
  AiSdkError,
  createAiSdkContext,
  decodeAiSdkContext,
  decodeAiSdkContextOptions,
  fromModelMessages,
  restoreMessages,
} from "@cc/ai-sdk";
import { createContextManager } from "@cc/context";
import type { ModelMessage } from "ai";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { fileText } from "./script.js";

const problems = (input: unknown): string => {
  const r = decodeAiSdkContextOptions(input);
  if (E.isRight(r)) throw new Error("expected a failure");
  expect(r.left._tag).toBe("InvalidOptions");
  expect(r.left.subject).toBe("AI SDK adapter options");
  return r.left.message;
};

const call = { toolCallId: "t", messages: [] as ModelMessage[], context: undefined } as never;

describe("options", () => {
  it("refuses unknown keys, NaN, infinities, out-of-range numbers and wrong types, naming the field", () => {
    expect(problems({ maxTokens: 100, cacheSzie: 3 })).toMatch(/cacheSzie.*did you mean cacheSize/);
    expect(problems({ maxTokens: Number.NaN })).toMatch(/maxTokens/);
    expect(problems({ maxTokens: Number.POSITIVE_INFINITY })).toMatch(/maxTokens/);
    expect(problems({ maxTokens: 0 })).toMatch(/maxTokens/);
    expect(problems({ maxTokens: 1.5 })).toMatch(/maxTokens/);
    expect(problems({ maxTokens: 100, cacheSize: 0 })).toMatch(/cacheSize/);
    expect(problems({ maxTokens: 100, maxExpandChars: -1 })).toMatch(/maxExpandChars/);
    expect(problems({ maxTokens: 100, onEvent: "log" })).toMatch(/onEvent/);
    expect(problems({ manager: { compact: 1 } })).toMatch(/manager/);
    expect(problems(null)).toMatch(/an options object/);
  });

  it("needs exactly one of maxTokens and manager", () => {
    expect(problems({})).toMatch(/exactly one of maxTokens and manager, got neither/);
    expect(problems({ maxTokens: 10, manager: createContextManager({ maxTokens: 10 }) })).toMatch(/got both/);
  });

  it("createAiSdkContext throws an AiSdkError carrying the typed failure; decodeAiSdkContext returns it", () => {
    expect(() => createAiSdkContext({ maxTokens: -5 })).toThrow(AiSdkError);
    try {
      createAiSdkContext({ maxTokens: -5 });
    } catch (e) {
      expect(e).toBeInstanceOf(AiSdkError);
      expect((e as AiSdkError).error._tag).toBe("InvalidOptions");
    }
    expect(E.isLeft(decodeAiSdkContext({ maxTokens: 10, extra: true }))).toBe(true);
    expect(E.isRight(decodeAiSdkContext({ maxTokens: 10 }))).toBe(true);
  });
});

describe("tools", () => {
  it("bad arguments and unknown ids are results the model reads, never throws", async () => {
    const cc = createAiSdkContext({ maxTokens: 500, maxExpandChars: 50 });
    const search = cc.tools.search_context.execute!;
    const expand = cc.tools.expand_context.execute!;
    expect(await search({ query: 42 } as never, call)).toMatchObject({ error: { _tag: "InvalidArguments" } });
    expect(await search({ query: "x", k: 0 } as never, call)).toMatchObject({ error: { _tag: "InvalidArguments" } });
    expect(await expand({ id: "nope" }, call)).toMatchObject({ error: { _tag: "NotFound" } });
    expect(await expand({ id: "x", maxChars: 51 }, call)).toMatchObject({ error: { _tag: "InvalidArguments" } });
    expect(await expand({ id: "x", bogus: 1 } as never, call)).toMatchObject({
      error: { _tag: "InvalidArguments", message: expect.stringMatching(/bogus/) },
    });
  });

  it("expand pages a long original without losing a character", async () => {
    const cc = createAiSdkContext({ maxTokens: 400, maxExpandChars: 300 });
    const big = fileText("pg", 200);
    const history: ModelMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "cat", input: {} }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "c1", toolName: "cat", output: { type: "text", value: big } }],
      },
      { role: "user", content: "next" },
      { role: "assistant", content: "ok" },
    ];
    const r = await cc.compact(history);
    expect(r.turn?.evicted.length).toBeGreaterThan(0);
    const entry = r.turn!.evicted.find((e) => e.kind === "tool:cat")!;
    let text = "";
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const page = (await cc.tools.expand_context.execute!({ id: entry.id, offset }, call)) as {
        content: string;
        nextOffset?: number;
      };
      text += page.content;
      offset = page.nextOffset;
    }
    expect(text).toBe(await cc.manager.expand(entry.id));
    expect(text).toContain(big);
  });
});

describe("callbacks and failures", () => {
  it("a throwing onEvent is caught and recorded; the step still gets its compacted messages", async () => {
    const cc = createAiSdkContext({
      maxTokens: 300,
      onEvent: () => {
        throw new Error("sink down");
      },
    });
    const history: ModelMessage[] = [
      { role: "user", content: fileText("a", 200) },
      { role: "assistant", content: "ok" },
      { role: "user", content: "more" },
    ];
    const r = await cc.prepareStep({ messages: history, stepNumber: 1 });
    expect(r?.messages.length).toBeGreaterThan(0);
    expect(cc.callbackFailures[0]).toMatch(/onEvent threw on Compacted: sink down/);
  });

  it("a failing manager leaves the step unchanged and reports CompactionFailed", async () => {
    const events: string[] = [];
    const manager = createContextManager({ maxTokens: 300 });
    const broken = {
      ...manager,
      compactTE: () => async () =>
        E.left({ _tag: "InvalidInput" as const, subject: "turn", problems: [], more: 0, message: "boom" }),
    };
    const cc = createAiSdkContext({ manager: broken, onEvent: (e) => events.push(e._tag) });
    const r = await cc.prepareStep({ messages: [{ role: "user", content: fileText("a", 200) }], stepNumber: 0 });
    expect(r).toBeUndefined();
    expect(events).toEqual(["CompactionFailed"]);
    await expect(cc.compact([{ role: "user", content: "x" }])).rejects.toBeInstanceOf(AiSdkError);
  });
});

describe("conversion", () => {
  it("reads every part kind of both majors; a tool message answering several calls gives one view per call", () => {
    const messages: ModelMessage[] = [
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", image: new URL("https://example.com/a.png") },
          { type: "file", data: new Uint8Array([1]), mediaType: "application/pdf", filename: "a.pdf" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "think" },
          { type: "text", text: "calling" },
          { type: "tool-call", toolCallId: "c1", toolName: "a", input: { x: 1 } },
          { type: "tool-call", toolCallId: "c2", toolName: "b", input: "raw" },
          { type: "tool-approval-request", approvalId: "p2", toolCallId: "c2" },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-approval-response", approvalId: "p2", approved: false, reason: "no" },
          { type: "tool-result", toolCallId: "c1", toolName: "a", output: { type: "json", value: { ok: true } } },
          { type: "tool-result", toolCallId: "c2", toolName: "b", output: { type: "execution-denied", reason: "no" } },
          { type: "tool-result", toolCallId: "zz", toolName: "c", output: { type: "error-text", value: "orphan" } },
        ],
      },
    ];
    expect(fromModelMessages(messages)).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "look\n[image]\n[file a.pdf]" },
      {
        role: "assistant",
        content: "think\ncalling",
        toolCalls: [
          { id: "c1", name: "a", arguments: '{"x":1}' },
          { id: "c2", name: "b", arguments: "raw" },
        ],
      },
      { role: "tool", content: "denied: no\norphan", toolCallId: "c2" },
      { role: "tool", content: '{"ok":true}', toolCallId: "c1", name: "a" },
      { role: "tool", content: "execution denied: no", toolCallId: "c2", name: "b" },
    ]);
  });

  it("restoreMessages returns kept sources once, by identity, and builds only what the engine added", () => {
    const a = { role: "user", content: "a" };
    const b = { role: "user", content: "b" };
    const out = restoreMessages(
      [a, b],
      [
        { role: "user", content: "note" },
        { role: "tool", content: "x", toolCallId: "c", id: "ai-sdk:1" },
        { role: "tool", content: "y", toolCallId: "d", id: "ai-sdk:1.1" },
      ],
      (v) => ({ role: "user", content: v.content }),
    );
    expect(out).toEqual([{ role: "user", content: "note" }, b]);
    expect(out[1]).toBe(b);
  });
});
