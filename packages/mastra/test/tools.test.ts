// The context tools are the manager's tool core in Mastra's tool type: the same names, texts and
// parameters as every face, results and errors as the values the model reads.
import { ContextManagerError, createContextManager } from "@cc/context";
import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { contextTools, type ContextExpandResult, type ContextSearchResult } from "@cc/mastra";
import { CONTEXT_TOOL_NAMES } from "../src/tools.js";

/** The JSON schema Mastra gives the model for a tool's input (its Standard Schema wrapper's draft-07 form). */
const jsonSchemaOf = (schema: unknown): Record<string, unknown> => {
  const { $schema: _version, ...rest } = (
    schema as { "~standard": { jsonSchema: { input(o: { target: string }): Record<string, unknown> } } }
  )["~standard"].jsonSchema.input({ target: "draft-07" });
  return rest;
};

describe("contextTools", () => {
  it("are the tool core's: names, descriptions and parameters", () => {
    const manager = createContextManager({ maxTokens: 4000 });
    const tools = contextTools(manager, { maxExpandChars: 3000 });
    const core = manager.tools({ maxExpandChars: 3000 });
    expect(CONTEXT_TOOL_NAMES).toEqual(["search_context", "expand_context"]);
    expect([tools.search_context.id, tools.search_context.description]).toEqual([
      core.search.name,
      core.search.description,
    ]);
    expect([tools.expand_context.id, tools.expand_context.description]).toEqual([
      core.expand.name,
      core.expand.description,
    ]);
    expect(jsonSchemaOf(tools.search_context.inputSchema)).toEqual(core.search.parameters);
    expect(jsonSchemaOf(tools.expand_context.inputSchema)).toEqual(core.expand.parameters);
    expect(tools.expand_context.description).toContain("up to 3000 characters per call");
  });

  it("bad options throw a ContextManagerError naming the field", () => {
    const manager = createContextManager({ maxTokens: 4000 });
    expect(() => contextTools(manager, { maxExpandChars: 0 })).toThrow(ContextManagerError);
    expect(() => contextTools(manager, { maxExpandChars: 0 })).toThrow(/maxExpandChars/);
  });

  it("return the core's values: hits (k, kinds), pages (offset, maxChars) and errors", async () => {
    const manager = createContextManager({ maxTokens: 4000 });
    const text = `${"lorem ipsum dolor KeyError ".repeat(40)}`;
    const evicted = await manager.evictToolResult(
      { toolCallId: "c1", toolName: "grep", content: text },
      { maxTokens: 50 },
    );
    const id = E.isRight(evicted) ? evicted.right?.id : undefined;
    expect(id).toMatch(/^r[0-9a-f]{32}$/);
    const tools = contextTools(manager);
    const ctx = {} as never;
    const found = (await tools.search_context.execute!(
      { query: "KeyError", k: 2, kinds: ["tool_result:grep"] },
      ctx,
    )) as ContextSearchResult;
    expect(found.hits?.map((h) => [h.id, h.kind])).toEqual([[id, "tool_result:grep"]]);
    expect(
      ((await tools.search_context.execute!({ query: "KeyError", kinds: ["message"] }, ctx)) as ContextSearchResult)
        .hits,
    ).toEqual([]);
    const page = (await tools.expand_context.execute!({ id, offset: 6, maxChars: 5 }, ctx)) as ContextExpandResult;
    expect(page).toEqual({
      id,
      kind: "tool_result:grep",
      content: text.slice(6, 11),
      offset: 6,
      totalChars: text.length,
      nextOffset: 11,
    });
    expect(await tools.expand_context.execute!({ id: "u-none" }, ctx)).toEqual({
      error: { _tag: "NotFound", message: 'expand_context: no evicted entry with id "u-none"' },
    });
    // Optional arguments may be null (the default).
    expect(await tools.expand_context.execute!({ id, offset: null, maxChars: null }, ctx)).toMatchObject({
      id,
      offset: 0,
      content: text,
    });
    // An argument out of bounds is refused by the core, by name, with the text every face gives
    // (Mastra's own schema check, which answers with its own text, never runs first).
    expect(await tools.expand_context.execute!({ id, maxChars: 0 }, ctx)).toEqual({
      error: {
        _tag: "InvalidArguments",
        message: "invalid expand_context arguments: maxChars: expected an integer in [1, 8000], got 0",
      },
    });
  });
});
