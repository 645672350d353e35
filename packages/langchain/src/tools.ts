/**
 * `search_context` and `expand_context`: LangChain tools (built with `tool()` from `langchain`)
 * over a context manager's index, so the agent can find what compaction evicted and read the
 * original back, page by page. Arguments are decoded with io-ts; every failure is a readable tool
 * result (`{"error": …}`), never a thrown exception.
 *
 * @module tools
 */
import type { ContextManager } from "@cc/context";
import type { ToolRuntime } from "@langchain/core/tools";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { tool } from "langchain";

/**
 * Name of the search tool.
 *
 * @example
 * fakeModel().respondWithTools([{ name: SEARCH_TOOL, args: { query: "pytest" } }]);
 */
export const SEARCH_TOOL = "search_context";
/**
 * Name of the expand tool.
 *
 * @example
 * fakeModel().respondWithTools([{ name: EXPAND_TOOL, args: { id: "u0123456789abcdef" } }]);
 */
export const EXPAND_TOOL = "expand_context";

const int = (min: number, max: number): t.Type<number, number, unknown> =>
  new t.Type<number, number, unknown>(
    `Integer(${min}..${max})`,
    (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= min && u <= max,
    (u, c) => (typeof u === "number" && Number.isSafeInteger(u) && u >= min && u <= max ? t.success(u) : t.failure(u, c, `expected an integer in ${min}..${max}`)),
    t.identity,
  );

function problemsOf(errors: t.Errors): string {
  const line = (e: t.ValidationError): string => {
    const path = e.context.map((c) => c.key).filter((k) => k !== "" && !/^\d+$/.test(k)).join(".");
    return `${path === "" ? "arguments" : path}: ${e.message ?? `expected ${e.context[e.context.length - 1]?.type.name ?? "a valid value"}`}`;
  };
  return [...new Set(errors.map(line))].join("; ");
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
const splitsPair = (s: string, at: number): boolean => at > 0 && at < s.length && isHigh(s.charCodeAt(at - 1)) && isLow(s.charCodeAt(at));

/**
 * One page of `text` from `offset` of at most `maxChars` UTF-16 code units that never splits a
 * surrogate pair (a page always advances by at least one code point).
 *
 * @example page("a😀b", 1, 1) // { content: "😀", offset: 1, nextOffset: 3 }
 */
export function page(text: string, offset: number, maxChars: number): { readonly content: string; readonly offset: number; readonly nextOffset?: number } {
  let from = Math.min(Math.max(0, offset), text.length);
  if (splitsPair(text, from)) from--;
  let to = Math.min(text.length, from + Math.max(1, maxChars));
  if (splitsPair(text, to)) to = to - 1 > from ? to - 1 : to + 1;
  return { content: text.slice(from, to), offset: from, ...(to < text.length ? { nextOffset: to } : {}) };
}

const errorText = (message: string): string => JSON.stringify({ error: message });

/**
 * The two tools bound to `manager` (its index and namespace) — or, given a function of the
 * thread id, to the manager of the run's thread (`configurable.thread_id`). `expand_context`
 * returns the original text of an evicted unit or tool result exactly as it was written.
 *
 * @example
 * const [search, expand] = contextTools(manager);
 * await search.invoke({ query: "pytest failure" }); // '{"hits":[{"id":"u…","summary":"…"}]}'
 * await expand.invoke({ id: "u…" }); // '{"id":"u…","content":"…","offset":0,"totalChars":…}'
 */
export function contextTools(manager: ContextManager | ((threadId: string | undefined) => ContextManager | undefined), options: { readonly maxExpandChars?: number } = {}) {
  const maxPage = options.maxExpandChars ?? 8000;
  const managerOf = (runtime: ToolRuntime | undefined): ContextManager | undefined => {
    if (typeof manager !== "function") return manager;
    const thread: unknown = runtime?.configurable?.["thread_id"];
    return manager(typeof thread === "string" ? thread : undefined);
  };
  const noManager = errorText("no context manager for this thread");
  const SearchArgs = t.intersection([t.type({ query: t.string }), t.partial({ k: int(1, 20) })]);
  const ExpandArgs = t.intersection([t.type({ id: t.string }), t.partial({ offset: int(0, Number.MAX_SAFE_INTEGER), maxChars: int(1, maxPage) })]);
  const search = tool(
    async (input: unknown, runtime?: ToolRuntime): Promise<string> => {
      const a = SearchArgs.decode(input);
      if (E.isLeft(a)) return errorText(problemsOf(a.left));
      const m = managerOf(runtime);
      if (m === undefined) return noManager;
      try {
        const hits = await m.search(a.right.query, a.right.k ?? 5);
        return JSON.stringify({ hits: hits.map(({ id, kind, summary, snippet, tokenCost }) => ({ id, kind, summary, snippet, tokenCost })) });
      } catch (e) {
        return errorText(`the index is unavailable (${e instanceof Error ? e.message : String(e)})`);
      }
    },
    {
      name: SEARCH_TOOL,
      description:
        "Search earlier context that was evicted from your window (tool outputs, messages). Returns ids with summaries and snippets; call expand_context with an id to read the original.",
      schema: {
        type: "object",
        properties: {
          query: { type: "string", description: "Words to look for: file paths, identifiers, error text." },
          k: { type: "integer", minimum: 1, maximum: 20, description: "How many hits (default 5)." },
        },
        required: ["query"],
        additionalProperties: false,
      },
    },
  );
  const expand = tool(
    async (input: unknown, runtime?: ToolRuntime): Promise<string> => {
      const a = ExpandArgs.decode(input);
      if (E.isLeft(a)) return errorText(problemsOf(a.left));
      const m = managerOf(runtime);
      if (m === undefined) return noManager;
      try {
        const content = await m.expand(a.right.id);
        if (content === undefined) return errorText(`no evicted context with id ${JSON.stringify(a.right.id)}`);
        const p = page(content, a.right.offset ?? 0, a.right.maxChars ?? maxPage);
        return JSON.stringify({ id: a.right.id, ...p, totalChars: content.length });
      } catch (e) {
        return errorText(`the index is unavailable (${e instanceof Error ? e.message : String(e)})`);
      }
    },
    {
      name: EXPAND_TOOL,
      description: `Read the original of evicted context by its id (from search_context or a pointer note), up to ${maxPage} characters per call; pass nextOffset as offset to continue.`,
      schema: {
        type: "object",
        properties: {
          id: { type: "string", description: "The id from search_context or a pointer note." },
          offset: { type: "integer", minimum: 0, description: "Character offset to start from (default 0)." },
          maxChars: { type: "integer", minimum: 1, maximum: maxPage, description: `Characters to return (1-${maxPage}).` },
        },
        required: ["id"],
        additionalProperties: false,
      },
    },
  );
  return [search, expand] as const;
}
