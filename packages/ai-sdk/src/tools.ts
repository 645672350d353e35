/**
 * `search_context` and `expand_context` as AI SDK tools (built with the SDK's own `tool()` and
 * `jsonSchema()`), over the index a context manager evicts into. Arguments are decoded by closed
 * codecs; a bad argument, an unknown id or a failing index is a result the model reads
 * (`{ error: { _tag, message } }`), never a thrown exception.
 *
 * @module tools
 */
import type { ContextManager } from "@cc/context";
import { decodeWith, intIn, objectCodec } from "@cc/validate";
import { jsonSchema, tool, type Tool } from "ai";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { textPage } from "./internal/page.js";

/**
 * Most hits one `search_context` call may ask for.
 *
 * @example MAX_SEARCH_HITS // 50
 */
export const MAX_SEARCH_HITS = 50;

/**
 * Arguments of `search_context`.
 *
 * @example const input: SearchContextInput = { query: "KeyError header", k: 3 };
 */
export interface SearchContextInput {
  readonly query: string;
  readonly k?: number;
}

/**
 * Arguments of `expand_context`.
 *
 * @example const input: ExpandContextInput = { id: "u0123456789abcdef", offset: 8000 };
 */
export interface ExpandContextInput {
  readonly id: string;
  readonly offset?: number;
  readonly maxChars?: number;
}

/**
 * Why a context tool call produced no result; `message` is written for the model.
 *
 * @example { _tag: "NotFound", message: 'no evicted entry with id "u1"' }
 */
export interface ContextToolError {
  readonly _tag: "InvalidArguments" | "NotFound" | "IndexFailed";
  readonly message: string;
}

/**
 * One hit of `search_context`.
 *
 * @example { id: "u0123456789abcdef", kind: "tool:bash", summary: "pytest: 2 failed", snippet: "…**KeyError**…" }
 */
export interface ContextSearchHit {
  readonly id: string;
  readonly kind: string;
  readonly summary: string;
  readonly snippet: string;
}

/**
 * Result of `search_context`.
 *
 * @example { hits: [] } // or { error: { _tag: "IndexFailed", message } }
 */
export type SearchContextOutput = { readonly hits: readonly ContextSearchHit[] } | { readonly error: ContextToolError };

/**
 * Result of `expand_context`: one page of the original text of an evicted unit.
 *
 * @example { id: "u1", content: "…", offset: 0, totalChars: 12000, nextOffset: 8000 }
 */
export type ExpandContextOutput =
  | { readonly id: string; readonly content: string; readonly offset: number; readonly totalChars: number; readonly nextOffset?: number }
  | { readonly error: ContextToolError };

/**
 * The two tools, keyed by the names the model calls them by.
 *
 * @example generateText({ model, tools: { ...cc.tools, ...myTools }, messages });
 */
export interface ContextTools {
  readonly search_context: Tool<SearchContextInput, SearchContextOutput>;
  readonly expand_context: Tool<ExpandContextInput, ExpandContextOutput>;
}

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const argError = (problems: readonly { readonly message: string }[]): { error: ContextToolError } => ({ error: { _tag: "InvalidArguments", message: problems.map((p) => p.message).join("; ") } });

/**
 * The `search_context` / `expand_context` tools over `manager`'s index and namespace.
 * `maxExpandChars` is the default and largest page `expand_context` returns.
 *
 * @example
 * const tools = contextTools(manager, 8000);
 * await generateText({ model, tools: { ...tools, ...myTools }, prompt });
 */
export function contextTools(manager: ContextManager, maxExpandChars: number): ContextTools {
  const decodeSearch = decodeWith(objectCodec("search_context arguments", { query: t.string }, { k: intIn(1, MAX_SEARCH_HITS) }, { expected: "an arguments object" }), "InvalidInput", "search_context arguments");
  const decodeExpand = decodeWith(
    objectCodec("expand_context arguments", { id: t.string }, { offset: intIn(0, Number.MAX_SAFE_INTEGER), maxChars: intIn(1, maxExpandChars) }, { expected: "an arguments object" }),
    "InvalidInput",
    "expand_context arguments",
  );
  const search_context = tool({
    description:
      "Search summaries of earlier context that was evicted from the conversation (tool outputs, files, messages). " +
      "Returns ids with summaries and snippets; call expand_context with an id to read the original.",
    inputSchema: jsonSchema<SearchContextInput>({
      type: "object",
      properties: {
        query: { type: "string", description: "Words to look for: file paths, identifiers, error text." },
        k: { type: "integer", minimum: 1, maximum: MAX_SEARCH_HITS, description: "How many hits (default 5)." },
      },
      required: ["query"],
      additionalProperties: false,
    }),
    execute: async (input: SearchContextInput): Promise<SearchContextOutput> => {
      // The schema is not enforced by the SDK here: the codec decides.
      const a = decodeSearch(input as unknown);
      if (E.isLeft(a)) return argError(a.left.problems);
      try {
        const hits = await manager.search(a.right.query, a.right.k ?? 5);
        return { hits: hits.map((h) => ({ id: h.id, kind: h.kind, summary: h.summary, snippet: h.snippet })) };
      } catch (e) {
        return { error: { _tag: "IndexFailed", message: `the index failed: ${describe(e)}` } };
      }
    },
  });
  const expand_context = tool({
    description: `Read the original text of an evicted entry by its id (from search_context or the eviction note), up to ${maxExpandChars} characters per call; when the result has nextOffset, pass it as offset to read on.`,
    inputSchema: jsonSchema<ExpandContextInput>({
      type: "object",
      properties: {
        id: { type: "string", description: "The id of an evicted entry." },
        offset: { type: "integer", minimum: 0, description: "Character offset to start from (default 0)." },
        maxChars: { type: "integer", minimum: 1, maximum: maxExpandChars, description: `Characters to return (default ${maxExpandChars}).` },
      },
      required: ["id"],
      additionalProperties: false,
    }),
    execute: async (input: ExpandContextInput): Promise<ExpandContextOutput> => {
      const a = decodeExpand(input as unknown);
      if (E.isLeft(a)) return argError(a.left.problems);
      let original: string | undefined;
      try {
        original = await manager.expand(a.right.id);
      } catch (e) {
        return { error: { _tag: "IndexFailed", message: `the index failed: ${describe(e)}` } };
      }
      if (original === undefined) return { error: { _tag: "NotFound", message: `no evicted entry with id ${JSON.stringify(a.right.id.slice(0, 80))}` } };
      const page = textPage(original, a.right.offset ?? 0, a.right.maxChars ?? maxExpandChars);
      return { id: a.right.id, ...page, totalChars: original.length };
    },
  });
  return { search_context, expand_context };
}
