/**
 * `search_context` and `expand_context`: LangChain tools (built with `tool()` from `langchain`)
 * wrapping the context manager's one tool core — names, descriptions, parameters, paging and
 * error texts shared with every other face. Every failure is a readable tool result
 * (`{"error":{"_tag":…,"message":…}}`), never a thrown exception.
 *
 * @module tools
 */
import { CONTEXT_TOOL_NAMES, contextToolDefinitions, toolReply, type ContextManager } from "@cc/context";
import type { ToolRuntime } from "@langchain/core/tools";
import { decodeOrThrow, decodeWith, intIn, objectCodec } from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import { tool } from "langchain";

/**
 * Name of the search tool.
 *
 * @example
 * import { fakeModel } from "@langchain/core/testing";
 * fakeModel().respondWithTools([{ name: SEARCH_TOOL, args: { query: "pytest" } }]);
 */
export const SEARCH_TOOL = CONTEXT_TOOL_NAMES.search;
/**
 * Name of the expand tool.
 *
 * @example
 * import { fakeModel } from "@langchain/core/testing";
 * fakeModel().respondWithTools([{ name: EXPAND_TOOL, args: { id: "u0123456789abcdef" } }]);
 */
export const EXPAND_TOOL = CONTEXT_TOOL_NAMES.expand;

const ToolOptionsCodec = objectCodec(
  "ContextToolOptions",
  {},
  { maxExpandChars: intIn(1, 10_000_000) },
  { expected: "an options object" },
);
const decodeToolOptions = decodeWith(ToolOptionsCodec, "InvalidOptions", "context tool options");

/** What LangChain's own input check is given: any object (the core decodes the fields). */
const OPEN_OBJECT = { type: "object" } as const;

/** The reply when no manager serves the run's thread (its factory failed; reported there). */
const NO_MANAGER = JSON.stringify({ error: { _tag: "IndexFailed", message: "no context manager for this thread" } });

/**
 * The two tools bound to `manager` (its index and namespace) — or, given a function of the
 * thread id, to the manager of the run's thread (`configurable.thread_id`). `expand_context`
 * returns the original text of an evicted unit or tool result exactly as it was written, a page
 * at a time. Invalid options throw a `CcError` of @cc/validate naming the field.
 *
 * @example
 * const [search, expand] = contextTools(manager);
 * await search.invoke({ query: "pytest failure" }); // '{"hits":[{"id":"u…","summary":"…"}]}'
 * await expand.invoke({ id: "u…" }); // '{"id":"u…","kind":"…","content":"…","offset":0,"totalChars":…}'
 */
export function contextTools(
  manager: ContextManager | ((threadId: string | undefined) => ContextManager | undefined),
  options: { readonly maxExpandChars?: number } = {},
) {
  const maxExpandChars = decodeOrThrow(decodeToolOptions, options).maxExpandChars ?? 8000;
  // The definitions need no manager (a factory makes one per thread, at the first call); each
  // manager's tools are confined to its namespace, whose name the definitions never show.
  const defs = contextToolDefinitions({ maxExpandChars, namespace: "thread" });
  if (E.isLeft(defs)) throw new Error(defs.left.message);
  const coreOf = (runtime: ToolRuntime | undefined) => {
    const thread: unknown = runtime?.configurable?.["thread_id"];
    const m = typeof manager === "function" ? manager(typeof thread === "string" ? thread : undefined) : manager;
    return m?.tools({ maxExpandChars });
  };
  // LangChain checks a call's input against the tool's JSON schema before the function runs and
  // answers a mismatch (`k: 0`, a `null` from strict function calling) with its own exception
  // text. The core decodes every argument itself — one error text in every face — so that check
  // sees an open object schema; the schema the model is shown stays the core's. The check runs
  // synchronously at the start of `call`, so the schema is back before any other code runs.
  const decodedByCore = <T extends { schema: unknown; call: (...args: never[]) => Promise<unknown> }>(t: T): T => {
    const call = t.call.bind(t) as (...args: unknown[]) => Promise<unknown>;
    const shown = t.schema;
    Object.assign(t, {
      call: (...args: unknown[]): Promise<unknown> => {
        Object.assign(t, { schema: OPEN_OBJECT });
        try {
          return call(...args);
        } finally {
          Object.assign(t, { schema: shown });
        }
      },
    });
    return t;
  };
  const search = tool(
    async (input: unknown, runtime?: ToolRuntime): Promise<string> => {
      const core = coreOf(runtime);
      return core === undefined ? NO_MANAGER : toolReply(await core.search.run(input)).text;
    },
    {
      name: defs.right.search.name,
      description: defs.right.search.description,
      schema: defs.right.search.parameters as unknown as Record<string, unknown>,
    },
  );
  const expand = tool(
    async (input: unknown, runtime?: ToolRuntime): Promise<string> => {
      const core = coreOf(runtime);
      return core === undefined ? NO_MANAGER : toolReply(await core.expand.run(input)).text;
    },
    {
      name: defs.right.expand.name,
      description: defs.right.expand.description,
      schema: defs.right.expand.parameters as unknown as Record<string, unknown>,
    },
  );
  return [decodedByCore(search), decodedByCore(expand)] as const;
}
