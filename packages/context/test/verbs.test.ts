// The verbs a face needs, on the manager itself: per-call options (the tail and the budget of one
// call, on the same manager — a policy keeps its state), the shorter-tail retry, tool-result
// eviction on arrival, the limits and the one target arithmetic.
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import { ContextManagerError, createContextManager } from "@cc/context";
import { shorterTails, targetTokens } from "@cc/test-support/context";
import { memoryIndex, type SegmentIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";

const counter = tiktokenCounter();
afterAll(() => counter.dispose());
const NOW = 1_750_000_000_000;

const result = (n: number, lines: number): string =>
  Array.from({ length: lines }, (_, i) => `line ${i} of result ${n}: value_${n}_${i}`).join("\n");

/** `k` steps, each one assistant message calling two tools and their two results. */
function steps(k: number, lines: number): Message[] {
  const out: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Summarise the logs." },
  ];
  for (let i = 0; i < k; i++) {
    out.push({
      role: "assistant",
      content: "",
      toolCalls: [
        { id: `a${i}`, name: "bash", arguments: `{"cmd":"cat a${i}"}` },
        { id: `b${i}`, name: "bash", arguments: `{"cmd":"cat b${i}"}` },
      ],
    });
    out.push({ role: "tool", toolCallId: `a${i}`, content: result(i, lines) });
    out.push({ role: "tool", toolCallId: `b${i}`, content: result(i + 100, lines) });
  }
  return out;
}

const orphans = (prompt: readonly Message[]): number => {
  const calls = new Set(prompt.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [])));
  return prompt.filter((m) => m.role === "tool" && !calls.has(m.toolCallId)).length;
};

describe("limits and the target", () => {
  it("limits are the resolved settings; targetTokens is threshold × budget rounded down, at least 1", () => {
    const m = createContextManager({ maxTokens: 8001, threshold: 0.7, preserveLast: 3, counter });
    expect(m.limits).toEqual({ maxTokens: 8001, preserveLast: 3, threshold: 0.7 });
    expect(m.targetTokens()).toBe(5600);
    expect(m.targetTokens(10)).toBe(7);
    expect(targetTokens(0.1, 1)).toBe(1);
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 10_000_000 }),
        (threshold, maxTokens) => {
          const t = targetTokens(threshold, maxTokens);
          expect(t).toBeGreaterThanOrEqual(1);
          expect(t).toBeLessThanOrEqual(maxTokens);
          expect(Number.isInteger(t)).toBe(true);
        },
      ),
    );
  });

  it("shorter tails: half, then 1; never 0 (the current step stays)", () => {
    expect(shorterTails(6)).toEqual([3, 1]);
    expect(shorterTails(2)).toEqual([1]);
    expect(shorterTails(1)).toEqual([]);
    expect(shorterTails(0)).toEqual([]);
  });
});

describe("per-call options", () => {
  it("preserveLast of one call changes that call's tail only", async () => {
    const m = createContextManager({ maxTokens: 3000, preserveLast: 6, strategy: "lcm", counter, now: () => NOW });
    const history = steps(6, 20);
    const wide = await m.compact(history, { force: true });
    const narrow = await m.compact(history, { force: true, preserveLast: 1 });
    const again = await m.compact(history, { force: true });
    // lcm keeps the tail verbatim and summarises the rest: a shorter tail keeps fewer originals.
    const kept = (r: { readonly messages: readonly Message[] }): number =>
      r.messages.filter((x) => history.includes(x)).length;
    expect(kept(narrow)).toBeLessThan(kept(wide));
    expect(again.messages).toEqual(wide.messages);
    expect(orphans(narrow.messages)).toBe(0);
  });

  it("a bad per-call option is refused by name", async () => {
    const m = createContextManager({ maxTokens: 3000, counter });
    for (const bad of [
      { preserveLast: -1 },
      { preserveLast: 1.5 },
      { preserveLast: Number.NaN },
      { fitTail: "yes" },
      { preserveLst: 2 },
    ]) {
      const r = await m.compactTE([{ role: "user", content: "hi" }], bad as never)();
      expect(E.isLeft(r) && r.left._tag === "InvalidOptions" && r.left.message, JSON.stringify(bad)).toMatch(
        /preserveL|fitTail/,
      );
    }
  });

  it("a cost policy keeps its state across calls with different tails (one manager, no clone)", async () => {
    const m = createContextManager({
      maxTokens: 1500,
      counter,
      policy: { kind: "cost" },
      preserveLast: 4,
      noteTokens: 150,
      now: () => NOW,
    });
    let history: Message[] = steps(1, 5);
    for (let turn = 1; turn <= 6; turn++) {
      history = [
        ...history,
        ...steps(2, 5)
          .slice(2)
          .map((x) =>
            x.role === "assistant"
              ? { ...x, toolCalls: x.toolCalls!.map((c) => ({ ...c, id: `${c.id}-${turn}` })) }
              : x.role === "tool"
                ? { ...x, toolCallId: `${x.toolCallId}-${turn}` }
                : x,
          ),
      ];
      const r = await m.compact(history, { preserveLast: turn % 2 === 0 ? 1 : 4, fitTail: true });
      history = [...r.messages];
      expect(m.snapshot()?.state.turn).toBe(turn);
    }
  });
});

describe("fitTail", () => {
  it("when the tail alone keeps the prompt above the target, the turn runs again with shorter tails and reaches it", async () => {
    const m = createContextManager({ maxTokens: 2000, preserveLast: 6, strategy: "lcm", counter, now: () => NOW });
    const history = steps(5, 50);
    const plain = await m.compact(history);
    // Without the retry the preserved tail (two steps of large results) stays above the target…
    expect(plain.tokensAfter).toBeGreaterThan(m.targetTokens());
    const fitted = await m.compact(history, { fitTail: true });
    // …with it the prompt reaches the target, the last step (its call and both results) intact.
    expect(fitted.tokensAfter).toBeLessThanOrEqual(m.targetTokens());
    expect(fitted.tokensAfter).toBe(m.count(fitted.messages));
    expect(fitted.messages.slice(-3)).toEqual(history.slice(-3));
    expect(orphans(fitted.messages)).toBe(0);
    expect(fitted.tokensBefore).toBe(plain.tokensBefore);
  });

  it("a tail that already fits is left alone", async () => {
    const m = createContextManager({ maxTokens: 3000, preserveLast: 6, strategy: "lcm", counter, now: () => NOW });
    const history = steps(5, 10);
    expect(await m.compact(history, { fitTail: true })).toEqual(await m.compact(history));
  });
});

describe("evictToolResult", () => {
  const big = result(7, 200);

  it("over the limit: the original goes to the index, the stub names its id, expand returns it byte for byte", async () => {
    const index = memoryIndex();
    const m = createContextManager({ maxTokens: 4000, counter, index, namespace: "s1", now: () => NOW });
    const r = await m.evictToolResult({ toolCallId: "c1", toolName: "cat", content: big });
    if (E.isLeft(r) || r.right === undefined) throw new Error("expected an eviction");
    const { id, tokens, stub } = r.right;
    expect(id).toMatch(/^r[0-9a-f]{32}$/);
    expect(tokens).toBe(counter.count(big));
    expect(stub).toContain(id);
    expect(stub).toContain("expand_context");
    expect(counter.count(stub)).toBeLessThanOrEqual(1000);
    expect(await m.expand(id)).toBe(big);
    // The same result again is the same id (content-addressed) and an upsert, not a conflict.
    const again = await m.evictToolResult({ toolCallId: "c9", toolName: "cat", content: big });
    expect(E.isRight(again) && again.right?.id).toBe(id);
    const page = await m.tools().expand.run({ id });
    expect(E.isRight(page) && page.right.content).toBe(big.slice(0, 8000));
  });

  it("within the limit, with limit 0, or when a stub would not be shorter: nothing happens", async () => {
    const index = memoryIndex();
    const m = createContextManager({ maxTokens: 4000, counter, index });
    expect(await m.evictToolResult({ toolCallId: "c1", toolName: "cat", content: "short" })).toEqual(
      E.right(undefined),
    );
    expect(await m.evictToolResult({ toolCallId: "c1", toolName: "cat", content: big }, { maxTokens: 0 })).toEqual(
      E.right(undefined),
    );
    expect(
      await m.evictToolResult(
        { toolCallId: "c1", toolName: "cat", content: "a b c d e f g h i j k l m n o p" },
        { maxTokens: 1 },
      ),
    ).toEqual(E.right(undefined));
    const r = await index.search("value_7_3", { k: 5, namespace: "default" })();
    expect(E.isRight(r) && r.right).toEqual([]);
  });

  it("a refusing index is IndexWriteFailed, a throwing one DependencyFailed, a bad limit InvalidOptions — never a rejection", async () => {
    const base = memoryIndex();
    const refusing: SegmentIndex = {
      ...base,
      write: () => async () => E.left({ _tag: "IndexClosed", backend: "memory" }),
    };
    const throwing: SegmentIndex = {
      ...base,
      write: () => {
        throw new Error("disk on fire");
      },
    };
    const input = { toolCallId: "c1", toolName: "cat", content: big };
    const refused = await createContextManager({ maxTokens: 4000, counter, index: refusing }).evictToolResult(input);
    expect(E.isLeft(refused) && refused.left._tag).toBe("IndexWriteFailed");
    const threw = await createContextManager({ maxTokens: 4000, counter, index: throwing }).evictToolResult(input);
    expect(E.isLeft(threw) && threw.left).toMatchObject({
      _tag: "DependencyFailed",
      subject: "toolResult",
      message: expect.stringContaining("disk on fire") as unknown,
    });
    for (const maxTokens of [-1, 1.5, Number.NaN, Infinity]) {
      const bad = await createContextManager({ maxTokens: 4000, counter }).evictToolResult(input, { maxTokens });
      expect(E.isLeft(bad) && bad.left._tag, String(maxTokens)).toBe("InvalidOptions");
    }
    const notText = await createContextManager({ maxTokens: 4000, counter }).evictToolResult({
      toolCallId: "c1",
      toolName: "cat",
      content: 5 as never,
    });
    expect(E.isLeft(notText) && notText.left._tag).toBe("InvalidInput");
  });

  it("property: a stub never exceeds the limit it was made for, and the original always expands back", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: "grapheme", minLength: 200, maxLength: 3000 }),
        fc.integer({ min: 40, max: 400 }),
        async (text, limit) => {
          const m = createContextManager({ maxTokens: 4000, counter });
          const r = await m.evictToolResult({ toolCallId: "c", toolName: "t", content: text }, { maxTokens: limit });
          if (E.isLeft(r)) throw new Error(r.left._tag);
          if (r.right === undefined) return;
          expect(counter.count(r.right.stub)).toBeLessThanOrEqual(
            Math.max(limit, counter.count(r.right.stub.replace(/ Starts with: .*\./s, "."))),
          );
          expect(counter.count(r.right.stub)).toBeLessThan(r.right.tokens);
          expect(await m.expand(r.right.id)).toBe(text);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("tools()", () => {
  it("bad options throw a ContextManagerError naming the field; good ones are cached", () => {
    const m = createContextManager({ maxTokens: 4000, counter });
    expect(() => m.tools({ maxExpandChars: 0 })).toThrow(ContextManagerError);
    expect(() => m.tools({ maxExpandChars: 0 })).toThrow(/maxExpandChars/);
    expect(() => m.tools({ namespace: "x" } as never)).toThrow(/namespace/);
    expect(m.tools({ maxExpandChars: 100 })).toBe(m.tools({ maxExpandChars: 100 }));
  });
});
