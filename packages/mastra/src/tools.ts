/**
 * `search_context` and `expand_context`: Mastra tools (made with `createTool`) over the index the
 * processor evicts into, so the agent can find and read back what left its context — history
 * units and oversized tool results alike. They wrap the context manager's tool core
 * (`manager.tools()` of `@cc/context`): the names, descriptions, parameters, argument decoding,
 * paging and error texts are the ones every face uses. A failure is returned to the model as
 * `{ error: { _tag, message } }`, never thrown.
 *
 * @module tools
 */
import {
  CONTEXT_TOOL_NAMES as TOOL_NAMES,
  toolReply,
  type ContextManager,
  type ContextToolError as CoreToolError,
  type ContextToolOptions as CoreToolOptions,
  type ExpandContextResult,
  type JsonSchema,
  type SearchContextResult,
} from "@cc/context";
import { createTool } from "@mastra/core/tools";

/**
 * Why a context tool call failed, as the model reads it (the same text in every face).
 *
 * @example const error: ContextToolError = { _tag: "NotFound", message: 'expand_context: no evicted entry with id "u123"' };
 */
export type ContextToolError = Pick<CoreToolError, "_tag" | "message">;

/**
 * What `search_context` returns: its hits, or the error.
 *
 * @example { hits: [{ id: "u1f…", kind: "tool:grep", summary: "…", snippet: "…**ValueError**…", tokens: 812, score: 4.1 }] }
 */
export interface ContextSearchResult {
  readonly hits?: SearchContextResult["hits"];
  readonly error?: ContextToolError;
}

/**
 * What `expand_context` returns: a page of the original, or the error.
 *
 * @example const page: ContextExpandResult = { id: "u1f…", kind: "tool:grep", content: "…", offset: 0, totalChars: 8178, nextOffset: 8000 };
 */
export interface ContextExpandResult extends Partial<ExpandContextResult> {
  readonly error?: ContextToolError;
}

/** The names of the two context tools (their results are never evicted). @example CONTEXT_TOOL_NAMES.includes("expand_context") // true */
export const CONTEXT_TOOL_NAMES: readonly string[] = Object.values(TOOL_NAMES);

/**
 * Options of {@link contextTools}: the tool core's (`maxExpandChars`, the largest page
 * `expand_context` returns, default 8000; `maxHits` and `defaultK` of `search_context`, defaults
 * 50 and 5). The namespace is the manager's.
 *
 * @example contextTools(compaction.manager, { maxExpandChars: 4000 })
 */
export type ContextToolOptions = Omit<CoreToolOptions, "namespace">;

/** A JSON schema with mutable arrays: the shape `createTool` takes (JSON Schema 7). */
interface ToolSchema {
  type: "object" | "string" | "integer" | "array" | ("string" | "integer" | "array" | "null")[];
  description?: string;
  properties?: { [name: string]: ToolSchema };
  required?: string[];
  items?: ToolSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  additionalProperties?: boolean;
}

/** The core's parameters as `createTool` takes them (a copy: the core's stay frozen in shape). */
function toolSchema(s: JsonSchema): ToolSchema {
  const { type, properties, required, items, ...rest } = s;
  return {
    ...rest,
    type: typeof type === "string" ? type : [...type],
    ...(properties === undefined
      ? {}
      : { properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, toolSchema(v)])) }),
    ...(required === undefined ? {} : { required: [...required] }),
    ...(items === undefined ? {} : { items: toolSchema(items) }),
  };
}

/**
 * A tool's input schema for Mastra: a Standard Schema (v1, with its JSON Schema) whose JSON form —
 * what the model is shown — is the core's parameters, and whose validation accepts any value.
 * Mastra checks a call's input against the schema before `execute` and answers a mismatch
 * (`k: 0`, an unknown field) with its own text; the core decodes every argument itself, so the
 * model reads the same error text here as in every other face.
 */
function decodedByCore(schema: JsonSchema) {
  const json = (): Record<string, unknown> => ({ ...toolSchema(schema) });
  return {
    "~standard": {
      version: 1 as const,
      vendor: "@cc/context",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: json, output: json },
    },
  };
}

/**
 * The two tools bound to a manager (a processor's `manager`), keyed by their names, ready for an
 * agent's `tools`. Invalid options (an unknown field, a bad `maxExpandChars`) throw a
 * `CcError` of @cc/validate naming the field.
 *
 * @example
 * import { Agent } from "@mastra/core/agent";
 * const agent = new Agent({ id: "a", name: "a", instructions: "…", model, tools: { ...myTools, ...contextTools(compaction.manager) } });
 */
export function contextTools(manager: ContextManager, options: ContextToolOptions = {}) {
  const core = manager.tools(options);
  const search_context = createTool({
    id: core.search.name,
    description: core.search.description,
    inputSchema: decodedByCore(core.search.parameters),
    execute: async (input: unknown): Promise<ContextSearchResult> => toolReply(await core.search.run(input)).value,
  });
  const expand_context = createTool({
    id: core.expand.name,
    description: core.expand.description,
    inputSchema: decodedByCore(core.expand.parameters),
    execute: async (input: unknown): Promise<ContextExpandResult> => toolReply(await core.expand.run(input)).value,
  });
  return { search_context, expand_context } as const;
}
