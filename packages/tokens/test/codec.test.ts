import { describe, expect, it } from "vitest";
import { decodeMessages, estimateCounter } from "@cc/tokens";

describe("decodeMessages", () => {
  it("accepts well-formed messages and counts them", () => {
    const decoded = decodeMessages([
      { role: "user", content: "中文 😀 \ud800" },
      { role: "assistant", content: "", toolCalls: [{ name: "bash", arguments: "{}" }] },
    ]);
    expect(decoded._tag).toBe("Right");
    if (decoded._tag === "Right") expect(estimateCounter().countMessages(decoded.right)).toBeGreaterThan(6);
  });

  it.each([
    [[{ role: "user", content: 42 }], "0.content"],
    [[{ role: "user", content: "ok" }, { content: "no role" }], "1.role"],
    [[{ role: "assistant", content: "", toolCalls: [{ name: "bash" }] }], "0.toolCalls.0.arguments"],
    [[{ role: "user", content: null }], "0.content"],
  ])("rejects %j naming %s", (input, where) => {
    const decoded = decodeMessages(input);
    expect(decoded._tag).toBe("Left");
    if (decoded._tag === "Left") expect(decoded.left.errors.join("\n")).toContain(where);
  });

  it("rejects malformed JSON values that are not lists", () => {
    expect(decodeMessages("{not json")._tag).toBe("Left");
    expect(decodeMessages(undefined)._tag).toBe("Left");
  });
});
