import type { Message } from "@cc/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clearToolUses, type ClearSettings } from "../cost/clearing.js";
import { relativeDifference } from "../cost/intervals.js";
import { resamples } from "../retention/stats.js";

const count = (m: Message): number => m.content.length;
const call = (id: string, name = "bash"): Message => ({
  role: "assistant",
  content: "a",
  toolCalls: [{ id, name, arguments: "{}" }],
});
const result = (id: string, n: number): Message => ({ role: "tool", content: "x".repeat(n), toolCallId: id });
const session = (sizes: readonly number[], names: readonly string[] = []): Message[] => [
  { role: "system", content: "s" },
  { role: "user", content: "task" },
  ...sizes.flatMap((n, i) => [call(`c${i}`, names[i] ?? "bash"), result(`c${i}`, n)]),
];
const settings = (o: Partial<ClearSettings>): ClearSettings => ({
  trigger: 0,
  keep: 3,
  excludeTools: [],
  clearAtLeast: 0,
  placeholder: "[cleared]",
  maxTokens: 1_000_000,
  ...o,
});

describe("tool-result clearing (clear_tool_uses / ClearToolUsesEdit)", () => {
  it("below the trigger nothing changes; at it every result but the 3 newest is cleared, calls stay", () => {
    const m = session([100, 100, 100, 100, 100]);
    expect(clearToolUses(m, settings({ trigger: 10_000 }), count)).toBe(m);
    const out = clearToolUses(m, settings({ trigger: 100 }), count);
    expect(out.map((x) => x.content)).toEqual([
      "s",
      "task",
      "a",
      "[cleared]",
      "a",
      "[cleared]",
      "a",
      "x".repeat(100),
      "a",
      "x".repeat(100),
      "a",
      "x".repeat(100),
    ]);
  });

  it("clear-at-least stops once enough is cleared; excluded tools are never cleared", () => {
    const m = session([100, 100, 100, 100, 100], ["read", "bash", "bash", "bash", "bash"]);
    const out = clearToolUses(m, settings({ trigger: 100, keep: 1, clearAtLeast: 150, excludeTools: ["read"] }), count);
    expect(out.filter((x) => x.content === "[cleared]")).toHaveLength(2);
    expect(out[3]!.content).toBe("x".repeat(100));
  });

  it("property: never reorders or splits a call from its result; the system prompt and task stay; over the limit only with nothing but the newest unit left", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 12 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 50, max: 3000 }),
        (sizes, keep, limit) => {
          const m = session(sizes);
          const out = clearToolUses(m, settings({ trigger: Math.floor(limit * 0.8), keep, maxTokens: limit }), count);
          expect(out.slice(0, 2)).toEqual(m.slice(0, 2));
          const ids = out.flatMap((x) => (x.role === "tool" ? [x.toolCallId] : []));
          const calls = out.flatMap((x) => (x.role === "assistant" ? (x.toolCalls ?? []).map((c) => c.id) : []));
          expect(ids).toEqual(calls);
          const order = ids.map((id) => Number(id.slice(1)));
          expect([...order].sort((a, b) => a - b)).toEqual(order);
          const total = out.reduce((a, x) => a + count(x), 0);
          if (total > limit) expect(out.length).toBeLessThanOrEqual(m.length === 2 ? 2 : 4);
        },
      ),
    );
  });
});

describe("the cost benchmark's paired session-bootstrap difference", () => {
  it("is the relative difference of totals; its interval holds the value; equal costs give 0", () => {
    const a = new Map([
      ["s1", 9],
      ["s2", 18],
      ["s3", 1],
    ]);
    const b = new Map([
      ["s1", 10],
      ["s2", 20],
      ["s3", 2],
    ]);
    const e = relativeDifference(a, b, resamples([...a.keys()], 500, 7));
    expect(e.value).toBeCloseTo(28 / 32 - 1);
    expect(e.lo).toBeLessThanOrEqual(e.value);
    expect(e.hi).toBeGreaterThanOrEqual(e.value);
    expect(relativeDifference(b, b, resamples([...b.keys()], 50, 1))).toEqual({ value: 0, lo: 0, hi: 0 });
  });
});
