// Bad options are typed errors; a throwing callback is caught and reported; a failed turn is a
// typed value (compactItems) or a typed rejection (the filter); tool failures are tool outputs.
import { createContextManager, type ContextManagerOptions } from "@cc/context";
import { RunContext, type AgentInputItem } from "@openai/agents";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { AgentsCompactionError, createAgentsCompaction, decodeAgentsCompaction, expandPage } from "../src/index.js";
import { fileText } from "./fixtures.js";

const manager = createContextManager({ maxTokens: 400, preserveLast: 1, noteTokens: 60 });
const big: AgentInputItem[] = ["a.py", "b.py", "c.py", "d.py"].flatMap((p, i): AgentInputItem[] => [
  { role: "user", content: `read ${p}` },
  { type: "function_call", callId: `k${i}`, name: "read_file", arguments: JSON.stringify({ path: p }) },
  { type: "function_call_result", callId: `k${i}`, name: "read_file", status: "completed", output: fileText(p) },
]);

describe("options", () => {
  it.each([
    ["an unknown key", { manager, maxHit: 3 }, /maxHit.*did you mean maxHits/],
    ["NaN", { manager, maxHits: Number.NaN }, /maxHits/],
    ["zero hits", { manager, maxHits: 0 }, /maxHits/],
    ["Infinity", { manager, maxExpandChars: Number.POSITIVE_INFINITY }, /maxExpandChars/],
    ["a fraction", { manager, maxExpandChars: 2.5 }, /maxExpandChars/],
    ["a string flag", { manager, countInstructions: "yes" }, /countInstructions/],
    ["a non-function callback", { manager, onReport: 42 }, /onReport/],
    ["a non-manager", { manager: { compact: 1 } }, /manager.*context manager/],
    ["neither maxTokens nor manager", {}, /exactly one of maxTokens and manager, got neither/],
    ["both maxTokens and manager", { manager, maxTokens: 8000 }, /exactly one of maxTokens and manager, got both/],
    ["a zero budget", { maxTokens: 0 }, /maxTokens/],
    ["a NaN budget", { maxTokens: Number.NaN }, /maxTokens/],
    ["null", null, /options object/],
  ])("refuses %s", (_label, options, problem) => {
    const r = decodeAgentsCompaction(options);
    expect(E.isLeft(r)).toBe(true);
    if (E.isRight(r)) return;
    expect(r.left._tag).toBe("InvalidOptions");
    expect(r.left.subject).toBe("openai-agents options");
    expect(r.left.message).toMatch(problem);
    expect(() => createAgentsCompaction(options as never)).toThrow(AgentsCompactionError);
  });

  it("maxTokens alone builds a manager with that budget, as every @cc adapter accepts", async () => {
    const history = [...big, ...big.map((i) => ({ ...i, ...("callId" in i ? { callId: `${i.callId}b` } : {}) }) as AgentInputItem)];
    const cc = createAgentsCompaction({ maxTokens: 1200 });
    const r = await cc.compactItems(history, "Be brief.")();
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    expect(r.right.report.turn.maxTokens).toBe(1200);
    expect(r.right.report.turn.tokensBefore).toBeGreaterThan(1200);
    expect(r.right.report.turn.compacted).toBe(true);
    expect(r.right.report.turn.budgetMet).toBe(true);
  });

  it("createAgentsCompaction throws the typed error", () => {
    try {
      createAgentsCompaction({ manager, maxHits: -1 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AgentsCompactionError);
      expect((e as AgentsCompactionError).error._tag).toBe("InvalidOptions");
    }
  });
});

describe("callbacks and failures", () => {
  it("a throwing or rejecting onReport is caught and reported in lastReport", async () => {
    for (const onReport of [() => { throw new Error("boom"); }, () => Promise.reject(new Error("late boom"))]) {
      const cc = createAgentsCompaction({ manager, onReport });
      const r = await cc.compactItems(big)();
      expect(E.isRight(r)).toBe(true);
      const warnings = cc.lastReport()?.warnings ?? [];
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?._tag).toBe("ReportCallbackFailed");
      expect(warnings[0]?.message).toMatch(/boom/);
      if (E.isRight(r)) expect(r.right.report.warnings).toEqual(warnings);
    }
  });

  it("an index that refuses the write: compactItems is Left, the filter and the session reject with the typed error", async () => {
    const refusing = {
      backend: "memory",
      write: () => async () => E.left({ _tag: "WriteFailed", message: "disk full" }),
      search: () => async () => E.right([]),
      expand: () => async () => E.right(undefined),
      deleteNamespace: () => async () => E.right(0),
      count: () => async () => E.right(0),
      close: () => async () => E.right(undefined),
    } as unknown as NonNullable<ContextManagerOptions["index"]>;
    const cc = createAgentsCompaction({ manager: createContextManager({ maxTokens: 400, preserveLast: 1, noteTokens: 60, index: refusing }) });
    const r = await cc.compactItems(big)();
    expect(E.isLeft(r) && r.left._tag).toBe("IndexWriteFailed");
    const filtered = Promise.resolve(cc.callModelInputFilter({ modelData: { input: big }, agent: undefined as never, context: undefined }));
    await expect(filtered).rejects.toMatchObject({ name: "AgentsCompactionError", error: { _tag: "IndexWriteFailed" } });
    const inner = { getSessionId: async () => "s", getItems: async () => big, addItems: async () => undefined, popItem: async () => undefined, clearSession: async () => undefined };
    await expect(cc.session(inner).getItems()).rejects.toBeInstanceOf(AgentsCompactionError);
  });

  it("under the threshold nothing changes: the same item objects come back, no note", async () => {
    const cc = createAgentsCompaction({ manager: createContextManager({ maxTokens: 100_000 }) });
    const r = await cc.compactItems(big, "Be brief.")();
    expect(E.isRight(r) && r.right.items).toEqual(big);
    if (E.isRight(r)) r.right.items.forEach((item, i) => expect(item).toBe(big[i]));
  });
});

describe("tools", () => {
  it("bad arguments and unknown ids are tool outputs, not throws", async () => {
    const cc = createAgentsCompaction({ manager });
    const [search, expand] = cc.tools;
    const ctx = new RunContext();
    expect(await search.invoke(ctx, JSON.stringify({ query: "" }))).toMatch(/^InvalidArguments: .*query/);
    expect(await expand.invoke(ctx, JSON.stringify({ id: "u-none", offset: null }))).toMatch(/^NotFound: /);
    expect(await expand.invoke(ctx, JSON.stringify({ id: "u-none", offset: -1 }))).toMatch(/^InvalidArguments: .*offset/);
  });

  it("expand pages long originals without splitting a surrogate pair", () => {
    expect(expandPage("hello", 0, 10)).toBe("hello");
    const text = `${"a".repeat(9)}😀${"b".repeat(10)}`;
    const first = JSON.parse(expandPage(text, 0, 10)) as { content: string; nextOffset: number; totalChars: number };
    expect(first.content).toBe("a".repeat(9));
    const second = JSON.parse(expandPage(text, first.nextOffset, 10)) as { content: string };
    expect(first.content + second.content).toBe(text.slice(0, first.content.length + second.content.length));
    expect(second.content.startsWith("😀")).toBe(true);
  });
});
