/**
 * `search_context` and `expand_context` as AI SDK tools: the context manager's one tool core
 * (names, descriptions, parameters, paging, error texts shared with every other face) wrapped with
 * the SDK's own `tool()` and `jsonSchema()`. A bad argument, an unknown id or a failing index is a
 * result the model reads (`{ error: { _tag, message } }`), never a thrown exception.
 *
 * @module tools
 */
import {
  toolReply,
  type ContextManager,
  type ContextToolError as CoreToolError,
  type ExpandContextResult,
  type SearchContextResult,
} from "@cc/context";
import { jsonSchema, tool, type Tool } from "ai";

/**
 * Arguments of `search_context` (optional ones may also be `null`).
 *
 * @example const input: SearchContextInput = { query: "KeyError header", k: 3 };
 */
export interface SearchContextInput {
  readonly query: string;
  readonly k?: number;
  readonly kinds?: readonly string[];
}

/**
 * Arguments of `expand_context` (optional ones may also be `null`).
 *
 * @example const input: ExpandContextInput = { id: "u0123456789abcdef", offset: 8000 };
 */
export interface ExpandContextInput {
  readonly id: string;
  readonly offset?: number;
  readonly maxChars?: number;
}

/**
 * Why a context tool call produced no result, as the model reads it; `message` is the core's text.
 *
 * @example const error: ContextToolError = { _tag: "NotFound", message: 'expand_context: no evicted entry with id "u1"' };
 */
export interface ContextToolError {
  readonly _tag: CoreToolError["_tag"];
  readonly message: string;
}

/**
 * Result of `search_context`.
 *
 * @example { hits: [] } // or { error: { _tag: "IndexFailed", message } }
 */
export type SearchContextOutput = SearchContextResult | { readonly error: ContextToolError };

/**
 * Result of `expand_context`: one page of the original text of an evicted unit.
 *
 * @example const page: ExpandContextOutput = { id: "u1", kind: "tool:bash", content: "…", offset: 0, totalChars: 12000, nextOffset: 8000 };
 */
export type ExpandContextOutput = ExpandContextResult | { readonly error: ContextToolError };

/**
 * The two tools, keyed by the names the model calls them by.
 *
 * @example
 * import { generateText } from "ai";
 * await generateText({ model, tools: { ...cc.tools, ...myTools }, messages });
 */
export interface ContextTools {
  readonly search_context: Tool<SearchContextInput, SearchContextOutput>;
  readonly expand_context: Tool<ExpandContextInput, ExpandContextOutput>;
}

/**
 * The `search_context` / `expand_context` tools over `manager`'s index and namespace.
 * `maxExpandChars` is the default and largest page `expand_context` returns.
 *
 * @example
 * import { generateText } from "ai";
 * const tools = contextTools(manager, 8000);
 * await generateText({ model, tools: { ...tools, ...myTools }, prompt: "Why does the CSV reader fail?" });
 */
export function contextTools(manager: ContextManager, maxExpandChars: number): ContextTools {
  const core = manager.tools({ maxExpandChars });
  // The SDK does not enforce the schema here: the core decodes every argument.
  const search_context = tool({
    description: core.search.description,
    inputSchema: jsonSchema<SearchContextInput>(core.search.parameters as Parameters<typeof jsonSchema>[0]),
    execute: async (input: SearchContextInput): Promise<SearchContextOutput> =>
      toolReply(await core.search.run(input)).value,
  });
  const expand_context = tool({
    description: core.expand.description,
    inputSchema: jsonSchema<ExpandContextInput>(core.expand.parameters as Parameters<typeof jsonSchema>[0]),
    execute: async (input: ExpandContextInput): Promise<ExpandContextOutput> =>
      toolReply(await core.expand.run(input)).value,
  });
  return { search_context, expand_context };
}
