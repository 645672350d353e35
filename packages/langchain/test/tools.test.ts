// search_context / expand_context called directly: bad arguments and unknown ids are readable
// tool results, pages follow nextOffset back to the original; the RemoveMessage id agrees with LangGraph's.
import { createContextManager } from "@cc/context";
import { REMOVE_ALL_MESSAGES as LANGGRAPH_REMOVE_ALL } from "@langchain/langgraph";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { contextTools, REMOVE_ALL_MESSAGES } from "../src/index.js";
import { page } from "../src/tools.js";

const manager = createContextManager({ maxTokens: 200, preserveLast: 1, namespace: "tools" });
afterAll(() => manager.options.counter.dispose());

describe("contextTools", () => {
  const [search, expand] = contextTools(manager, { maxExpandChars: 50 });

  it("answers bad arguments and unknown ids with an error the model can read", async () => {
    expect(JSON.parse(String(await search.func({} as never)))).toEqual({ error: "query: expected string" });
    expect(JSON.parse(String(await search.func({ query: "x", k: 0 } as never))).error).toContain("k: expected an integer in 1..20");
    expect(JSON.parse(String(await expand.func({ id: "nope" } as never)))).toEqual({ error: 'no evicted context with id "nope"' });
    expect(JSON.parse(String(await expand.func({ id: "x", maxChars: 51 } as never))).error).toContain("maxChars");
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
    const hits = (JSON.parse(String(await search.func({ query: "test_parser" } as never))) as { hits: { id: string }[] }).hits;
    expect(hits.map((h) => h.id)).toContain(id);
    let text = "";
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const p = JSON.parse(String(await expand.func({ id, offset } as never))) as { content: string; nextOffset?: number };
      text += p.content;
      offset = p.nextOffset;
    }
    expect(text).toBe(await manager.expand(id));
    expect(text).toContain(original);
  });
});

describe("page", () => {
  it("following nextOffset from 0 returns the text exactly, never splitting a surrogate pair", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "é", "😀", "\ud800", "\n") , maxLength: 200 }), fc.integer({ min: 1, max: 20 }), (text, size) => {
        let out = "";
        let at: number | undefined = 0;
        while (at !== undefined) {
          const p = page(text, at, size);
          expect(p.content.length).toBeGreaterThan(text.length === 0 ? -1 : 0);
          out += p.content;
          at = p.nextOffset;
        }
        expect(out).toBe(text);
      }),
    );
  });
});

it("REMOVE_ALL_MESSAGES is LangGraph's", () => {
  expect(REMOVE_ALL_MESSAGES).toBe(LANGGRAPH_REMOVE_ALL);
});
