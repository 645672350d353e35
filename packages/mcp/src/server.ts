/**
 * An MCP server over a `SegmentIndex`: `search_context` finds summaries of evicted context,
 * `expand_context` returns the original text a page at a time. Tool arguments are decoded at the
 * boundary; a bad argument, an unknown id or a failing index is a tool result with `isError: true`
 * (the model reads it and the server keeps serving), never a thrown exception.
 *
 * @module server
 */
import {
  contextToolCore,
  toolReply,
  type ContextHit as CoreHit,
  type ContextToolCore,
  type ContextToolError,
  type ExpandContextResult,
  type JsonSchema,
} from "@cc/context";
import type { SegmentIndex } from "@cc/search";
import {
  CcError,
  decodeOrThrow,
  decodeWith,
  intIn,
  nonEmptyString,
  objectCodec,
  type InvalidOptions,
} from "@cc/validate";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import * as E from "fp-ts/lib/Either.js";

/** Most hits one `search_context` call returns. */
export const MAX_SEARCH_HITS = 50;

/** Largest page one `expand_context` call returns, in UTF-16 code units. */
export const MAX_EXPAND_CHARS = 100_000;

/** Options of {@link createIndexServer} (decoded by a closed codec: unknown keys are refused). */
export interface IndexServerOptions {
  /**
   * Confine both tools to this namespace (non-empty): the tools then take no `namespace` argument
   * (one naming a namespace is a tool error). Without it a call may name any namespace;
   * `search_context` then searches every namespace and `expand_context` reads the default one.
   * @default every namespace
   */
  readonly namespace?: string;
  /**
   * Page size of `expand_context` when the call gives no `maxChars` (integer 1..100000).
   * @default 8000
   */
  readonly defaultExpandChars?: number;
  /**
   * Largest page one `expand_context` call may ask for (integer 1..100000, at least
   * `defaultExpandChars`).
   * @default 100000
   */
  readonly maxExpandChars?: number;
  /**
   * Hits `search_context` returns when the call gives no `k` (integer 1..50).
   * @default 5
   */
  readonly defaultK?: number;
  /**
   * Server name announced to clients (non-empty).
   * @default "cc-context"
   */
  readonly name?: string;
  /**
   * Server version announced to clients (non-empty).
   * @default "0.0.0"
   */
  readonly version?: string;
}

/** Closed io-ts codec of {@link IndexServerOptions}. */
export const IndexServerOptionsCodec = objectCodec(
  "IndexServerOptions",
  {},
  {
    namespace: nonEmptyString,
    defaultExpandChars: intIn(1, MAX_EXPAND_CHARS),
    maxExpandChars: intIn(1, MAX_EXPAND_CHARS),
    defaultK: intIn(1, MAX_SEARCH_HITS),
    name: nonEmptyString,
    version: nonEmptyString,
  },
  { expected: "an options object" },
);

/**
 * Validates server options (unknown keys, out-of-range numbers and empty strings are refused).
 *
 * @example
 * decodeIndexServerOptions({ defaultK: 0 }); // left({ _tag: "InvalidOptions", subject: "MCP server options", … })
 */
export const decodeIndexServerOptions: (input: unknown) => E.Either<InvalidOptions, IndexServerOptions> = decodeWith(
  IndexServerOptionsCodec,
  "InvalidOptions",
  "MCP server options",
);

/**
 * One hit of `search_context` (its structured content is `{ hits }`); `namespace` is present when
 * the server is not confined to one namespace.
 *
 * @example const hit: ContextHit = { id: "u0123…", namespace: "run-1", kind: "tool:bash", summary: "pytest: 2 failed", snippet: "…**KeyError**…", tokens: 812 };
 */
export type ContextHit = CoreHit;

/**
 * The structured content of an `expand_context` result: one page of an original.
 *
 * @example const page: ContextPage = { id: "u0123…", kind: "tool:bash", content: "Traceback (most recent call last): …", offset: 0, totalChars: 12000, nextOffset: 8000 };
 */
export type ContextPage = ExpandContextResult;

/** The tool definitions `tools/list` returns: the core's, with MCP's title, output schema and hints. */
function toolList(core: ContextToolCore, confined: boolean): Tool[] {
  const ns = confined ? {} : { namespace: { type: "string" } };
  const hitSchema = {
    type: "object",
    properties: {
      id: { type: "string" },
      ...ns,
      kind: { type: "string" },
      summary: { type: "string" },
      snippet: { type: "string" },
      tokens: { type: "integer" },
    },
    required: ["id", ...(confined ? [] : ["namespace"]), "kind", "summary", "snippet", "tokens"],
  };
  const inputSchema = (p: JsonSchema): Tool["inputSchema"] => p as unknown as Tool["inputSchema"];
  return [
    {
      name: core.search.name,
      title: "Search evicted context",
      description: core.search.description,
      inputSchema: inputSchema(core.search.parameters),
      outputSchema: { type: "object", properties: { hits: { type: "array", items: hitSchema } }, required: ["hits"] },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: core.expand.name,
      title: "Read an evicted original",
      description: core.expand.description,
      inputSchema: inputSchema(core.expand.parameters),
      outputSchema: {
        type: "object",
        properties: {
          id: { type: "string" },
          ...ns,
          kind: { type: "string" },
          content: { type: "string" },
          offset: { type: "integer" },
          totalChars: { type: "integer" },
          nextOffset: { type: "integer" },
        },
        required: ["id", ...(confined ? [] : ["namespace"]), "kind", "content", "offset", "totalChars"],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];
}

const toolError = (message: string): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: JSON.stringify({ error: { _tag: "InvalidArguments", message } }) }],
});

/** What the model reads for a core outcome: the reply's text, the result as structured content. */
function resultOf(outcome: E.Either<ContextToolError, object>): CallToolResult {
  const reply = toolReply(outcome);
  return reply.isError
    ? { isError: true, content: [{ type: "text", text: reply.text }] }
    : { content: [{ type: "text", text: reply.text }], structuredContent: { ...reply.value } };
}

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Runs one `tools/call` (pure of the transport: the SDK request handler is a thin wrapper). */
async function callTool(core: ContextToolCore, name: string, args: unknown): Promise<CallToolResult> {
  if (name === core.search.name) return resultOf(await core.search.run(args));
  if (name === core.expand.name) return resultOf(await core.expand.run(args));
  return toolError(
    `unknown tool ${JSON.stringify(name.slice(0, 80))} (known: ${core.search.name}, ${core.expand.name})`,
  );
}

/**
 * An MCP `Server` (not yet connected) exposing `search_context` and `expand_context` over
 * `index`. Invalid options throw a `CcError` (from @cc/validate) carrying the `InvalidOptions`
 * (`decodeIndexServerOptions` returns it as a `Left`). The caller owns the index (closing the server does not
 * close it) and connects a transport: `await server.connect(new StdioServerTransport())`.
 *
 * @example
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * const server = createIndexServer(index, { namespace: "session-42" });
 * await server.connect(new StdioServerTransport());
 */
export function createIndexServer(index: SegmentIndex, options: IndexServerOptions = {}): Server {
  const config = decodeOrThrow(decodeIndexServerOptions, options);
  const server = new Server(
    { name: config.name ?? "cc-context", version: config.version ?? "0.0.0" },
    { capabilities: { tools: {} } },
  );
  const core = contextToolCore(index, {
    ...(config.namespace === undefined ? {} : { namespace: config.namespace }),
    maxExpandChars: config.maxExpandChars ?? MAX_EXPAND_CHARS,
    defaultExpandChars: config.defaultExpandChars ?? Math.min(8000, config.maxExpandChars ?? MAX_EXPAND_CHARS),
    maxHits: MAX_SEARCH_HITS,
    defaultK: config.defaultK ?? 5,
  });
  // The ranges were decoded above; the core checks that the defaults are within the limits.
  if (E.isLeft(core))
    throw new CcError({
      ...core.left,
      subject: "MCP server options",
      message: core.left.message.replace("context tool options", "MCP server options"),
    });
  const tools = toolList(core.right, config.namespace !== undefined);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      return await callTool(core.right, request.params.name, request.params.arguments);
    } catch (e: unknown) {
      return toolError(`${request.params.name}: internal error: ${describe(e)}`);
    }
  });
  return server;
}
