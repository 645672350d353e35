import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { leadingSystemCount, safeSplit } from "@cc/messages";
import { a, call, conversationArb, issued, runs, sys, tool, u } from "./support/conversation.js";

describe("safeSplit", () => {
  it("keeps the last preserveLast messages when no tool chain crosses the boundary", () => {
    expect(safeSplit([u(), a(), u(), a(), u()], 2)).toBe(3);
  });
  it("never compacts leading system messages", () => {
    expect(safeSplit([sys(), sys(), u(), a()], 10)).toBe(2);
    expect(leadingSystemCount([sys(), u(), sys()])).toBe(1);
  });
  it("preserveLast 0 compacts everything after the system prefix", () => {
    expect(safeSplit([sys(), u(), a()], 0)).toBe(3);
  });
  it("moves back to the assistant that issued parallel calls", () => {
    const m = [u(), call("x", "y"), tool("x"), tool("y"), u()];
    expect(safeSplit(m, 1)).toBe(4);
    expect(safeSplit(m, 2)).toBe(1);
    expect(safeSplit(m, 3)).toBe(1);
  });
  it("handles NaN, negative and huge preserveLast", () => {
    const m = [u(), a(), u()];
    expect(safeSplit(m, Number.NaN)).toBe(3);
    expect(safeSplit(m, -5)).toBe(3);
    expect(safeSplit(m, 1e12)).toBe(0);
    expect(safeSplit([], 3)).toBe(0);
  });
  it("leaves an orphan tool result (no call anywhere) where it is", () => {
    expect(safeSplit([u(), tool("ghost"), u()], 2)).toBe(1);
  });

  it("property: the tail never holds a tool result whose call was compacted, never starts with one", () => {
    fc.assert(
      fc.property(conversationArb, fc.integer({ min: 0, max: 50 }), (messages, keep) => {
        const split = safeSplit(messages, keep);
        const floor = leadingSystemCount(messages);
        expect(split).toBeGreaterThanOrEqual(floor);
        expect(split).toBeLessThanOrEqual(messages.length);
        const headCalls = issued(messages.slice(floor, split));
        const tail = messages.slice(split);
        for (const m of tail) if (m.role === "tool") expect(headCalls.has(m.toolCallId)).toBe(false);
        const first = tail[0];
        if (first?.role === "tool") expect(headCalls.has(first.toolCallId)).toBe(false);
        // Minimal: the boundary moves back only as far as needed.
        expect(split).toBeLessThanOrEqual(Math.max(floor, messages.length - keep));
        if (split < Math.max(floor, messages.length - keep)) expect(messages[split]?.role).toBe("assistant");
      }),
      { numRuns: runs },
    );
  });
});
