import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { MessageCodec } from "@cc/messages";
import { decodeMessage, encodeMessage, isMessageShape } from "../../src/store/validate.js";
import { oddStrings, runs } from "../support.js";

/** Message-like values: mostly near-valid shapes with one field off, plus arbitrary JSON. */
const field = fc.oneof(
  fc.string(),
  fc.constantFrom(...oddStrings),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue(),
);
const toolCall = fc.record(
  {
    id: fc.oneof(fc.string(), field),
    name: fc.oneof(fc.string(), field),
    arguments: fc.oneof(fc.string(), field),
    extra: field,
    functionExtra: field,
    index: field,
  },
  { requiredKeys: [] },
);
const messageLike = fc.record(
  {
    role: fc.oneof(fc.constantFrom("system", "user", "assistant", "tool", "developer", "", "USER"), field),
    content: fc.oneof(fc.string(), fc.constantFrom(...oddStrings), field),
    id: fc.oneof(fc.string(), field),
    timestamp: fc.oneof(fc.double(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -1, 0), field),
    toolCalls: fc.oneof(fc.array(fc.oneof(toolCall, field), { maxLength: 4 }), field),
    toolCallId: fc.oneof(fc.string(), field),
    name: fc.oneof(fc.string(), field),
    extra: field,
  },
  { requiredKeys: [] },
);
/** Messages the codec accepts, the fields the model gained included. */
const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const text = fc.oneof(fc.string(), fc.constantFrom(...oddStrings));
const meta = {
  id: text,
  timestamp: fc.double({ noNaN: true, noDefaultInfinity: true }),
  name: text,
  parts: fc.array(fc.record({ type: text, text }), { maxLength: 2 }),
  extra: fc.dictionary(fc.string(), json, { maxKeys: 3 }),
};
const validMessage = fc.oneof(
  fc.record(
    { role: fc.constant("system"), content: text, developer: fc.constant(true), ...meta },
    { requiredKeys: ["role", "content"] },
  ),
  fc.record({ role: fc.constant("user"), content: text, ...meta }, { requiredKeys: ["role", "content"] }),
  fc.record(
    {
      role: fc.constant("assistant"),
      content: text,
      toolCalls: fc.array(
        fc.record(
          { id: text, name: text, arguments: text, extra: meta.extra, functionExtra: meta.extra },
          { requiredKeys: ["id", "name", "arguments"] },
        ),
        { maxLength: 3 },
      ),
      ...meta,
    },
    { requiredKeys: ["role", "content"] },
  ),
  fc.record(
    { role: fc.constant("tool"), content: text, toolCallId: text, ...meta },
    { requiredKeys: ["role", "content", "toolCallId"] },
  ),
);
const anyValue = fc.oneof(
  messageLike,
  validMessage,
  fc.jsonValue(),
  fc.array(messageLike, { maxLength: 2 }),
  fc.constant(undefined),
);

describe("stored-message shape check", () => {
  it("accepts exactly what the message codec accepts (on near-valid messages and arbitrary JSON)", () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(isMessageShape(value)).toBe(E.isRight(MessageCodec.decode(value)));
      }),
      { numRuns: runs(3000) },
    );
  });

  it("decodeMessage round-trips every valid message, odd Unicode included, to an equal value", () => {
    fc.assert(
      fc.property(validMessage, (m) => {
        expect(E.isRight(MessageCodec.decode(m))).toBe(true);
        const decoded = decodeMessage(encodeMessage(m as Parameters<typeof encodeMessage>[0]));
        expect(decoded).toEqual(E.right(JSON.parse(JSON.stringify(m)) as unknown));
      }),
      { numRuns: runs(500) },
    );
  });

  it("refuses malformed rows with a reason that names the fault", () => {
    const reason = (text: string): string => {
      const decoded = decodeMessage(text);
      if (E.isRight(decoded)) throw new Error(`accepted ${text}`);
      return decoded.left;
    };
    expect(reason("{not json")).toMatch(/not valid JSON/);
    expect(reason("")).toMatch(/not valid JSON/);
    expect(reason("null")).toMatch(/message/);
    expect(reason("[1,2]")).toMatch(/message/);
    expect(reason('{"role":"user"}')).toMatch(/content/);
    expect(reason('{"role":"robot","content":"x"}')).toBe(
      'message.role must be one of system, user, assistant, tool, got "robot"',
    );
    expect(reason('{"content":"x"}')).toMatch(/message.role .* got nothing/);
    expect(reason('{"role":"user","content":"x","timestamp":1e999}')).toMatch(/timestamp/);
    expect(reason('{"role":"user","content":"x","id":7}')).toMatch(/id/);
    expect(reason('{"role":"tool","content":"x"}')).toMatch(/toolCallId/);
    expect(reason('{"role":"tool","content":"x","toolCallId":"c","name":null}')).toMatch(/name/);
    expect(reason('{"role":"assistant","content":"","toolCalls":{}}')).toMatch(/toolCalls/);
    expect(reason('{"role":"assistant","content":"","toolCalls":[{"id":"c","name":"bash"}]}')).toMatch(
      /toolCalls\[0\]/,
    );
  });

  it("reads a row written before the model was closed: keys the model does not know move under extra, nothing is lost", () => {
    expect(isMessageShape({ role: "user", content: "hi", lang: "en" })).toBe(false);
    expect(decodeMessage('{"role":"user","content":"hi","lang":"中文 🙂"}')).toEqual(
      E.right({ role: "user", content: "hi", extra: { lang: "中文 🙂" } }),
    );
    expect(decodeMessage('{"role":"assistant","content":"","refusal":null,"extra":{"a":1}}')).toEqual(
      E.right({ role: "assistant", content: "", extra: { a: 1, refusal: null } }),
    );
    // A row that stays invalid after the move is still refused, naming the field at fault.
    const bad = decodeMessage('{"role":"tool","content":"x","lang":"en"}');
    expect(E.isLeft(bad) && bad.left).toMatch(/toolCallId/);
  });

  it("accepts the fields the model gained (name, parts, extra, developer) and refuses them malformed", () => {
    const ok = (m: unknown): boolean => E.isRight(decodeMessage(JSON.stringify(m)));
    expect(ok({ role: "system", content: "s", developer: true })).toBe(true);
    expect(ok({ role: "system", content: "s", developer: false })).toBe(false);
    expect(ok({ role: "user", content: "s", developer: true })).toBe(false);
    expect(
      ok({
        role: "user",
        content: "hi",
        name: "ann",
        parts: [
          { type: "text", text: "hi" },
          { type: "image_url", image_url: { url: "u" } },
        ],
      }),
    ).toBe(true);
    expect(ok({ role: "user", content: "hi", parts: [{ text: "hi" }] })).toBe(false);
    expect(ok({ role: "assistant", content: "", extra: { reasoning_content: "…", n: [1, { a: null }] } })).toBe(true);
    expect(ok({ role: "tool", content: "r", toolCallId: "c", name: "bash" })).toBe(true);
    expect(decodeMessage('{"role":"user","content":"x","parts":{}}')).toMatchObject(
      E.left(expect.stringMatching(/parts/)),
    );
    expect(decodeMessage('{"role":"user","content":"x","extra":[]}')).toMatchObject(
      E.left(expect.stringMatching(/extra/)),
    );
  });
});
