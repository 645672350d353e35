/**
 * An MCP server over a `SegmentIndex`: `search_context` finds summaries of evicted context,
 * `expand_context` returns the original text a page at a time. Tool arguments are decoded at the
 * boundary; a bad argument, an unknown id or a failing index is a tool result with `isError: true`
 * (the model reads it and the server keeps serving), never a thrown exception.
 *
 * @module server
 */
import type { IndexError, SegmentIndex } from "@cc/search";
import { textPage } from "@cc/hierarchical/internal";
import { DEFAULT_NAMESPACE } from "@cc/search/internal";
import { decodeWith, intIn, nonEmptyString, objectCodec, type InvalidOptions } from "@cc/validate";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/** Most hits one `search_context` call returns. */
export const MAX_SEARCH_HITS = 50;

/** Largest page one `expand_context` call returns, in UTF-16 code units. */
export const MAX_EXPAND_CHARS = 100_000;

/** Options of {@link createIndexServer} (decoded by a closed codec: unknown keys are refused). */
export interface IndexServerOptions {
  /**
   * Confine both tools to this namespace (non-empty): a call naming another namespace is a tool
   * error. Without it a call may name any namespace; `search_context` then searches every
   * namespace and `expand_context` reads the default one.
   * @default every namespace
   */
  readonly namespace?: string;
  /**
   * Page size of `expand_context` when the call gives no `maxChars` (integer 1..100000).
   * @default 8000
   */
  readonly defaultExpandChars?: number;
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
export const IndexServerOptionsCodec = objectCodec("IndexServerOptions", {}, {
  namespace: nonEmptyString,
  defaultExpandChars: intIn(1, MAX_EXPAND_CHARS),
  defaultK: intIn(1, MAX_SEARCH_HITS),
  name: nonEmptyString,
  version: nonEmptyString,
}, { expected: "an options object" });

/**
 * Validates server options (unknown keys, out-of-range numbers and empty strings are refused).
 *
 * @example
 * decodeIndexServerOptions({ defaultK: 0 }); // left({ _tag: "InvalidOptions", subject: "MCP server options", … })
 */
export const decodeIndexServerOptions: (input: unknown) => E.Either<InvalidOptions, IndexServerOptions> = decodeWith(IndexServerOptionsCodec, "InvalidOptions", "MCP server options");

/** One hit of `search_context` (its structured content is `{ hits }`). */
export interface ContextHit {
  readonly id: string;
  readonly namespace: string;
  readonly kind: string;
  readonly summary: string;
  /** Excerpt around the match, matched terms marked `**like this**`. */
  readonly snippet: string;
  /** Backend-specific rank: higher is better. */
  readonly score: number;
}

/** The structured content of an `expand_context` result: one page of an original. */
export interface ContextPage {
  readonly id: string;
  readonly namespace: string;
  readonly kind: string;
  /** The page of the original text. */
  readonly content: string;
  /** Where the page starts, in UTF-16 code units. */
  readonly offset: number;
  /** Length of the whole original, in UTF-16 code units. */
  readonly totalChars: number;
  /** Offset of the next page; absent when this page reaches the end. */
  readonly nextOffset?: number;
}

const SearchArgs = objectCodec("search_context arguments", { query: t.string }, { k: intIn(1, MAX_SEARCH_HITS), namespace: nonEmptyString }, { expected: "an arguments object" });
const ExpandArgs = objectCodec(
  "expand_context arguments",
  { id: t.string },
  { namespace: nonEmptyString, offset: intIn(0, Number.MAX_SAFE_INTEGER), maxChars: intIn(1, MAX_EXPAND_CHARS) },
  { expected: "an arguments object" },
);
const decodeSearchArgs = decodeWith(SearchArgs, "InvalidInput", "search_context arguments");
const decodeExpandArgs = decodeWith(ExpandArgs, "InvalidInput", "expand_context arguments");

const hitSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    namespace: { type: "string" },
    kind: { type: "string" },
    summary: { type: "string" },
    snippet: { type: "string" },
    score: { type: "number" },
  },
  required: ["id", "namespace", "kind", "summary", "snippet", "score"],
} as const;

/** The tool definitions `tools/list` returns. */
function toolList(defaultK: number, defaultExpand: number): Tool[] {
  return [
    {
      name: "search_context",
      title: "Search evicted context",
      description:
        "Search summaries of earlier context that was evicted from the conversation (tool outputs, files, messages). " +
        "Returns ids with summaries and snippets; call expand_context with an id (and its namespace) to read the original.",
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "Words to look for: file paths, identifiers, error text." },
          k: { type: "integer", minimum: 1, maximum: MAX_SEARCH_HITS, description: `How many hits (1-${MAX_SEARCH_HITS}, default ${defaultK}).` },
          namespace: { type: "string", minLength: 1, description: "Only this namespace (session, agent or tenant)." },
        },
        required: ["query"],
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { hits: { type: "array", items: hitSchema } }, required: ["hits"] },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: "expand_context",
      title: "Read an evicted original",
      description:
        `Read the original text of an evicted entry by its id (from search_context), up to ${defaultExpand} characters per call by default; ` +
        "when the result has nextOffset, pass it as offset to read the next page.",
      inputSchema: {
        type: "object",
        properties: {
          id: { type: "string", description: "The id of a search_context hit." },
          namespace: { type: "string", minLength: 1, description: "The namespace of the hit." },
          offset: { type: "integer", minimum: 0, description: "Character offset to start from (default 0)." },
          maxChars: { type: "integer", minimum: 1, maximum: MAX_EXPAND_CHARS, description: `Characters to return (1-${MAX_EXPAND_CHARS}, default ${defaultExpand}).` },
        },
        required: ["id"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: {
          id: { type: "string" },
          namespace: { type: "string" },
          kind: { type: "string" },
          content: { type: "string" },
          offset: { type: "integer" },
          totalChars: { type: "integer" },
          nextOffset: { type: "integer" },
        },
        required: ["id", "namespace", "kind", "content", "offset", "totalChars"],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];
}

const toolError = (message: string): CallToolResult => ({ isError: true, content: [{ type: "text", text: message }] });

const success = (value: { readonly [key: string]: unknown }): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: { ...value },
});

const indexFailed = (tool: string, error: IndexError): CallToolResult =>
  toolError(`${tool}: the index failed (${error._tag}${"message" in error && typeof error.message === "string" ? `: ${error.message}` : ""})`);

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The namespace a call reads, or the message refusing it (a confined server serves only its own). */
function namespaceOf(confined: string | undefined, asked: string | undefined): E.Either<string, string | undefined> {
  if (confined === undefined || asked === undefined || asked === confined) return E.right(confined ?? asked);
  return E.left(`namespace: this server serves only namespace ${JSON.stringify(confined)}, got ${JSON.stringify(asked.slice(0, 80))}`);
}

/** Runs one `tools/call` (pure of the transport: the SDK request handler is a thin wrapper). */
async function callTool(index: SegmentIndex, options: IndexServerOptions, name: string, args: unknown): Promise<CallToolResult> {
  const input = args ?? {};
  if (name === "search_context") {
    const a = decodeSearchArgs(input);
    if (E.isLeft(a)) return toolError(a.left.message);
    const ns = namespaceOf(options.namespace, a.right.namespace);
    if (E.isLeft(ns)) return toolError(`search_context: ${ns.left}`);
    const r = await index.search(a.right.query, { k: a.right.k ?? options.defaultK ?? 5, ...(ns.right === undefined ? {} : { namespace: ns.right }) })();
    if (E.isLeft(r)) return indexFailed("search_context", r.left);
    const hits: ContextHit[] = r.right.map(({ id, namespace, kind, summary, snippet, score }) => ({ id, namespace, kind, summary, snippet, score }));
    return success({ hits });
  }
  if (name === "expand_context") {
    const a = decodeExpandArgs(input);
    if (E.isLeft(a)) return toolError(a.left.message);
    const ns = namespaceOf(options.namespace, a.right.namespace);
    if (E.isLeft(ns)) return toolError(`expand_context: ${ns.left}`);
    const namespace = ns.right ?? DEFAULT_NAMESPACE;
    const r = await index.expand(a.right.id, namespace)();
    if (E.isLeft(r)) return indexFailed("expand_context", r.left);
    if (r.right === undefined) return toolError(`expand_context: not found: no entry with id ${JSON.stringify(a.right.id.slice(0, 200))} in namespace ${JSON.stringify(namespace)}`);
    const entry = r.right;
    const page = textPage(entry.content, a.right.offset ?? 0, a.right.maxChars ?? options.defaultExpandChars ?? 8000);
    const result: ContextPage = { id: entry.id, namespace: entry.namespace, kind: entry.kind, content: page.content, offset: page.offset, totalChars: entry.content.length, ...(page.nextOffset === undefined ? {} : { nextOffset: page.nextOffset }) };
    return success({ ...result });
  }
  return toolError(`unknown tool ${JSON.stringify(name.slice(0, 80))} (known: search_context, expand_context)`);
}

/**
 * An MCP `Server` (not yet connected) exposing `search_context` and `expand_context` over
 * `index`, or the problems of `options`. The caller owns the index (closing the server does not
 * close it) and connects a transport: `await server.connect(new StdioServerTransport())`.
 *
 * @example
 * const server = createIndexServer(index, { namespace: "session-42" });
 * if (E.isLeft(server)) throw new Error(server.left.message);
 * await server.right.connect(new StdioServerTransport());
 */
export function createIndexServer(index: SegmentIndex, options: IndexServerOptions = {}): E.Either<InvalidOptions, Server> {
  const decoded = decodeIndexServerOptions(options);
  if (E.isLeft(decoded)) return decoded;
  const config = decoded.right;
  const server = new Server({ name: config.name ?? "cc-context", version: config.version ?? "0.0.0" }, { capabilities: { tools: {} } });
  const tools = toolList(config.defaultK ?? 5, config.defaultExpandChars ?? 8000);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      return await callTool(index, config, request.params.name, request.params.arguments);
    } catch (e: unknown) {
      return toolError(`${request.params.name}: internal error: ${describe(e)}`);
    }
  });
  return E.right(server);
}
