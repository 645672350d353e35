// The one tool core every face wraps: arguments decoded at the boundary (raw JSON or objects,
// null for "default", unknown fields refused by name), confinement to a namespace, one error
// shape and text, the strict-mode parameters, paging that reads every original exactly once.
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import {
  CONTEXT_TOOL_NAMES,
  contextToolCore,
  contextToolDefinitions,
  strictParameters,
  toolReply,
  type ContextToolCore,
} from "@cc/context";
import { entry, memoryIndex, type SegmentIndex } from "@cc/search";

function core(index: SegmentIndex, options: Parameters<typeof contextToolCore>[1] = {}): ContextToolCore {
  const c = contextToolCore(index, options);
  if (E.isLeft(c)) throw new Error(c.left.message);
  return c.right;
}

async function written(): Promise<SegmentIndex> {
  const index = memoryIndex();
  const r = await index.write([
    entry({
      id: "t1",
      namespace: "s1",
      kind: "tool_result",
      summary: "pytest failed: KeyError in src/reader.py",
      content: "E   KeyError: 'header'\n" + "x".repeat(100),
      tokenCost: 40,
    }),
    entry({
      id: "t2",
      namespace: "s2",
      kind: "tool_result",
      summary: "KeyError elsewhere",
      content: "secret of another session",
    }),
  ])();
  if (E.isLeft(r)) throw new Error(r.left._tag);
  return index;
}

describe("the tool core", () => {
  it("names, descriptions and parameters are the same with or without an index", async () => {
    const c = core(await written(), { namespace: "s1", maxExpandChars: 500 });
    const d = contextToolDefinitions({ namespace: "s1", maxExpandChars: 500 });
    if (E.isLeft(d)) throw new Error(d.left.message);
    for (const k of ["search", "expand"] as const) {
      expect({ name: c[k].name, description: c[k].description, parameters: c[k].parameters }).toEqual(d.right[k]);
    }
    expect([c.search.name, c.expand.name]).toEqual([CONTEXT_TOOL_NAMES.search, CONTEXT_TOOL_NAMES.expand]);
    expect(c.expand.description).toContain("up to 500 characters per call");
    expect(Object.keys(c.search.parameters.properties ?? {})).toEqual(["query", "k", "kinds"]);
    expect(Object.keys(c.expand.parameters.properties ?? {})).toEqual(["id", "offset", "maxChars"]);
  });

  it("confined: finds and pages its own namespace only; naming it is served, naming another refused by name", async () => {
    const c = core(await written(), { namespace: "s1", maxExpandChars: 10 });
    const hits = await c.search.run('{"query":"KeyError","k":null,"kinds":null}');
    expect(hits).toEqual(
      E.right({
        hits: [
          {
            id: "t1",
            kind: "tool_result",
            summary: "pytest failed: KeyError in src/reader.py",
            snippet: expect.stringContaining("**KeyError**") as unknown,
            tokens: 40,
          },
        ],
      }),
    );
    expect(await c.expand.run({ id: "t1", offset: null, maxChars: null })).toEqual(
      E.right({ id: "t1", kind: "tool_result", content: "E   KeyErr", offset: 0, totalChars: 123, nextOffset: 10 }),
    );
    expect(E.isRight(await c.search.run({ query: "KeyError", namespace: "s1" }))).toBe(true);
    const other = await c.expand.run({ id: "t2", namespace: "s2" });
    expect(toolReply(other).value).toEqual({
      error: {
        _tag: "InvalidArguments",
        message: 'invalid expand_context arguments: namespace: these tools serve only namespace "s1", got "s2"',
      },
    });
    expect(toolReply(await c.expand.run({ id: "t2" })).value).toEqual({
      error: { _tag: "NotFound", message: 'expand_context: no evicted entry with id "t2"' },
    });
  });

  it("open: takes a namespace argument and says which namespace a hit is in", async () => {
    const c = core(await written());
    expect(Object.keys(c.search.parameters.properties ?? {})).toContain("namespace");
    const r = await c.search.run({ query: "KeyError" });
    expect(E.isRight(r) && r.right.hits.map((h) => [h.id, h.namespace]).sort()).toEqual([
      ["t1", "s1"],
      ["t2", "s2"],
    ]);
    expect(E.isRight(await c.expand.run({ id: "t2", namespace: "s2" }))).toBe(true);
    expect(toolReply(await c.expand.run({ id: "t2" })).value).toEqual({
      error: { _tag: "NotFound", message: 'expand_context: no evicted entry with id "t2" in namespace "default"' },
    });
  });

  it("bad arguments are InvalidArguments naming the field; a closed or throwing index is IndexFailed — never a rejection", async () => {
    const index = await written();
    const c = core(index, { namespace: "s1" });
    const message = async (p: Promise<E.Either<{ readonly message: string }, unknown>>): Promise<string> => {
      const r = await p;
      return E.isLeft(r) ? r.left.message : "no error";
    };
    expect(await message(c.search.run("{not json"))).toMatch(/malformed JSON/);
    expect(await message(c.search.run({}))).toMatch(/query/);
    expect(await message(c.search.run({ query: "x", k: 0 }))).toMatch(/k: expected an integer in \[1, 50\]/);
    expect(await message(c.search.run({ query: "x", colour: 1 }))).toMatch(/colour: unknown field/);
    expect(await message(c.search.run([]))).toMatch(/arguments/);
    expect(await message(c.expand.run({ id: "t1", offset: -1 }))).toMatch(/offset/);
    expect(await message(c.expand.run({ id: "t1", maxChars: 8001 }))).toMatch(/maxChars/);
    const throwing = core(
      {
        ...index,
        search: () => {
          throw new Error("boom");
        },
      },
      { namespace: "s1" },
    );
    expect(toolReply(await throwing.search.run({ query: "x" })).value).toEqual({
      error: { _tag: "IndexFailed", message: "search_context: the index failed (it threw: boom)" },
    });
    await index.close()();
    expect(await message(c.search.run({ query: "KeyError" }))).toMatch(
      /^search_context: the index failed \(IndexClosed/,
    );
  });

  it("options are decoded: limits that would stall paging and unknown keys are refused", () => {
    const index = memoryIndex();
    for (const bad of [
      { maxExpandChars: 0 },
      { maxHits: Number.NaN },
      { defaultK: 6, maxHits: 5 },
      { defaultExpandChars: 9000 },
      { colour: 1 },
      { namespace: "" },
    ]) {
      expect(E.isLeft(contextToolCore(index, bad as never)), JSON.stringify(bad)).toBe(true);
    }
  });

  it("toolReply: the value the model reads and its JSON", () => {
    expect(toolReply(E.right({ hits: [] }))).toEqual({ value: { hits: [] }, text: '{"hits":[]}', isError: false });
    expect(toolReply(E.left({ _tag: "NotFound", subject: "expand_context", problems: [], message: "m" })).text).toBe(
      '{"error":{"_tag":"NotFound","message":"m"}}',
    );
  });

  it("property: strict parameters require every property and make exactly the optional ones nullable", () => {
    const defs = contextToolDefinitions({});
    if (E.isLeft(defs)) throw new Error(defs.left.message);
    for (const d of [defs.right.search, defs.right.expand]) {
      const s = strictParameters(d.parameters);
      expect(s.required).toEqual(Object.keys(d.parameters.properties ?? {}));
      for (const [name, p] of Object.entries(s.properties ?? {})) {
        const optional = !(d.parameters.required ?? []).includes(name);
        expect(Array.isArray(p.type), name).toBe(optional);
      }
    }
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        (names, req) => {
          const schema = {
            type: "object" as const,
            properties: Object.fromEntries(names.map((n) => [n, { type: "string" as const }])),
            required: names.filter((_, i) => req[i]),
          };
          const s = strictParameters(schema);
          expect([...(s.required ?? [])].sort()).toEqual([...names].sort());
          for (const n of names)
            expect(s.properties?.[n]?.type).toEqual(schema.required.includes(n) ? "string" : ["string", "null"]);
        },
      ),
    );
  });

  it("property: expand_context pages any original back exactly, following nextOffset", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom("a", "é", "😀", "\ud800", "\udc00", "\n"), maxLength: 120 }),
        fc.integer({ min: 1, max: 9 }),
        async (text, maxChars) => {
          const index = memoryIndex();
          await index.write([entry({ id: "x", namespace: "p", content: text })])();
          const c = core(index, { namespace: "p", maxExpandChars: maxChars });
          let offset: number | undefined = 0;
          let joined = "";
          for (let guard = 0; offset !== undefined && guard <= text.length + 1; guard++) {
            const page = await c.expand.run(JSON.stringify({ id: "x", offset }));
            if (E.isLeft(page)) throw new Error(page.left.message);
            joined += page.right.content;
            offset = page.right.nextOffset;
          }
          expect(joined).toBe(text);
        },
      ),
      { numRuns: 100 },
    );
  });
});
