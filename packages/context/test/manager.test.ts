import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import { ContextManagerError, createContextManager, decodeContextManager, type TurnResult } from "@cc/context";
import { memoryIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import { estimateCounter, tiktokenCounter } from "@cc/tokens";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = runsFor(25, 60);
const exact = tiktokenCounter();
afterAll(() => exact.dispose());

const output = (tag: string, lines: number): string =>
  `${tag} src/${tag}/module_${tag}.py\n${"line of output with some_identifier and words 12345\n".repeat(lines)}`;
function conversation(cycles: number, lines = 60): Message[] {
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
    out.push({ role: "tool", content: output(`t${i}`, lines), toolCallId: `c${i}` });
  }
  out.push({ role: "user", content: "Now run the tests again." });
  return out;
}

/** Every tool result follows the assistant message that issued its call. */
function paired(messages: readonly Message[]): boolean {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) open.add(c.id);
    if (m.role === "tool" && !open.has(m.toolCallId)) return false;
  }
  return true;
}

describe("createContextManager", () => {
  it("below the threshold the history comes back unchanged", async () => {
    const manager = createContextManager({ maxTokens: 100_000, counter: exact });
    const history = conversation(2);
    const r = await manager.compact(history);
    expect(r).toMatchObject({ compacted: false, budgetMet: true, evicted: [], summary: "", warnings: [] });
    expect(r.messages).toEqual(history);
  });

  it("hierarchical (default): evicts to the threshold, the exact count meets the budget, every evicted id expands back", async () => {
    const index = memoryIndex();
    const manager = createContextManager({
      maxTokens: 3000,
      counter: exact,
      index,
      namespace: "s1",
      now: () => 1_700_000_000_000,
    });
    const history = conversation(10);
    const r = await manager.compact(history);
    expect(r.strategy).toBe("hierarchical");
    expect(r.compacted).toBe(true);
    expect(r.budgetMet).toBe(true);
    expect(exact.countMessages(r.messages)).toBeLessThanOrEqual(3000);
    expect(r.tokensAfter).toBe(exact.countMessages(r.messages));
    expect(paired(r.messages)).toBe(true);
    expect(r.evicted.length).toBeGreaterThan(0);
    // Every evicted id is named by the note: listed, or counted in "… N more" once the entry
    // lines have used their share (the rest of the note is its fact line).
    const more = Number(/… (\d+) more in the journal$/.exec(r.summary)?.[1] ?? 0);
    const listed = r.evicted.filter((e) => r.summary.includes(`- ${e.id} (`));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length + more).toBe(r.evicted.length);
    for (const e of r.evicted) {
      const original = await manager.expand(e.id);
      expect(original).toBeDefined();
    }
    const hits = await manager.search("module_t1");
    expect(hits.length).toBeGreaterThan(0);
  });

  it("lcm: summarises the older part, keeps system first and the tail verbatim", async () => {
    const manager = createContextManager({ maxTokens: 3000, strategy: "lcm", counter: exact, preserveLast: 2 });
    const history = conversation(10);
    const r = await manager.compact(history);
    expect(r.compacted).toBe(true);
    expect(r.level).toBeDefined();
    expect(r.messages[0]).toEqual(history[0]);
    expect(r.messages.at(-1)).toEqual(history.at(-1));
    expect(r.summary.length).toBeGreaterThan(0);
    expect(r.budgetMet).toBe(exact.countMessages(r.messages) <= 3000);
  });

  it("rejects bad options at construction with one typed error naming each field", () => {
    const bad: unknown[] = [
      { maxTokns: 5000 },
      { maxTokens: Number.NaN },
      { maxTokens: Number.POSITIVE_INFINITY },
      { maxTokens: -1 },
      { maxTokens: 5000, threshold: 0 },
      { maxTokens: 5000, threshold: 1.5 },
      { maxTokens: 5000, strategy: "magic" },
      { maxTokens: 5000, preserveLast: -2 },
      { maxTokens: 5000, concurrency: 0 },
      { maxTokens: 5000, counter: {} },
      null,
      "8000",
    ];
    for (const b of bad) {
      const r = decodeContextManager(b);
      expect(E.isLeft(r)).toBe(true);
      if (E.isLeft(r)) expect(r.left).toMatchObject({ _tag: "InvalidOptions", subject: "context manager options" });
      expect(() => createContextManager(b as never)).toThrow(ContextManagerError);
    }
    const typo = decodeContextManager({ maxTokns: 5000 });
    expect(E.isLeft(typo) && typo.left.message).toMatch(/maxTokns: unknown field \(did you mean maxTokens\?\)/);
  });

  it("bad history is a typed InvalidInput: the Promise facade rejects with it, the TaskEither resolves to it", async () => {
    const manager = createContextManager({ maxTokens: 1000, counter: estimateCounter() });
    const sparse: unknown[] = [{ role: "user", content: "a" }];
    sparse[2] = { role: "user", content: "c" };
    for (const history of [[{ role: "wizard", content: "hi" }], [{ role: "user" }], sparse, [null]] as unknown[][]) {
      const te = await manager.compactTE(history)();
      expect(E.isLeft(te) && te.left._tag).toBe("InvalidInput");
      await expect(manager.compact(history)).rejects.toBeInstanceOf(ContextManagerError);
    }
  });

  it("a counter that throws is a typed error, never a rejection of the TaskEither", async () => {
    const broken = {
      encoding: "o200k_base" as const,
      count: (): number => {
        throw new Error("boom");
      },
      countMessages: (): number => {
        throw new Error("boom");
      },
      dispose: () => undefined,
    };
    const manager = createContextManager({ maxTokens: 1000, counter: broken });
    const r = await manager.compactTE(conversation(1))();
    expect(E.isLeft(r)).toBe(true);
  });

  it("an aborted signal is a typed Aborted", async () => {
    const manager = createContextManager({ maxTokens: 1000, counter: estimateCounter() });
    const ac = new AbortController();
    ac.abort();
    const r = await manager.compactTE(conversation(3), { signal: ac.signal, force: true })();
    expect(E.isLeft(r) && r.left._tag).toBe("Aborted");
  });

  it("a budget too small for the eviction note is a typed warning, not a silent success", async () => {
    const manager = createContextManager({ maxTokens: 20, counter: exact, noteTokens: 512 });
    const r = await manager.compact(conversation(4), { force: true });
    expect(r.budgetMet).toBe(false);
    expect(r.warnings.map((w) => w._tag)).toContain("BudgetNotMet");
    expect(r.warnings.map((w) => w._tag)).toContain("NoteDoesNotFit");
  });

  it("property: any conversation and budget — tool pairs intact, budgetMet is the exact truth, nothing outside the tail changes silently", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 150, max: 6000 }),
        fc.constantFrom("hierarchical" as const, "lcm" as const),
        fc.integer({ min: 1, max: 80 }),
        async (cycles, keep, budget, strategy, lines) => {
          const history = conversation(cycles, lines);
          const manager = createContextManager({ maxTokens: budget, strategy, counter: exact, preserveLast: keep });
          const r: TurnResult = await manager.compact(history, { force: true });
          expect(paired(r.messages)).toBe(true);
          const tokens = exact.countMessages(r.messages);
          expect(r.tokensAfter).toBe(tokens);
          expect(r.budgetMet).toBe(tokens <= budget);
          if (!r.budgetMet) expect(r.warnings.some((w) => w._tag === "BudgetNotMet")).toBe(true);
          expect(r.messages[0]).toEqual(history[0]);
        },
      ),
      { numRuns: runs },
    );
  });
});
