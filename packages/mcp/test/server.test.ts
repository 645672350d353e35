// The MCP server over an in-memory index, driven by a real SDK Client through the SDK's linked
// in-memory transport pair.
import { entry, memoryIndex, type IndexEntry, type SegmentIndex } from "@cc/search";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { CcError } from "@cc/validate";
import { afterEach, describe, expect, it } from "vitest";
import { createIndexServer, decodeIndexServerOptions, type IndexServerOptions } from "../src/index.js";

const ORIGINAL = "Traceback: ValueError in src/app.py line 42 😀 数据压缩 lone \uD800 end \uDC00!";

const ENTRIES: readonly IndexEntry[] = [
  entry({
    id: "seg-1",
    kind: "tool_result",
    summary: "pytest run: ValueError in src/app.py",
    content: ORIGINAL,
    tokenCost: 30,
  }),
  entry({ id: "seg-2", kind: "file", summary: "read README.md about installation", content: "# Install\nnpm install" }),
  entry({
    id: "seg-3",
    namespace: "other",
    kind: "message",
    summary: "ValueError discussed in another session",
    content: "other namespace original",
  }),
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function written(entries: readonly IndexEntry[] = ENTRIES): Promise<SegmentIndex> {
  const index = memoryIndex();
  const w = await index.write(entries)();
  if (E.isLeft(w)) throw new Error(JSON.stringify(w.left));
  return index;
}

async function connect(index: SegmentIndex, options: IndexServerOptions = {}): Promise<Client> {
  const server = createIndexServer(index, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  await client.listTools(); // the client checks structured content against the output schemas it listed
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
/** The message of a tool error: the model reads `{ "error": { _tag, message } }` from every face. */
const errorOf = (r: CallToolResult): string => (JSON.parse(textOf(r)) as { error: { message: string } }).error.message;

describe("createIndexServer", () => {
  it("lists search_context and expand_context with their input schemas", async () => {
    const client = await connect(await written());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_context", "expand_context"]);
    expect(tools[0]?.inputSchema.required).toEqual(["query"]);
    expect(tools[1]?.inputSchema.required).toEqual(["id"]);
    expect(tools[0]?.outputSchema).toBeDefined();
  });

  it("search_context finds written entries, as JSON text and structured content", async () => {
    const client = await connect(await written());
    const r = await call(client, "search_context", { query: "ValueError app.py" });
    expect(r.isError).not.toBe(true);
    const hits = (
      r.structuredContent as {
        hits: { id: string; namespace: string; kind: string; summary: string; snippet: string; tokens: number }[];
      }
    ).hits;
    expect(hits.map((h) => h.id)).toContain("seg-1");
    const first = hits.find((h) => h.id === "seg-1")!;
    expect(first).toMatchObject({
      namespace: "default",
      kind: "tool_result",
      summary: "pytest run: ValueError in src/app.py",
    });
    expect(Object.keys(first).sort()).toEqual(["id", "kind", "namespace", "snippet", "summary", "tokens"]);
    expect(first.snippet).not.toBe("");
    expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
  });

  it("search_context honours k and namespace", async () => {
    const client = await connect(await written());
    const one = await call(client, "search_context", { query: "ValueError", k: 1 });
    expect((one.structuredContent as { hits: unknown[] }).hits).toHaveLength(1);
    const other = await call(client, "search_context", { query: "ValueError", namespace: "other" });
    expect((other.structuredContent as { hits: { id: string }[] }).hits.map((h) => h.id)).toEqual(["seg-3"]);
  });

  it("expand_context returns the original text unchanged: emoji, CJK and lone surrogates survive the transport", async () => {
    const client = await connect(await written());
    const r = await call(client, "expand_context", { id: "seg-1" });
    expect(r.isError).not.toBe(true);
    expect(r.structuredContent).toEqual({
      id: "seg-1",
      namespace: "default",
      kind: "tool_result",
      content: ORIGINAL,
      offset: 0,
      totalChars: ORIGINAL.length,
    });
    expect((JSON.parse(textOf(r)) as { content: string }).content).toBe(ORIGINAL);
    const other = await call(client, "expand_context", { id: "seg-3", namespace: "other" });
    expect((other.structuredContent as { content: string }).content).toBe("other namespace original");
  });

  it("expand_context pages with nextOffset and never splits a surrogate pair", async () => {
    const client = await connect(await written());
    const at = ORIGINAL.indexOf("😀");
    const r = await call(client, "expand_context", { id: "seg-1", offset: at + 1, maxChars: 1 });
    expect(r.structuredContent).toMatchObject({ content: "😀", offset: at, nextOffset: at + 2 });
  });

  it("property: following nextOffset from 0 concatenates to the original", async () => {
    const content = fc
      .array(
        fc.oneof(
          fc.string({ unit: "binary", maxLength: 6 }),
          fc.constantFrom("😀", "数据", "\uD800", "\uDC00", "\uDC00\uD800", "👩‍💻"),
        ),
        { maxLength: 25 },
      )
      .map((parts) => parts.join(""));
    const index = memoryIndex();
    const client = await connect(index);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(content, fc.integer({ min: 1, max: 12 }), async (original, maxChars) => {
        const id = `p${n++}`;
        const w = await index.write([entry({ id, content: original })])();
        expect(E.isRight(w)).toBe(true);
        const pages: string[] = [];
        let offset: number | undefined = 0;
        for (let guard = 0; offset !== undefined; guard++) {
          expect(guard).toBeLessThanOrEqual(original.length);
          const r = await call(client, "expand_context", { id, offset, maxChars });
          expect(r.isError).not.toBe(true);
          const page = r.structuredContent as { content: string; offset: number; nextOffset?: number };
          expect(page.offset).toBe(offset);
          pages.push(page.content);
          offset = page.nextOffset;
        }
        expect(pages.join("")).toBe(original);
      }),
      { numRuns: 60 },
    );
  });

  it("an unknown id is a not-found tool error", async () => {
    const client = await connect(await written());
    const r = await call(client, "expand_context", { id: "nope" });
    expect(r.isError).toBe(true);
    expect(errorOf(r)).toMatch(/no evicted entry with id "nope" in namespace "default"/);
  });

  it.each([
    ["search_context", {}, /query/],
    ["search_context", { query: 7 }, /query/],
    ["search_context", { query: "x", k: 0 }, /\bk\b/],
    ["search_context", { query: "x", k: 51 }, /\bk\b/],
    ["search_context", { query: "x", k: 2.5 }, /\bk\b/],
    ["search_context", { query: "x", namespace: "" }, /namespace/],
    ["search_context", { query: "x", kk: 3 }, /kk/],
    ["expand_context", {}, /\bid\b/],
    ["expand_context", { id: "seg-1", offset: -1 }, /offset/],
    ["expand_context", { id: "seg-1", offset: 1.5 }, /offset/],
    ["expand_context", { id: "seg-1", maxChars: 0 }, /maxChars/],
    ["expand_context", { id: "seg-1", maxChars: 100_001 }, /maxChars/],
    ["expand_context", { id: "seg-1", maxChars: "10" }, /maxChars/],
  ] as const)(
    "bad arguments to %s %j are a tool error naming the field, and the server keeps serving",
    async (name, args, field) => {
      const client = await connect(await written());
      const r = await call(client, name, args);
      expect(r.isError).toBe(true);
      expect(errorOf(r)).toMatch(field);
      const after = await call(client, "expand_context", { id: "seg-2" });
      expect(after.isError).not.toBe(true);
      expect((after.structuredContent as { content: string }).content).toBe("# Install\nnpm install");
    },
  );

  it("an unknown tool is a tool error", async () => {
    const client = await connect(await written());
    const r = await call(client, "drop_tables", {});
    expect(r.isError).toBe(true);
    expect(errorOf(r)).toMatch(/unknown tool "drop_tables"/);
  });

  it("a server confined to a namespace refuses another one and reads its own by default", async () => {
    const client = await connect(await written(), { namespace: "other" });
    const found = await call(client, "search_context", { query: "ValueError" });
    expect((found.structuredContent as { hits: { id: string }[] }).hits.map((h) => h.id)).toEqual(["seg-3"]);
    const expanded = await call(client, "expand_context", { id: "seg-3" });
    expect((expanded.structuredContent as { content: string }).content).toBe("other namespace original");
    const refused = await call(client, "expand_context", { id: "seg-1", namespace: "default" });
    expect(refused.isError).toBe(true);
    expect(errorOf(refused)).toMatch(/namespace: these tools serve only namespace "other", got "default"/);
  });

  it("a failing index is a tool error, not a crash", async () => {
    const index = await written();
    const client = await connect(index);
    await index.close()();
    const r = await call(client, "search_context", { query: "ValueError" });
    expect(r.isError).toBe(true);
    expect(errorOf(r)).toMatch(/the index failed \(IndexClosed/);
    const e = await call(client, "expand_context", { id: "seg-1" });
    expect(e.isError).toBe(true);
  });

  it("the default page size applies when maxChars is absent", async () => {
    const client = await connect(await written(), { defaultExpandChars: 5 });
    const r = await call(client, "expand_context", { id: "seg-1" });
    expect(r.structuredContent).toMatchObject({ content: ORIGINAL.slice(0, 5), offset: 0, nextOffset: 5 });
  });
});

describe("decodeIndexServerOptions", () => {
  it("refuses unknown keys and out-of-range values, naming the field", () => {
    const bad = decodeIndexServerOptions({ namepsace: "x", defaultK: 0 });
    expect(E.isLeft(bad)).toBe(true);
    if (E.isLeft(bad)) expect(bad.left.message).toMatch(/namepsace.*namespace/);
    if (E.isLeft(bad)) expect(bad.left.message).toMatch(/defaultK/);
    expect(() => createIndexServer(memoryIndex(), { defaultExpandChars: 100_001 })).toThrow(CcError);
    expect(E.isRight(decodeIndexServerOptions({ namespace: "s", defaultK: 50, defaultExpandChars: 100_000 }))).toBe(
      true,
    );
  });
});
