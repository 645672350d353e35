import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { entry, memoryIndex, type SegmentIndex } from "@cc/search";
import fc from "fast-check";
import { textPage } from "@cc/context";
import { decodeJournalToolOptions, journalTools, type JournalToolOptions, type JournalTools } from "@cc/context/compat";
import { runsFor } from "../../../.ci/support/runs.js";

/** The value of a `Right`, or a failure naming the `Left`. */
function right<A>(r: E.Either<unknown, A>): A {
  if (E.isLeft(r)) throw new Error(`expected Right, got Left ${JSON.stringify(r.left)}`);
  return r.right;
}

const numRuns = runsFor(200, 1000);

function tools(index: SegmentIndex, options: JournalToolOptions): JournalTools {
  const r = journalTools(index, options);
  if (E.isLeft(r)) throw new Error(r.left.message);
  return r.right;
}

/** Every page from offset 0 on, following nextOffset (at most text.length + 1 pages). */
function pagesOf(text: string, maxChars: number): { content: string; offset: number; nextOffset?: number }[] {
  const pages = [];
  let offset = 0;
  for (let guard = 0; guard <= text.length + 1; guard++) {
    const page = textPage(text, offset, maxChars);
    pages.push(page);
    if (page.nextOffset === undefined) return pages;
    offset = page.nextOffset;
  }
  throw new Error(`paging did not end: ${JSON.stringify(pages.slice(-3))}`);
}

/** Text with emoji, pairs, lone high and lone low surrogates and plain units mixed. */
const tricky = fc
  .array(
    fc.oneof(
      fc.string({ unit: "binary", maxLength: 6 }),
      fc.constantFrom("😀", "🔥🔥", "\uD800", "\uDC00", "\uDC00\uD800", "a", "é", "👩‍💻"),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(""));

async function setup() {
  const index = memoryIndex();
  right(
    await index.write([
      entry({
        id: "t1",
        namespace: "s1",
        kind: "tool_result",
        summary: "pytest failed: KeyError in src/reader.py",
        content: "E   KeyError: 'header'\n" + "🔥".repeat(10),
      }),
      entry({
        id: "t2",
        namespace: "other",
        kind: "tool_result",
        summary: "KeyError elsewhere",
        content: "secret of another session",
      }),
    ])(),
  );
  return { index, ...tools(index, { namespace: "s1", maxExpandChars: 8 }) };
}

describe("journal tools", () => {
  it("have the OpenAI function-calling shape with JSON-schema parameters", async () => {
    const { search, expand } = await setup();
    for (const tool of [search, expand]) {
      expect(tool.type).toBe("function");
      expect(tool.function.parameters.type).toBe("object");
      expect(tool.function.description.length).toBeGreaterThan(20);
      expect(JSON.parse(JSON.stringify({ type: tool.type, function: tool.function }))).toEqual({
        type: tool.type,
        function: tool.function,
      });
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
    expect(r.hits[0]).toEqual({
      id: "t1",
      kind: "tool_result",
      summary: "pytest failed: KeyError in src/reader.py",
      snippet: expect.stringContaining("**KeyError**") as unknown,
      tokens: 0,
    });
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
    expect(await err(search.execute("{not json")())).toMatchObject({
      _tag: "InvalidArguments",
      message: expect.stringContaining("malformed JSON") as unknown,
    });
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

  it("refuses page sizes and hit counts that would stall paging, and unknown keys, with a typed error", () => {
    const index = memoryIndex();
    for (const maxExpandChars of [0, Number.NaN, -5, 1.5, Infinity]) {
      expect(journalTools(index, { maxExpandChars }), String(maxExpandChars)).toMatchObject(
        E.left({
          _tag: "InvalidOptions",
          subject: "journal tool options",
          problems: [{ message: `maxExpandChars: expected an integer in 1..10000000, got ${String(maxExpandChars)}` }],
        }),
      );
    }
    expect(journalTools(index, { maxHits: 0 })).toMatchObject(
      E.left({ problems: [{ message: "maxHits: expected an integer in 1..1000, got 0" }] }),
    );
    expect(journalTools(index, { namespace: "" })).toMatchObject(
      E.left({ problems: [{ message: 'namespace: expected a non-empty string, got ""' }] }),
    );
    expect(decodeJournalToolOptions({ maxExpand: 10, max_hits: 2, colour: 1 })).toMatchObject(
      E.left({
        problems: [
          { message: "maxExpand is not an option; did you mean maxExpandChars?" },
          { message: "max_hits is not an option; did you mean maxHits?" },
          { message: "colour is not an option (known: namespace, maxExpandChars, maxHits)" },
        ],
      }),
    );
    expect(decodeJournalToolOptions({ maxExpandChars: undefined })).toEqual(
      E.right({ namespace: "default", maxExpandChars: 8000, maxHits: 20 }),
    );
  });

  it("journal_expand with maxChars 1 on an emoji returns the whole code point and advances", async () => {
    const { expand } = await setup();
    const emojiAt = "E   KeyError: 'header'\n".length;
    const first = right(await expand.execute({ id: "t1", offset: emojiAt, maxChars: 1 })());
    expect(first).toMatchObject({ content: "🔥", offset: emojiAt, nextOffset: emojiAt + 2 });
    const inside = right(await expand.execute({ id: "t1", offset: emojiAt + 1, maxChars: 1 })());
    expect(inside).toMatchObject({ content: "🔥", offset: emojiAt, nextOffset: emojiAt + 2 });
    expect(textPage("\uD800\uD800x", 0, 1)).toEqual({ content: "\uD800", offset: 0, nextOffset: 1 });
    expect(textPage("x\uDC00", 1, 1)).toEqual({ content: "\uDC00", offset: 1 });
  });

  it("property: following nextOffset from 0 advances strictly, ends, never splits a pair, and the pages concatenate to the text", () => {
    fc.assert(
      fc.property(tricky, fc.integer({ min: 1, max: 12 }), (text, maxChars) => {
        const pages = pagesOf(text, maxChars);
        expect(pages.map((p) => p.content).join("")).toBe(text);
        let last = -1;
        for (const page of pages) {
          expect(page.offset).toBeGreaterThan(last);
          last = page.offset;
          if (page.nextOffset !== undefined) {
            expect(page.nextOffset).toBeGreaterThan(page.offset);
            expect(page.content.length).toBeLessThanOrEqual(Math.max(maxChars, 2));
            const high = page.content.charCodeAt(page.content.length - 1);
            const next = text.charCodeAt(page.nextOffset);
            expect(high >= 0xd800 && high <= 0xdbff && next >= 0xdc00 && next <= 0xdfff).toBe(false);
          }
        }
      }),
      { numRuns },
    );
  });

  it("property: the journal_expand tool pages any stored text (lone surrogates included) back losslessly", async () => {
    await fc.assert(
      fc.asyncProperty(tricky, fc.integer({ min: 1, max: 9 }), async (text, maxChars) => {
        const index = memoryIndex();
        right(await index.write([entry({ id: "x", namespace: "p", content: text })])());
        const { expand } = tools(index, { namespace: "p", maxExpandChars: maxChars });
        let offset = 0;
        let joined = "";
        for (let guard = 0; guard <= text.length + 1; guard++) {
          const page = right(await expand.execute({ id: "x", offset })());
          joined += page.content;
          if (page.nextOffset === undefined) break;
          expect(page.nextOffset).toBeGreaterThan(offset);
          offset = page.nextOffset;
        }
        expect(joined).toBe(text);
      }),
      { numRuns: Math.ceil(numRuns / 4) },
    );
  });
});
