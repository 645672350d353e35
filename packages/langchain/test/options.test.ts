// Bad options are refused with the one error shape; at run time every failure is a typed value
// given to onError (a throwing callback included) and the agent run goes on.
import { createContextManager, type ContextManager, type ContextManagerOptions } from "@cc/context";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import * as E from "fp-ts/lib/Either.js";
import { createAgent, tool } from "langchain";
import { afterAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  compactionMiddleware,
  CompactionMiddlewareOptionsError,
  decodeCompactionMiddleware,
  decodeCompactionMiddlewareOptions,
  type CompactionMiddlewareError,
} from "../src/index.js";
import { promptTokens, textOf } from "./support.js";

let first: ContextManager | undefined;
function manager(extra: Partial<ContextManagerOptions> = {}): ContextManager {
  const m = createContextManager({
    maxTokens: 400,
    preserveLast: 1,
    ...(first === undefined ? {} : { counter: first.options.counter }),
    ...extra,
  });
  first ??= m;
  return m;
}
afterAll(() => first?.options.counter.dispose());

const problems = (input: unknown): readonly string[] => {
  const r = decodeCompactionMiddleware(input);
  if (E.isRight(r)) throw new Error("expected a Left");
  expect(r.left._tag).toBe("InvalidOptions");
  expect(r.left.subject).toBe("compaction middleware options");
  return r.left.problems.map((p) => p.message);
};

describe("options", () => {
  it("refuses unknown keys with a did-you-mean, bad numbers, a bad mode, a missing or fake manager, a non-object", () => {
    const m = manager();
    expect(problems({ manager: m, mdoe: "state" }).join()).toContain("did you mean mode?");
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -1, 1.5, "10"])
      expect(problems({ manager: m, maxToolResultTokens: bad }).join()).toContain("maxToolResultTokens");
    expect(problems({ manager: m, maxExpandChars: 0 }).join()).toContain("maxExpandChars");
    expect(problems({ manager: m, mode: "sate" }).join()).toContain("mode");
    expect(problems({ manager: m, onTurn: "log" }).join()).toContain("onTurn");
    expect(problems({}).join()).toContain("give exactly one of maxTokens and manager, got neither");
    expect(problems({ manager: m, maxTokens: 2000 }).join()).toContain(
      "give exactly one of maxTokens and manager, got both",
    );
    for (const bad of [0, -5, Number.NaN, 1.5]) expect(problems({ maxTokens: bad }).join()).toContain("maxTokens");
    expect(problems({ manager: { compact: () => 1 } }).join()).toContain("a context manager");
    for (const bad of [null, "x", [], 3]) expect(problems(bad).length).toBeGreaterThan(0);
  });

  it("maxTokens alone: one manager per thread with that budget, the thread id as its namespace", () => {
    const r = decodeCompactionMiddlewareOptions({ maxTokens: 2000 });
    if (E.isLeft(r)) throw new Error(r.left.message);
    const factory = r.right.manager;
    if (typeof factory !== "function") throw new Error("expected a per-thread factory");
    const t1 = factory("t1");
    expect(t1.options.maxTokens).toBe(2000);
    expect(t1.options.namespace).toBe("t1");
    expect(factory("t2").options.namespace).toBe("t2");
    t1.options.counter.dispose();
  });

  it("compactionMiddleware throws a CompactionMiddlewareOptionsError carrying the typed error", () => {
    const m = manager();
    let caught: unknown;
    try {
      compactionMiddleware({ manager: m, maxToolResultTokens: Number.NaN });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CompactionMiddlewareOptionsError);
    expect((caught as CompactionMiddlewareOptionsError).error.problems[0]?.path).toBe("maxToolResultTokens");
  });

  it("fills in the defaults: mode model, a quarter of the budget for tool results, tools on", () => {
    const m = manager();
    const r = decodeCompactionMiddleware({ manager: m });
    expect(E.isRight(r)).toBe(true);
    if (E.isRight(r))
      expect(r.right.tools?.map((t) => (t as { name: string }).name)).toEqual(["search_context", "expand_context"]);
    expect(decodeCompactionMiddleware({ manager: m, tools: false })).toMatchObject({
      _tag: "Right",
      right: { tools: undefined },
    });
  });
});

const big = "all work and no play makes jack a dull boy\n".repeat(120);
async function runAgent(middleware: ReturnType<typeof compactionMiddleware>, text = big) {
  const shout = tool(async () => text, { name: "shout", description: "Shout", schema: z.object({}) });
  const model = fakeModel()
    .respond(new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "shout", args: {}, type: "tool_call" }] }))
    .respond(new AIMessage("quiet now"));
  const agent = createAgent({
    model,
    tools: [shout],
    systemPrompt: "Be brief.",
    middleware: [middleware],
    checkpointer: new MemorySaver(),
  });
  const out = await agent.invoke(
    { messages: [new HumanMessage("earlier ".repeat(300)), new AIMessage("noted"), new HumanMessage("shout")] },
    { configurable: { thread_id: "t" } },
  );
  return { model, out };
}

describe("run-time failures are typed values and the run goes on", () => {
  it("a throwing and a rejecting onTurn are reported as CallbackFailed", async () => {
    const errors: CompactionMiddlewareError[] = [];
    let calls = 0;
    const onTurn = async (): Promise<void> => {
      calls++;
      if (calls === 1) throw new Error("boom");
      await Promise.reject(new Error("later boom"));
    };
    const { out } = await runAgent(
      compactionMiddleware({ manager: manager({ namespace: "cb" }), onTurn, onError: (e) => void errors.push(e) }),
    );
    expect(textOf(out.messages.at(-1)!)).toBe("quiet now");
    expect(errors.map((e) => [e._tag, e.subject, e.message])).toEqual([
      ["CallbackFailed", "onTurn", "onTurn threw: boom"],
      ["CallbackFailed", "onTurn", "onTurn threw: later boom"],
    ]);
  });

  it("an onError that throws falls back to console.warn", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      await runAgent(
        compactionMiddleware({
          manager: manager({ namespace: "warn" }),
          onToolResultEvicted: () => {
            throw new Error("cb");
          },
          onError: () => {
            throw new Error("sink down");
          },
        }),
      );
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining("onToolResultEvicted threw: cb (and onError threw: sink down)"),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("an index that refuses writes: CompactionFailed and ToolResultNotEvicted, the model still answers with the whole result", async () => {
    const refused = { _tag: "StorageError" as const, backend: "broken", operation: "write", message: "disk full" };
    const index: NonNullable<ContextManagerOptions["index"]> = {
      backend: "broken",
      write: () => async () => E.left(refused),
      search: () => async () => E.right([]),
      expand: () => async () => E.right(undefined),
      deleteNamespace: () => async () => E.right(0),
      count: () => async () => E.right(0),
      close: () => async () => E.right(undefined),
    };
    const errors: CompactionMiddlewareError[] = [];
    const m = manager({ index, namespace: "broken" });
    const { model, out } = await runAgent(compactionMiddleware({ manager: m, onError: (e) => void errors.push(e) }));
    expect(textOf(out.messages.at(-1)!)).toBe("quiet now");
    const tags = errors.map((e) => e._tag);
    expect(tags).toContain("CompactionFailed");
    expect(tags).toContain("ToolResultNotEvicted");
    const failed = errors.find((e) => e._tag === "CompactionFailed");
    expect(failed?._tag === "CompactionFailed" ? failed.error._tag : "").toBe("IndexWriteFailed");
    // The result stayed whole, and the model got the uncompacted view (over the budget).
    const result = out.messages.find((x): x is ToolMessage => ToolMessage.isInstance(x))!;
    expect(textOf(result)).toBe(big);
    expect(promptTokens(m, model.calls[1]!.messages)).toBeGreaterThan(400);
  });
});

it("a result over a limit so small that the pointer would not be shorter stays whole", async () => {
  const small = "twenty or so tokens of output from a tool that says very little at all";
  const evicted: string[] = [];
  const { out } = await runAgent(
    compactionMiddleware({
      manager: manager({ maxTokens: 100_000, namespace: "tiny" }),
      maxToolResultTokens: 5,
      onToolResultEvicted: (e) => void evicted.push(e.id),
    }),
    small,
  );
  expect(textOf(out.messages.find((x): x is ToolMessage => ToolMessage.isInstance(x))!)).toBe(small);
  expect(evicted).toEqual([]);
});

it("a counter that throws: the turn and the tool result are reported, the run goes on with the whole result", async () => {
  const broken = {
    count: (): number => {
      throw new Error("tokenizer gone");
    },
    countMessages: (): number => {
      throw new Error("tokenizer gone");
    },
    encoding: "o200k_base" as const,
    dispose: () => undefined,
  };
  const errors: CompactionMiddlewareError[] = [];
  const { out } = await runAgent(
    compactionMiddleware({
      manager: manager({ counter: broken, namespace: "broken-counter" }),
      onError: (e) => void errors.push(e),
    }),
  );
  expect(textOf(out.messages.at(-1)!)).toBe("quiet now");
  expect(textOf(out.messages.find((x): x is ToolMessage => ToolMessage.isInstance(x))!)).toBe(big);
  expect(errors.map((e) => e._tag)).toEqual(["CompactionFailed", "ToolResultNotEvicted", "CompactionFailed"]);
  expect(errors[1]?.message).toContain("tokenizer gone");
});
