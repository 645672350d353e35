/**
 * `search_context` and `expand_context`: Mastra tools (made with `createTool`) over the index the
 * processor evicts into, so the agent can find and read back what left its context — history
 * units and oversized tool results alike. Arguments are decoded by io-ts codecs; a failure is
 * returned to the model as `{ error: { _tag, message } }`, never thrown.
 *
 * @module tools
 */
import type { ContextManager } from "@cc/context";
import { createTool } from "@mastra/core/tools";
import * as E from "fp-ts/lib/Either.js";
import type * as t from "io-ts";
import { decodeOrThrow, decodeWith, intIn, nonEmptyString, objectCodec, problemsOf } from "@cc/validate";

/**
 * Why a context tool call failed (written for the model to read).
 *
 * @example { _tag: "NotFound", message: "no evicted context with id \"u123\"" }
 */
export interface ContextToolError {
  readonly _tag: "InvalidArguments" | "NotFound" | "IndexFailed";
  readonly message: string;
}

/**
 * What `search_context` returns.
 *
 * @example { hits: [{ id: "u1f…", kind: "tool:grep", summary: "…", snippet: "…**ValueError**…", tokens: 812 }] }
 */
export interface ContextSearchResult {
  readonly hits?: readonly { readonly id: string; readonly kind: string; readonly summary: string; readonly snippet: string; readonly tokens: number }[];
  readonly error?: ContextToolError;
}

/**
 * What `expand_context` returns: a page of the original.
 *
 * @example { id: "u1f…", content: "…", offset: 0, totalChars: 8178, nextOffset: 8000 }
 */
export interface ContextExpandResult {
  readonly id?: string;
  readonly content?: string;
  readonly offset?: number;
  readonly totalChars?: number;
  /** Where the next page starts; absent on the last page. */
  readonly nextOffset?: number;
  readonly error?: ContextToolError;
}

/** The names of the two context tools (their results are never evicted). @example CONTEXT_TOOL_NAMES.includes("expand_context") // true */
export const CONTEXT_TOOL_NAMES: readonly string[] = ["search_context", "expand_context"];

/**
 * Options of {@link contextTools}.
 *
 * @example contextTools(compaction.manager, { maxExpandChars: 4000 })
 */
export interface ContextToolOptions {
  /**
   * Largest page `expand_context` returns, in UTF-16 code units.
   * @default 8000
   */
  readonly maxExpandChars?: number;
}

/** io-ts codec of {@link ContextToolOptions} (closed). */
export const ContextToolOptionsCodec = objectCodec("ContextToolOptions", {}, { maxExpandChars: intIn(1, 10_000_000) }, { expected: "an options object" });

const decodeToolOptions = decodeWith(ContextToolOptionsCodec, "InvalidOptions", "context tool options");

const SearchArgs = objectCodec("SearchContextArgs", { query: nonEmptyString }, { k: intIn(1, 50) });

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
/** The end of a page from `from` of at most `max` units, never splitting a surrogate pair. */
function pageEnd(text: string, from: number, max: number): number {
  let to = Math.min(text.length, from + max);
  if (to < text.length && to > from + 1 && isHigh(text.charCodeAt(to - 1))) to--;
  return to;
}

const failure = (_tag: ContextToolError["_tag"], message: string): { readonly error: ContextToolError } => ({ error: { _tag, message } });
const problemText = (errors: t.Errors): string => problemsOf(errors).map((p) => p.message).join("; ");

/**
 * The two tools bound to a manager (a processor's `manager`), keyed by their names, ready for an
 * agent's `tools`. Invalid options (an unknown field, a bad `maxExpandChars`) throw an
 * `InvalidOptionsError` of @cc/validate naming the field.
 *
 * @example
 * const agent = new Agent({ …, tools: { ...myTools, ...contextTools(compaction.manager) } });
 */
export function contextTools(manager: ContextManager, options: ContextToolOptions = {}) {
  const maxPage = decodeOrThrow(decodeToolOptions, options).maxExpandChars ?? 8000;
  const ExpandArgs = objectCodec("ExpandContextArgs", { id: nonEmptyString }, { offset: intIn(0, Number.MAX_SAFE_INTEGER), maxChars: intIn(1, maxPage) });
  const search_context = createTool({
    id: "search_context",
    description:
      "Search earlier context that was evicted from your window (tool outputs, messages). Returns ids with summaries and snippets; call expand_context with an id to read the original.",
    inputSchema: {
      type: "object",
      properties: { query: { type: "string", description: "Words to look for: file paths, identifiers, error text." }, k: { type: "integer", minimum: 1, maximum: 50, description: "How many hits (default 5)." } },
      required: ["query"],
      additionalProperties: false,
    },
    execute: async (input: unknown): Promise<ContextSearchResult> => {
      const a = SearchArgs.decode(input);
      if (E.isLeft(a)) return failure("InvalidArguments", problemText(a.left));
      try {
        const hits = await manager.search(a.right.query, a.right.k ?? 5);
        return { hits: hits.map((h) => ({ id: h.id, kind: h.kind, summary: h.summary, snippet: h.snippet, tokens: h.tokenCost })) };
      } catch (e) {
        return failure("IndexFailed", `the context journal is unavailable (${e instanceof Error ? e.message : String(e)})`);
      }
    },
  });
  const expand_context = createTool({
    id: "expand_context",
    description: `Read the original content of evicted context by its id (from search_context or the eviction note), up to ${maxPage} characters per call; pass nextOffset as offset to continue.`,
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: "The id of a search_context hit or of an entry of the note." },
        offset: { type: "integer", minimum: 0, description: "Character offset to start from (default 0)." },
        maxChars: { type: "integer", minimum: 1, maximum: maxPage, description: `Characters to return (1-${maxPage}).` },
      },
      required: ["id"],
      additionalProperties: false,
    },
    execute: async (input: unknown): Promise<ContextExpandResult> => {
      const a = ExpandArgs.decode(input);
      if (E.isLeft(a)) return failure("InvalidArguments", problemText(a.left));
      let content: string | undefined;
      try {
        content = await manager.expand(a.right.id);
      } catch (e) {
        return failure("IndexFailed", `the context journal is unavailable (${e instanceof Error ? e.message : String(e)})`);
      }
      if (content === undefined) return failure("NotFound", `no evicted context with id ${JSON.stringify(a.right.id)}`);
      const from = Math.min(a.right.offset ?? 0, content.length);
      const to = pageEnd(content, from, a.right.maxChars ?? maxPage);
      return { id: a.right.id, content: content.slice(from, to), offset: from, totalChars: content.length, ...(to < content.length ? { nextOffset: to } : {}) };
    },
  });
  return { search_context, expand_context } as const;
}
