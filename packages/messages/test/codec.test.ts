import { describe, expect, it } from "vitest";
import { decodeMessages } from "@cc/messages";

describe("decodeMessages", () => {
  it("accepts well-formed messages, odd Unicode included", () => {
    const decoded = decodeMessages([
      { role: "user", content: "中文 😀 \ud800" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: "{}" }] },
      { role: "tool", content: "ok", toolCallId: "c1" },
    ]);
    expect(decoded._tag).toBe("Right");
  });

  it.each([
    [[{ role: "user", content: 42 }], "[0].content"],
    [[{ role: "user", content: "ok" }, { content: "no role" }], "[1].role"],
    [[{ role: "assistant", content: "", toolCalls: [{ id: "c", name: "bash" }] }], "[0].toolCalls[0].arguments"],
    [[{ role: "user", content: null }], "[0].content"],
    [[{ role: "user" }], "[0].content"],
    [[{ role: "wizard", content: "hi" }], "[0].role: expected one of system, user, assistant, tool"],
    [[{ role: "assistant", content: "", tool_calls: [] }], "did you mean toolCalls?"],
    [[{ role: "user", content: "x", timestamp: Number.NaN }], "[0].timestamp"],
  ])("rejects %j naming %s", (input, where) => {
    const decoded = decodeMessages(input);
    expect(decoded._tag).toBe("Left");
    if (decoded._tag === "Left") {
      expect(decoded.left._tag).toBe("InvalidInput");
      expect(decoded.left.subject).toBe("messages");
      expect(decoded.left.message).toContain(where);
    }
  });

  it("rejects values that are not lists, and holes in sparse arrays", () => {
    expect(decodeMessages("{not json")._tag).toBe("Left");
    expect(decodeMessages(undefined)._tag).toBe("Left");
    expect(decodeMessages(null)._tag).toBe("Left");
    const sparse: unknown[] = [{ role: "user", content: "a" }];
    sparse[2] = { role: "user", content: "c" };
    const r = decodeMessages(sparse);
    expect(r._tag).toBe("Left");
    if (r._tag === "Left") expect(r.left.message).toContain("[1]");
  });

  it("a getter that throws is a failure, not a throw", () => {
    const evil = {
      role: "user",
      get content(): string {
        throw new Error("boom");
      },
    };
    const r = decodeMessages([evil]);
    expect(r._tag).toBe("Left");
  });
});
