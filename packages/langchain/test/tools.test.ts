// search_context / expand_context called directly: bad arguments and unknown ids are readable
// tool results, pages follow nextOffset back to the original; the RemoveMessage id agrees with LangGraph's.
import { createContextManager } from "@cc/context";
import { REMOVE_ALL_MESSAGES as LANGGRAPH_REMOVE_ALL } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { contextTools, REMOVE_ALL_MESSAGES } from "../src/index.js";

const manager = createContextManager({ maxTokens: 200, preserveLast: 1, namespace: "tools" });
afterAll(() => manager.options.counter.dispose());

describe("contextTools", () => {
  const [search, expand] = contextTools(manager, { maxExpandChars: 50 });

  it("answers bad arguments and unknown ids with an error the model can read", async () => {
    const error = async (r: unknown): Promise<{ _tag: string; message: string }> =>
      (JSON.parse(String(await (r as Promise<unknown>))) as { error: { _tag: string; message: string } }).error;
    expect(await error(search.func({} as never))).toMatchObject({
      _tag: "InvalidArguments",
      message: expect.stringContaining("query") as unknown,
    });
    expect((await error(search.func({ query: "x", k: 0 } as never))).message).toContain(
      "k: expected an integer in [1, 50]",
    );
    expect(await error(expand.func({ id: "nope" } as never))).toEqual({
      _tag: "NotFound",
      message: 'expand_context: no evicted entry with id "nope"',
    });
    expect((await error(expand.func({ id: "x", maxChars: 51 } as never))).message).toContain("maxChars");
  });

  it("finds an evicted unit and pages its original back exactly", async () => {
    const original = "pytest output: 3 failed in tests/test_parser.py — ".repeat(30);
    const turn = await manager.compact([
      { role: "user", content: "run the tests" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: '{"cmd":"pytest"}' }] },
      { role: "tool", toolCallId: "c1", content: original },
      { role: "user", content: "and now?" },
    ]);
    const id = turn.evicted[0]!.id;
    const hits = (
      JSON.parse(String(await search.func({ query: "test_parser" } as never))) as { hits: { id: string }[] }
    ).hits;
    expect(hits.map((h) => h.id)).toContain(id);
    let text = "";
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const p = JSON.parse(String(await expand.func({ id, offset } as never))) as {
        content: string;
        nextOffset?: number;
      };
      text += p.content;
      offset = p.nextOffset;
    }
    expect(text).toBe(await manager.expand(id));
    expect(text).toContain(original);
  });
});

it("REMOVE_ALL_MESSAGES is LangGraph's", () => {
  expect(REMOVE_ALL_MESSAGES).toBe(LANGGRAPH_REMOVE_ALL);
});
