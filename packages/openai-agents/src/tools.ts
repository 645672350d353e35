/**
 * `search_context` and `expand_context`: function tools (made with the SDK's `tool()`) over the
 * units a context manager evicted, so the agent can find and read back what left its context.
 * They wrap the manager's tool core (`manager.tools()` of `@cc/context`): the names,
 * descriptions, parameters (in strict-mode form), argument decoding, paging and error texts are
 * the ones every face uses. The output is JSON — `{ hits }`, a page, or
 * `{ error: { _tag, message } }` — never a thrown error.
 *
 * @module tools
 */
import {
  strictParameters,
  toolReply,
  type ContextManager,
  type ContextToolOptions,
  type JsonSchema,
} from "@cc/context";
import { tool, type FunctionTool } from "@openai/agents";

/**
 * A tool's parameters in the shape the SDK's strict `tool()` takes: every property required,
 * optional ones nullable (`null` means "the default").
 *
 * @example const p: StrictToolParameters = { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false };
 */
export type StrictToolParameters = {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: false;
  description?: string;
};

/**
 * `search_context`: finds evicted units by words (returns JSON `{ hits: [{ id, kind, summary, snippet, tokens, score }] }`).
 *
 * @example
 * const [search]: readonly [SearchContextTool, ExpandContextTool] = cc.tools;
 */
export type SearchContextTool = FunctionTool<unknown, StrictToolParameters, string>;
/**
 * `expand_context`: a page of the original text of an evicted unit by id (JSON
 * `{ id, kind, content, offset, totalChars, nextOffset? }`).
 *
 * @example
 * import { RunContext } from "@openai/agents";
 * const page = JSON.parse(await cc.tools[1].invoke(new RunContext(), JSON.stringify({ id: "u0123456789abcdef", offset: null, maxChars: null })));
 */
export type ExpandContextTool = FunctionTool<unknown, StrictToolParameters, string>;

/** The core's parameters in strict-mode form (see `strictParameters` of `@cc/context`). */
function strictToolParameters(schema: JsonSchema): StrictToolParameters {
  const s = strictParameters(schema);
  return {
    type: "object",
    properties: Object.fromEntries(
      Object.entries(s.properties ?? {}).map(([name, p]) => [
        name,
        { ...p, ...(Array.isArray(p.type) ? { type: [...p.type] } : {}) },
      ]),
    ),
    required: [...(s.required ?? [])],
    additionalProperties: false,
    ...(s.description === undefined ? {} : { description: s.description }),
  };
}

/**
 * The two tools bound to `manager` (its index and namespace). Invalid options (an unknown field,
 * a number out of range) throw a `CcError` of @cc/validate naming the field.
 *
 * @example
 * import { Agent } from "@openai/agents";
 * const [search, expand] = contextTools(manager, { maxExpandChars: 8000 });
 * const agent = new Agent({ name: "a", tools: [search, expand] });
 */
export function contextTools(
  manager: ContextManager,
  options: Omit<ContextToolOptions, "namespace"> = {},
): readonly [SearchContextTool, ExpandContextTool] {
  const core = manager.tools(options);
  const search: SearchContextTool = tool({
    name: core.search.name,
    description: core.search.description,
    parameters: strictToolParameters(core.search.parameters),
    strict: true,
    execute: async (input: unknown): Promise<string> => toolReply(await core.search.run(input)).text,
  });
  const expand: ExpandContextTool = tool({
    name: core.expand.name,
    description: core.expand.description,
    parameters: strictToolParameters(core.expand.parameters),
    strict: true,
    execute: async (input: unknown): Promise<string> => toolReply(await core.expand.run(input)).text,
  });
  return [search, expand];
}
