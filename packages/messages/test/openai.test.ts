import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { decodeMessages, fromOpenAIMessages, messageUnits, toOpenAIMessages, type OpenAIMessage } from "@cc/messages";
import { UNANSWERED_RESULT } from "@cc/test-support/messages";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = runsFor(200, 1000);
const fnCall = (id: string, name = "read") => ({ id, type: "function" as const, function: { name, arguments: "{}" } });

describe("fromOpenAIMessages", () => {
  it("keeps the developer role, names, null and multi-part content (images included) and provider fields", () => {
    const input = [
      {
        role: "developer",
        content: [
          { type: "text", text: "be brief" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA", detail: "low" } },
        ],
        name: "ops",
      },
      { role: "user", content: "hi", name: "ann" },
      { role: "assistant", content: null, tool_calls: [fnCall("c1")], refusal: null, reasoning_content: "think" },
      { role: "tool", tool_call_id: "c1", content: "data" },
    ];
    const r = fromOpenAIMessages(input);
    expect(E.isRight(r)).toBe(true);
    if (E.isLeft(r)) return;
    expect(r.right.warnings).toEqual([]);
    expect(r.right.messages[0]).toMatchObject({ role: "system", developer: true, content: "be brief", name: "ops" });
    expect(r.right.messages[2]).toMatchObject({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "read", arguments: "{}" }],
      extra: { reasoning_content: "think", refusal: null },
    });
    expect(toOpenAIMessages(r.right.messages)).toEqual(input);
  });

  it("keeps every field of a tool call and of its function (DeepSeek's index, provider fields), also through an id rename", () => {
    const input = [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { index: 0, id: "c1", type: "function", function: { name: "read", arguments: "{}", strict: true } },
          {
            index: 1,
            id: "c2",
            type: "function",
            function: { name: "ls", arguments: "{}" },
            cache: { hit: [1, null] },
          },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "a" },
      { role: "tool", tool_call_id: "c2", content: "b" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "read", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "c" },
    ];
    const r = fromOpenAIMessages(input);
    if (E.isLeft(r)) return expect.fail(r.left.message);
    expect(r.right.messages[1]).toMatchObject({
      toolCalls: [
        { id: "c1", extra: { index: 0 }, functionExtra: { strict: true } },
        { id: "c2", extra: { index: 1, cache: { hit: [1, null] } } },
      ],
    });
    expect(r.right.warnings.map((w) => w._tag)).toEqual(["DuplicateCallId"]);
    const back = toOpenAIMessages(r.right.messages);
    expect(back.slice(0, 4)).toEqual(input.slice(0, 4));
    expect(back[4]).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [{ index: 0, id: "c1#2", type: "function", function: { name: "read", arguments: "{}" } }],
    });
    expect(decodeMessages(r.right.messages)).toEqual(E.right(r.right.messages));
  });

  it("reports a call field or function field that is not JSON, naming the call", () => {
    const r = fromOpenAIMessages([
      {
        role: "assistant",
        content: "",
        tool_calls: [{ index: Number.NaN, id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "c2", type: "function", function: { name: "f", arguments: "{}", hook: () => 1 } }],
      },
    ]);
    if (E.isRight(r)) return expect.fail("expected the calls to be refused");
    expect(r.left.problems.map((p) => p.message)).toEqual([
      "[0].tool_calls[0].index: expected JSON data",
      "[1].tool_calls[0].function.hook: expected JSON data",
    ]);
  });

  it("property: a call's extra fields, at call and function level, round-trip unchanged", () => {
    const key = fc
      .string({ minLength: 1, maxLength: 8 })
      .filter((k) => !["id", "type", "function", "name", "arguments", "__proto__"].includes(k));
    const fields = fc.dictionary(
      key,
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown),
      { maxKeys: 3 },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fields, fields), { minLength: 1, maxLength: 3 }), (calls) => {
        const ids = calls.map((_, i) => `call_${i}`);
        const input = [
          {
            role: "assistant",
            content: "",
            tool_calls: calls.map(([outer, inner], i) => ({
              ...outer,
              id: ids[i],
              type: "function",
              function: { ...inner, name: "f", arguments: "{}" },
            })),
          },
          ...ids.map((id) => ({ role: "tool", tool_call_id: id, content: id })),
        ];
        const r = fromOpenAIMessages(input);
        if (E.isLeft(r)) return expect.fail(r.left.message);
        expect(toOpenAIMessages(r.right.messages)).toEqual(input);
      }),
      { numRuns: runs },
    );
  });

  it("names the index and field of every problem, a non-string text part included", () => {
    const r = fromOpenAIMessages([
      { role: "user", content: "ok" },
      { role: "robot", content: 1 },
      { role: "tool", content: "x" },
      { role: "assistant", tool_calls: [{ id: 7, function: { name: "f", arguments: "{}" } }] },
      { role: "user", content: [{ type: "text", text: 42 }] },
    ]);
    expect(E.isLeft(r)).toBe(true);
    if (E.isRight(r)) return;
    expect(r.left).toMatchObject({ _tag: "InvalidInput", subject: "OpenAI messages" });
    const text = r.left.message;
    expect(text).toMatch(/\[1\]\.role/);
    expect(text).toMatch(/\[1\]\.content/);
    expect(text).toMatch(/\[2\]\.tool_call_id: required/);
    expect(text).toMatch(/\[3\]\.tool_calls\[0\]/);
    expect(text).toMatch(/\[4\]\.content\[0\]\.text: expected a string, got 42/);
    expect(E.isLeft(fromOpenAIMessages("nope"))).toBe(true);
    const sparse: unknown[] = [];
    sparse[1] = { role: "user", content: "x" };
    expect(E.isLeft(fromOpenAIMessages(sparse))).toBe(true);
  });

  it("repairs an orphaned tool result into a user message, with a warning", () => {
    const r = fromOpenAIMessages([
      { role: "user", content: "go" },
      { role: "tool", tool_call_id: "ghost", content: "out" },
    ]);
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.warnings.map((w) => w._tag)).toEqual(["OrphanedToolResult"]);
    expect(r.right.messages[1]).toMatchObject({ role: "user" });
    expect(r.right.messages[1]!.content).toContain("out");
  });

  it("renames a reused call id in the later call and its results", () => {
    const r = fromOpenAIMessages([
      { role: "assistant", content: null, tool_calls: [fnCall("c1")] },
      { role: "tool", tool_call_id: "c1", content: "first" },
      { role: "assistant", content: null, tool_calls: [fnCall("c1")] },
      { role: "tool", tool_call_id: "c1", content: "second" },
    ]);
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.warnings.map((w) => w._tag)).toEqual(["DuplicateCallId"]);
    const ids = r.right.messages.map((m) =>
      m.role === "tool" ? m.toolCallId : m.role === "assistant" ? m.toolCalls?.[0]?.id : undefined,
    );
    expect(ids).toEqual(["c1", "c1", "c1#2", "c1#2"]);
  });

  it("answers a call the conversation moved past with a placeholder; calls at the end stay pending", () => {
    const r = fromOpenAIMessages([
      { role: "assistant", content: null, tool_calls: [fnCall("c1"), fnCall("c2")] },
      { role: "tool", tool_call_id: "c1", content: "one" },
      { role: "user", content: "go on" },
      { role: "assistant", content: null, tool_calls: [fnCall("c3")] },
    ]);
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.warnings.map((w) => [w._tag, w.callId])).toEqual([["UnansweredCall", "c2"]]);
    expect(r.right.messages[2]).toEqual({ role: "tool", toolCallId: "c2", content: UNANSWERED_RESULT });
    expect(r.right.messages).toHaveLength(5);
  });

  it("property: any conversation converts to messages whose units pair every result with its call, and a clean one round-trips byte for byte", () => {
    const part = fc.oneof(
      fc.record({ type: fc.constant("text"), text: fc.string({ unit: "grapheme" }) }),
      fc.record({ type: fc.constant("image_url"), image_url: fc.record({ url: fc.webUrl() }) }),
    );
    const content = fc.oneof(fc.string({ unit: "binary" }), fc.array(part, { minLength: 1, maxLength: 3 }));
    // A clean conversation: steps of user text, or an assistant issuing 1–3 calls answered in any order.
    const step = fc.oneof(
      fc.record({
        kind: fc.constant("user" as const),
        content,
        name: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
      }),
      fc.record({
        kind: fc.constant("calls" as const),
        n: fc.integer({ min: 1, max: 3 }),
        order: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
      }),
      fc.record({ kind: fc.constant("system" as const), content, developer: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const input: OpenAIMessage[] = [];
        let next = 0;
        for (const s of steps) {
          if (s.kind === "user")
            input.push({ role: "user", content: s.content, ...(s.name === undefined ? {} : { name: s.name }) });
          else if (s.kind === "system") input.push({ role: s.developer ? "developer" : "system", content: s.content });
          else {
            const ids = Array.from({ length: s.n }, () => `call_${next++}`);
            input.push({ role: "assistant", content: null, tool_calls: ids.map((id) => fnCall(id)) });
            const order = [...ids].sort((a, b) => (s.order[ids.indexOf(a)]! % 7) - (s.order[ids.indexOf(b)]! % 7));
            for (const id of order) input.push({ role: "tool", tool_call_id: id, content: `result ${id}` });
          }
        }
        const r = fromOpenAIMessages(input);
        if (E.isLeft(r)) return false;
        expect(r.right.warnings).toEqual([]);
        expect(toOpenAIMessages(r.right.messages)).toEqual(input);
        for (const unit of messageUnits(r.right.messages)) {
          const issued = new Set(
            unit.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [])),
          );
          for (const m of unit.messages) if (m.role === "tool") expect(issued.has(m.toolCallId)).toBe(true);
        }
        return true;
      }),
      { numRuns: runs },
    );
  });
});
