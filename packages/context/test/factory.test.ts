import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import type { Message } from "@cc/messages";
import { memoryIndex } from "@cc/search";
import { createHistoryStrategy, decodeStrategyConfig } from "@cc/context/compat";
import { runsFor } from "../../../.ci/support/runs.js";

const numRuns = runsFor(100, 1000);
const big = (tag: string): string =>
  `${tag} src/${tag}/module_${tag}.py\n${"line of output with some_identifier and words\n".repeat(80)}`;

function conversation(cycles: number): Message[] {
  const out: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Fix the failing test in src/app.py" },
  ];
  for (let i = 0; i < cycles; i++) {
    out.push({
      role: "assistant",
      content: `step ${i}`,
      toolCalls: [{ id: `c${i}`, name: "bash", arguments: `{"command":"cat f${i}.py"}` }],
    });
    out.push({ role: "tool", content: big(`t${i}`), toolCallId: `c${i}`, name: "bash" });
  }
  out.push({ role: "user", content: "Now run the tests again." });
  return out;
}

/** Tool results follow their call in the same list. */
function paired(messages: readonly Message[]): boolean {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) open.add(c.id);
    if (m.role === "tool" && !open.delete(m.toolCallId)) return false;
  }
  return true;
}

describe("createHistoryStrategy", () => {
  it("lcm: summarises the older prefix and keeps the system prompt", async () => {
    const built = createHistoryStrategy({ strategy: "lcm", preserveLast: 3 });
    if (E.isLeft(built)) throw new Error(built.left.problems.join());
    expect(built.right.name).toBe("lcm");
    const r = await built.right.strategy.compact(conversation(8), "gpt-4o", 2000)();
    if (E.isLeft(r)) throw new Error(r.left._tag);
    expect(r.right.summary.length).toBeGreaterThan(0);
    expect(r.right.messages[0]).toEqual({ role: "system", content: "You are a coding agent." });
    expect(paired(r.right.messages)).toBe(true);
  });

  it("hierarchical: evicts units into the index, notes them, and expand returns the original", async () => {
    const index = memoryIndex();
    const built = createHistoryStrategy(
      { strategy: "hierarchical", preserveLast: 3, namespace: "s1" },
      { index, now: () => 1_700_000_000_000 },
    );
    if (E.isLeft(built)) throw new Error(built.left.problems.join());
    const input = conversation(8);
    const r = await built.right.strategy.compact(input, "gpt-4o", 3000)();
    if (E.isLeft(r)) throw new Error(r.left._tag);
    expect(r.right.messages.length).toBeLessThan(input.length);
    expect(r.right.messages[0]?.role).toBe("system");
    expect(r.right.messages.slice(-3)).toEqual(input.slice(-3));
    expect(paired(r.right.messages)).toBe(true);
    expect(r.right.summary).toMatch(/^Evicted to the journal/);
    const count = await index.count("s1")();
    expect(E.isRight(count) && count.right).toBeGreaterThan(0);
    const [, id] = /- (u[0-9a-f]{32}(?:\.\d+)?) \(/.exec(r.right.summary)!;
    const x = await index.expand(id!, "s1")();
    const original = E.isRight(x) ? (x.right?.content ?? "") : "";
    const evicted = input.find((m) => m.content !== "" && original.includes(m.content));
    expect(evicted).toBeDefined();
    expect(r.right.messages).not.toContain(evicted);
  });

  it("swapping strategies is a configuration change only", async () => {
    const input = conversation(6);
    for (const strategy of ["lcm", "hierarchical"] as const) {
      const built = createHistoryStrategy({ strategy, preserveLast: 2 }, { index: memoryIndex() });
      expect(E.isRight(built) && built.right.name).toBe(strategy);
      if (E.isRight(built)) expect(E.isRight(await built.right.strategy.compact(input, "m", 2500)())).toBe(true);
    }
  });

  it("rejects bad configuration, naming the field", () => {
    const messageOf = (r: E.Either<{ readonly message: string }, unknown>): string =>
      E.isLeft(r) ? r.left.message : "";
    expect(decodeStrategyConfig({ strategy: "magic" })).toMatchObject(
      E.left({ _tag: "InvalidOptions", subject: "strategy config" }),
    );
    expect(messageOf(decodeStrategyConfig({ strategy: "magic" }))).toContain(
      'strategy: expected one of "hierarchical", "lcm", got "magic"',
    );
    expect(messageOf(decodeStrategyConfig(null))).toContain("got undefined");
    const many = messageOf(
      decodeStrategyConfig({ strategy: "hierarchical", preserveLast: -1, concurrency: 0, namespace: "" }),
    );
    for (const p of [
      "preserveLast: expected a non-negative integer, got -1",
      'namespace: expected a non-empty string, got ""',
      "concurrency: expected an integer in 1..256, got 0",
    ])
      expect(many).toContain(p);
    expect(messageOf(decodeStrategyConfig({ strategy: "lcm", preserveLast: Number.NaN }))).toContain(
      "preserveLast: expected a non-negative integer, got NaN",
    );
    expect(messageOf(createHistoryStrategy({ strategy: "hierarchical" }))).toContain(
      "index: the hierarchical strategy needs a SegmentIndex dependency",
    );
  });

  it("rejects a non-positive budget and an aborted signal as values", async () => {
    const built = createHistoryStrategy({ strategy: "hierarchical" }, { index: memoryIndex() });
    if (E.isLeft(built)) throw new Error("config");
    expect(await built.right.strategy.compact(conversation(1), "m", Number.NaN)()).toMatchObject(
      E.left({ _tag: "InvalidOptions" }),
    );
    const ac = new AbortController();
    ac.abort();
    expect(await built.right.strategy.compact(conversation(1), "m", 100, ac.signal)()).toMatchObject(
      E.left({ _tag: "Aborted" }),
    );
  });

  it("property: hierarchical output is a subsequence of the input with tool pairs intact and the tail verbatim", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 200, max: 6000 }),
        async (cycles, keep, budget) => {
          const input = conversation(cycles);
          const built = createHistoryStrategy(
            { strategy: "hierarchical", preserveLast: keep },
            { index: memoryIndex() },
          );
          if (E.isLeft(built)) throw new Error("config");
          const r = await built.right.strategy.compact(input, "m", budget)();
          if (E.isLeft(r)) throw new Error(r.left._tag);
          let j = 0;
          for (const m of r.right.messages) {
            while (j < input.length && input[j] !== m) j++;
            expect(j).toBeLessThan(input.length);
            j++;
          }
          expect(paired(r.right.messages)).toBe(true);
          expect(r.right.messages[0]).toBe(input[0]);
        },
      ),
      { numRuns: Math.min(numRuns, 300) },
    );
  });
});
