// One tool contract for every face: the same history through MCP and each framework adapter
// gives the model the same tool names, descriptions, parameters, pages and error texts — those of
// the manager's tool core, which every face only wraps into its framework's tool type.
import { createAiSdkContext } from "@cc/ai-sdk";
import { createContextManager, strictParameters, toolReply, type ContextManager } from "@cc/context";
import { contextTools as langchainTools } from "@cc/langchain";
import { contextTools as mastraTools } from "@cc/mastra";
import { createIndexServer } from "@cc/mcp";
import type { Message } from "@cc/messages";
import { contextTools as openAiTools } from "@cc/openai-agents";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { RunContext } from "@openai/agents";
import { describe, expect, it } from "vitest";

const PAGE = 700;

/** What a face shows the model: its tools' definitions, and the text it reads for a call. */
interface Face {
  readonly name: string;
  readonly definitions: () => Promise<
    readonly { readonly name: string; readonly description: string; readonly parameters: unknown }[]
  >;
  readonly call: (tool: string, args: Record<string, unknown>) => Promise<string>;
}

/** The JSON schema Mastra gives the model for a tool (its input schema is wrapped as a Standard Schema). */
const mastraSchema = (schema: unknown): Record<string, unknown> => {
  const { $schema: _version, ...rest } = (
    schema as { "~standard": { jsonSchema: { input(o: { target: string }): Record<string, unknown> } } }
  )["~standard"].jsonSchema.input({ target: "draft-07" });
  return rest;
};

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

async function faces(manager: ContextManager): Promise<readonly Face[]> {
  const ai = createAiSdkContext({ manager, maxExpandChars: PAGE }).tools;
  const lc = langchainTools(manager, { maxExpandChars: PAGE });
  const ma = mastraTools(manager, { maxExpandChars: PAGE });
  const oa = openAiTools(manager, { maxHits: 50, maxExpandChars: PAGE });
  const server = createIndexServer(manager.options.index, {
    namespace: manager.options.namespace,
    defaultExpandChars: PAGE,
    maxExpandChars: PAGE,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "contract", version: "0.0.0" });
  await client.connect(clientSide);
  const byName =
    <T>(search: T, expand: T) =>
    (tool: string): T =>
      tool === "search_context" ? search : expand;
  const aiTool = byName(
    ai.search_context as unknown as {
      description: string;
      inputSchema: { jsonSchema: unknown };
      execute: (a: unknown, o: unknown) => Promise<unknown>;
    },
    ai.expand_context as never,
  );
  const maTool = byName(
    ma.search_context as unknown as {
      description: string;
      inputSchema: unknown;
      execute: (a: unknown, o: unknown) => Promise<unknown>;
    },
    ma.expand_context as never,
  );
  const lcTool = byName(
    lc[0] as { invoke: (a: unknown) => Promise<unknown> },
    lc[1] as { invoke: (a: unknown) => Promise<unknown> },
  );
  type Invoked = { invoke: (c: RunContext, a: string) => Promise<unknown> };
  const oaTool = byName(oa[0] as unknown as Invoked, oa[1] as unknown as Invoked);
  return [
    {
      name: "mcp",
      definitions: async () =>
        (await client.listTools()).tools.map((t) => ({
          name: t.name,
          description: t.description ?? "",
          parameters: t.inputSchema,
        })),
      call: async (tool, args) => textOf((await client.callTool({ name: tool, arguments: args })) as CallToolResult),
    },
    {
      name: "ai-sdk",
      definitions: async () =>
        ["search_context", "expand_context"].map((n) => ({
          name: n,
          description: aiTool(n).description,
          parameters: aiTool(n).inputSchema.jsonSchema,
        })),
      call: async (tool, args) => JSON.stringify(await aiTool(tool).execute(args, { toolCallId: "t", messages: [] })),
    },
    {
      name: "langchain",
      definitions: async () => lc.map((t) => ({ name: t.name, description: t.description, parameters: t.schema })),
      call: async (tool, args) => String(await lcTool(tool).invoke(args)),
    },
    {
      name: "mastra",
      definitions: async () =>
        ["search_context", "expand_context"].map((n) => ({
          name: n,
          description: maTool(n).description,
          parameters: mastraSchema(maTool(n).inputSchema),
        })),
      call: async (tool, args) => JSON.stringify(await maTool(tool).execute(args, {})),
    },
    {
      name: "openai-agents",
      // Strict function calling: every property required, the optional ones nullable.
      definitions: async () => oa.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
      call: async (tool, args) => String(await oaTool(tool).invoke(new RunContext(), JSON.stringify(args))),
    },
  ];
}

function history(): Message[] {
  const out: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Find the handler that leaks the secret." },
  ];
  for (let n = 1; n <= 12; n++) {
    const file = [
      `# src/module_${n}.py`,
      `SECRET_${n} = ${3000 + n}`,
      ...Array.from(
        { length: 30 },
        (_, i) => `def handler_${n}_${i}(request):\n    return dispatch(request, ${n}, ${i}) # 😀`,
      ),
    ].join("\n");
    out.push({
      role: "assistant",
      content: "",
      toolCalls: [{ id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path: `src/module_${n}.py` }) }],
    });
    out.push({ role: "tool", toolCallId: `c${n}`, content: file });
  }
  out.push({ role: "assistant", content: "All modules read." });
  return out;
}

describe("one tool contract across MCP and the four adapters", () => {
  it("the same names, descriptions, parameters, pages and error texts as the core", async () => {
    const manager = createContextManager({ maxTokens: 3000, namespace: "contract" });
    const turn = await manager.compact(history());
    expect(turn.evicted.length).toBeGreaterThan(3);
    const id = turn.evicted[0]!.id;
    const core = manager.tools({ maxExpandChars: PAGE });
    const all = await faces(manager);
    const script: readonly [string, Record<string, unknown>][] = [
      ["search_context", { query: "module_3 SECRET_3" }],
      ["search_context", { query: "handler_7_2", k: 2 }],
      ["search_context", { query: "x", k: 0 }],
      ["search_context", { query: "x", colour: "red" }],
      ["search_context", {}],
      ["expand_context", { id }],
      ["expand_context", { id, offset: PAGE, maxChars: 333 }],
      ["expand_context", { id, offset: -1 }],
      ["expand_context", { id, maxChars: PAGE + 1 }],
      ["expand_context", { id: "u-none" }],
    ];
    const expected = await Promise.all(
      script.map(
        async ([tool, args]) =>
          (tool === "search_context" ? toolReply(await core.search.run(args)) : toolReply(await core.expand.run(args)))
            .text,
      ),
    );
    // The script covers hits, a page, a second page and each error kind.
    expect(expected.filter((t) => t.startsWith('{"error"')).length).toBe(6);
    expect(JSON.parse(expected[0]!).hits.length).toBeGreaterThan(0);
    for (const face of all) {
      const defs = await face.definitions();
      expect(
        defs.map((d) => d.name),
        face.name,
      ).toEqual([core.search.name, core.expand.name]);
      expect(
        defs.map((d) => d.description),
        face.name,
      ).toEqual([core.search.description, core.expand.description]);
      const params =
        face.name === "openai-agents"
          ? [strictParameters(core.search.parameters), strictParameters(core.expand.parameters)]
          : [core.search.parameters, core.expand.parameters];
      expect(JSON.parse(JSON.stringify(defs.map((d) => d.parameters))), face.name).toEqual(
        JSON.parse(JSON.stringify(params)),
      );
      for (const [i, [tool, args]] of script.entries()) {
        expect(await face.call(tool, args), `${face.name} ${tool} ${JSON.stringify(args)}`).toBe(expected[i]);
      }
      // Strict function calling sends every optional argument as null: the same page comes back.
      expect(await face.call("expand_context", { id, offset: null, maxChars: null }), face.name).toBe(expected[5]);
    }
  });
});
