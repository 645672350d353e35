import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messageUnits, toolCallIssuers, type Message } from "@cc/messages";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = runsFor(300, 1000);
const u = (content: string): Message => ({ role: "user", content });
const calls = (...ids: string[]): Message => ({
  role: "assistant",
  content: "",
  toolCalls: ids.map((id) => ({ id, name: "bash", arguments: "{}" })),
});
const res = (id: string): Message => ({ role: "tool", content: `out ${id}`, toolCallId: id });
const spans = (ms: readonly Message[]): number[][] => messageUnits(ms).map((x) => [x.start, x.end]);

describe("toolCallIssuers", () => {
  it("maps each result to the latest earlier issuer of its id, -1 otherwise", () => {
    expect([...toolCallIssuers([u("a"), calls("c1"), res("c1"), res("ghost"), calls("c1"), res("c1")])]).toEqual([
      -1, -1, 1, -1, -1, 4,
    ]);
  });
});

describe("messageUnits", () => {
  it("a call with its results is one unit; plain messages stand alone", () => {
    expect(spans([u("a"), calls("c1"), res("c1"), u("b")])).toEqual([
      [0, 1],
      [1, 3],
      [3, 4],
    ]);
  });
  it("interleaved calls (A, B, result A, result B) are one unit", () => {
    expect(spans([calls("a"), calls("b"), res("a"), res("b"), u("x")])).toEqual([
      [0, 4],
      [4, 5],
    ]);
  });
  it("a result that arrives after an unrelated message pulls that message into the unit", () => {
    expect(spans([calls("a"), u("meanwhile"), res("a")])).toEqual([[0, 3]]);
  });
  it("an orphaned result stands alone; a result before its call is an orphan", () => {
    expect(spans([res("ghost"), u("x")])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(spans([res("late"), calls("late"), res("late")])).toEqual([
      [0, 1],
      [1, 3],
    ]);
  });
  it("a reused id binds each result to the latest issuer before it", () => {
    expect(spans([calls("c"), res("c"), calls("c"), res("c")])).toEqual([
      [0, 2],
      [2, 4],
    ]);
  });

  it("property: units partition the messages in order, every result shares a unit with its issuer, and units are minimal", () => {
    const ids = ["a", "b", "c", "d"];
    const msg = fc.oneof(
      fc.constant(u("text")),
      fc.subarray(ids, { minLength: 1 }).map((xs) => calls(...xs)),
      fc.constantFrom(...ids, "ghost").map(res),
    );
    fc.assert(
      fc.property(fc.array(msg, { maxLength: 40 }), (messages) => {
        const units = messageUnits(messages);
        // Partition, in order.
        let at = 0;
        for (const unit of units) {
          expect(unit.start).toBe(at);
          expect(unit.end).toBeGreaterThan(unit.start);
          expect(unit.messages).toEqual(messages.slice(unit.start, unit.end));
          at = unit.end;
        }
        expect(at).toBe(messages.length);
        // Pair-safe: a result and its issuer are in one unit.
        const unitOf = new Int32Array(messages.length);
        units.forEach((unit, k) => unitOf.fill(k, unit.start, unit.end));
        const issuers = toolCallIssuers(messages);
        issuers.forEach((from, i) => {
          if (from >= 0) expect(unitOf[from]).toBe(unitOf[i]);
        });
        // Minimal: a unit of several messages cannot be cut anywhere without separating a pair.
        for (const unit of units) {
          for (let cut = unit.start + 1; cut < unit.end; cut++) {
            const crossing = issuers.some((from, i) => from >= 0 && from < cut && i >= cut && i < unit.end);
            expect(crossing).toBe(true);
          }
        }
      }),
      { numRuns: runs },
    );
  });
});
