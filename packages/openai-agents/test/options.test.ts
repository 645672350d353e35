// Bad options are typed errors; a throwing callback is caught and reported; a failed turn is a
// typed value (compactItems) or a typed rejection (the filter); tool failures are tool outputs.
import { createContextManager, strictParameters, type ContextManagerOptions } from "@cc/context";
import { RunContext, type AgentInputItem } from "@openai/agents";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { AgentsCompactionError, createAgentsCompaction, decodeAgentsCompaction } from "../src/index.js";
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
    const history = [
      ...big,
      ...big.map((i) => ({ ...i, ...("callId" in i ? { callId: `${i.callId}b` } : {}) }) as AgentInputItem),
    ];
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
    for (const onReport of [
      () => {
        throw new Error("boom");
      },
      () => Promise.reject(new Error("late boom")),
    ]) {
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
    const cc = createAgentsCompaction({
      manager: createContextManager({ maxTokens: 400, preserveLast: 1, noteTokens: 60, index: refusing }),
    });
    const r = await cc.compactItems(big)();
    expect(E.isLeft(r) && r.left._tag).toBe("IndexWriteFailed");
    const filtered = Promise.resolve(
      cc.callModelInputFilter({ modelData: { input: big }, agent: undefined as never, context: undefined }),
    );
    await expect(filtered).rejects.toMatchObject({
      name: "CcError",
      _tag: "IndexWriteFailed",
      error: { _tag: "IndexWriteFailed" },
    });
    const inner = {
      getSessionId: async () => "s",
      getItems: async () => big,
      addItems: async () => undefined,
      popItem: async () => undefined,
      clearSession: async () => undefined,
    };
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
  const errorOf = (text: string): { readonly _tag: string; readonly message: string } =>
    (JSON.parse(text) as { error: { _tag: string; message: string } }).error;

  it("bad arguments and unknown ids are tool outputs, not throws", async () => {
    const cc = createAgentsCompaction({ manager });
    const [search, expand] = cc.tools;
    const ctx = new RunContext();
    const noQuery = errorOf(await search.invoke(ctx, JSON.stringify({ k: null, kinds: null })));
    expect(noQuery._tag).toBe("InvalidArguments");
    expect(noQuery.message).toMatch(/query/);
    expect(errorOf(await search.invoke(ctx, JSON.stringify({ query: "x", k: 0, kinds: null })))).toMatchObject({
      _tag: "InvalidArguments",
      message: expect.stringMatching(/k/) as unknown,
    });
    expect(errorOf(await expand.invoke(ctx, JSON.stringify({ id: "u-none", offset: null, maxChars: null })))).toEqual({
      _tag: "NotFound",
      message: 'expand_context: no evicted entry with id "u-none"',
    });
    const badOffset = errorOf(await expand.invoke(ctx, JSON.stringify({ id: "u-none", offset: -1, maxChars: null })));
    expect(badOffset._tag).toBe("InvalidArguments");
    expect(badOffset.message).toMatch(/offset/);
  });

  it("are the tool core's, in strict-mode form: names, descriptions, every parameter required, optional ones nullable", () => {
    const cc = createAgentsCompaction({ manager, maxExpandChars: 4000 });
    const [search, expand] = cc.tools;
    const core = manager.tools({ defaultK: 5, maxHits: 50, maxExpandChars: 4000 });
    expect([search.name, search.description, search.strict]).toEqual([core.search.name, core.search.description, true]);
    expect([expand.name, expand.description, expand.strict]).toEqual([core.expand.name, core.expand.description, true]);
    expect(search.parameters).toEqual(strictParameters(core.search.parameters));
    expect(expand.parameters).toEqual(strictParameters(core.expand.parameters));
    expect(search.parameters.required).toEqual(["query", "k", "kinds"]);
    expect(expand.parameters.required).toEqual(["id", "offset", "maxChars"]);
    expect(expand.parameters.properties.maxChars).toMatchObject({ type: ["integer", "null"], maximum: 4000 });
  });

  it("search takes k (more hits than maxHits, the default) and kinds", async () => {
    const m = createContextManager({ maxTokens: 400, preserveLast: 1, noteTokens: 60 });
    const cc = createAgentsCompaction({ manager: m, maxHits: 1 });
    const r = await cc.compactItems(big, "Be brief.")();
    expect(E.isRight(r) && r.right.report.turn.evicted.length).toBeGreaterThan(1);
    const [search] = cc.tools;
    const ctx = new RunContext();
    const hitsOf = async (args: object): Promise<readonly { readonly kind: string }[]> =>
      (JSON.parse(await search.invoke(ctx, JSON.stringify(args))) as { hits: { kind: string }[] }).hits;
    expect(await hitsOf({ query: "read_file py", k: null, kinds: null })).toHaveLength(1);
    expect((await hitsOf({ query: "read_file py", k: 5, kinds: null })).length).toBeGreaterThan(1);
    expect(await hitsOf({ query: "read_file py", k: 5, kinds: ["no-such-kind"] })).toEqual([]);
  });

  it("expand returns JSON pages, short originals too, that never split a surrogate pair and join to the original", async () => {
    const m = createContextManager({ maxTokens: 4000 });
    const text = `${"a".repeat(9)}😀${"b".repeat(10)} ${"lorem ipsum dolor ".repeat(60)}`;
    const evicted = await m.evictToolResult(
      { toolCallId: "c1", toolName: "read_file", content: text },
      { maxTokens: 50 },
    );
    const id = E.isRight(evicted) ? evicted.right?.id : undefined;
    expect(id).toBeDefined();
    const [, expand] = createAgentsCompaction({ manager: m, maxExpandChars: 10 }).tools;
    const ctx = new RunContext();
    type Page = {
      readonly content: string;
      readonly offset: number;
      readonly totalChars: number;
      readonly nextOffset?: number;
    };
    const pageAt = async (offset: number | null): Promise<Page> =>
      JSON.parse(await expand.invoke(ctx, JSON.stringify({ id, offset, maxChars: null }))) as Page;
    const first = await pageAt(null);
    expect(first).toMatchObject({ content: "a".repeat(9), offset: 0, totalChars: text.length, nextOffset: 9 });
    expect((await pageAt(9)).content.startsWith("😀")).toBe(true);
    // Inside the pair, the page starts at the pair.
    expect((await pageAt(10)).offset).toBe(9);
    let joined = "";
    for (let at: number | undefined = 0; at !== undefined;) {
      const page: Page = await pageAt(at);
      expect(page.content.length).toBeLessThanOrEqual(10);
      joined += page.content;
      at = page.nextOffset;
    }
    expect(joined).toBe(text);
    // A short original is a page too (no raw-text shortcut): the whole content, no next page.
    const short = await m.evictToolResult(
      { toolCallId: "c2", toolName: "read_file", content: "lorem ipsum dolor ".repeat(30) },
      { maxTokens: 50 },
    );
    const shortId = E.isRight(short) ? short.right?.id : undefined;
    const [, wide] = createAgentsCompaction({ manager: m }).tools;
    const whole = JSON.parse(
      await wide.invoke(ctx, JSON.stringify({ id: shortId, offset: null, maxChars: null })),
    ) as Page;
    expect(whole).toEqual({
      id: shortId,
      kind: "tool_result:read_file",
      content: "lorem ipsum dolor ".repeat(30),
      offset: 0,
      totalChars: 540,
    });
  });
});
