import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { entry } from "../src/search/index.js";
import { memoryIndex } from "../src/search/memory.js";
import { journalTools } from "../src/tools.js";
import { right } from "./support/contract.js";

async function setup() {
  const index = memoryIndex();
  right(
    await index.write([
      entry({ id: "t1", namespace: "s1", kind: "tool_result", summary: "pytest failed: KeyError in src/reader.py", content: "E   KeyError: 'header'\n" + "🔥".repeat(10) }),
      entry({ id: "t2", namespace: "other", kind: "tool_result", summary: "KeyError elsewhere", content: "secret of another session" }),
    ])(),
  );
  return { index, ...journalTools(index, { namespace: "s1", maxExpandChars: 8 }) };
}

describe("journal tools", () => {
  it("have the OpenAI function-calling shape with JSON-schema parameters", async () => {
    const { search, expand } = await setup();
    for (const tool of [search, expand]) {
      expect(tool.type).toBe("function");
      expect(tool.function.parameters.type).toBe("object");
      expect(tool.function.description.length).toBeGreaterThan(20);
      expect(JSON.parse(JSON.stringify({ type: tool.type, function: tool.function }))).toEqual({ type: tool.type, function: tool.function });
    }
    expect(search.function.name).toBe("journal_search");
    expect(search.function.parameters.required).toEqual(["query"]);
    expect(expand.function.name).toBe("journal_expand");
    expect(expand.function.parameters.required).toEqual(["id"]);
  });

  it("journal_search takes the model's raw JSON and stays in its namespace", async () => {
    const { search } = await setup();
    const r = right(await search.execute('{"query":"KeyError","k":5}')());
    expect(r.hits.map((h) => h.id)).toEqual(["t1"]);
    expect(r.hits[0]).toEqual({ id: "t1", kind: "tool_result", summary: "pytest failed: KeyError in src/reader.py", snippet: expect.stringContaining("**KeyError**") as unknown, tokenCost: 0 });
    expect(right(await search.execute({ query: "KeyError", kinds: ["file"] })()).hits).toEqual([]);
  });

  it("journal_expand pages the original without splitting a surrogate pair", async () => {
    const { expand } = await setup();
    let offset = 0;
    let text = "";
    for (let guard = 0; guard < 100; guard++) {
      const page = right(await expand.execute({ id: "t1", offset })());
      text += page.content;
      if (page.nextOffset === undefined) break;
      expect(page.content.length).toBeLessThanOrEqual(8);
      expect(/[\uD800-\uDBFF]$/.test(page.content)).toBe(false);
      offset = page.nextOffset;
    }
    expect(text).toBe("E   KeyError: 'header'\n" + "🔥".repeat(10));
  });

  it("returns typed errors for malformed JSON, missing or bad arguments, unknown ids and a closed index", async () => {
    const { search, expand, index } = await setup();
    const err = async (p: Promise<E.Either<{ _tag: string; message: string }, unknown>>) => {
      const r = await p;
      if (E.isRight(r)) throw new Error("expected Left");
      return r.left;
    };
    expect(await err(search.execute("{not json")())).toMatchObject({ _tag: "InvalidArguments", message: expect.stringContaining("malformed JSON") as unknown });
    expect((await err(search.execute({})())).message).toContain("query");
    expect((await err(search.execute({ query: "x", k: 0 })())).message).toContain("k");
    expect((await err(search.execute({ query: "x", k: 2.5 })())).message).toContain("k");
    expect((await err(search.execute({ query: 5 })())).message).toContain("query");
    expect((await err(search.execute(null)())).message).toContain("arguments");
    expect((await err(expand.execute({ id: "t1", offset: -1 })())).message).toContain("offset");
    expect((await err(expand.execute({ id: "t1", maxChars: 1e9 })())).message).toContain("maxChars");
    expect(await err(expand.execute({ id: "t2" })())).toMatchObject({ _tag: "NotFound" });
    right(await index.close()());
    expect(await err(search.execute({ query: "KeyError" })())).toMatchObject({ _tag: "IndexFailed" });
  });
});
