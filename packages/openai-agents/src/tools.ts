/**
 * `search_context` and `expand_context`: function tools (made with the SDK's `tool()`) over the
 * units a context manager evicted, so the agent can find and read back what left its context.
 * Every failure is a tool output the model can read (`InvalidArguments: …`, `NotFound: …`,
 * `IndexFailed: …`), never a thrown error.
 *
 * @module tools
 */
import type { ContextManager } from "@cc/context";
import { tool, type FunctionTool } from "@openai/agents";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { decodeOrThrow, decodeWith, intIn, nonEmptyString, objectCodec } from "@cc/validate";

/**
 * Settings of the two tools.
 *
 * @example
 * const settings: ContextToolSettings = { maxHits: 5, maxExpandChars: 8000 };
 */
export interface ContextToolSettings {
  readonly maxHits: number;
  readonly maxExpandChars: number;
}

/** io-ts codec of {@link ContextToolSettings} (closed; both fields required). */
export const ContextToolSettingsCodec = objectCodec("ContextToolSettings", { maxHits: intIn(1, 100), maxExpandChars: intIn(1, 10_000_000) }, {}, { expected: "a settings object" });

const decodeSettings = decodeWith(ContextToolSettingsCodec, "InvalidOptions", "context tool settings");

const SearchArgs = objectCodec("SearchContextArguments", { query: nonEmptyString }, {}, { expected: "an arguments object" });
const ExpandArgs = objectCodec("ExpandContextArguments", { id: nonEmptyString }, { offset: t.union([t.null, intIn(0, Number.MAX_SAFE_INTEGER)]) }, { expected: "an arguments object" });
const decodeSearch = decodeWith(SearchArgs, "InvalidInput", "search_context arguments");
const decodeExpand = decodeWith(ExpandArgs, "InvalidInput", "expand_context arguments");

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const searchParameters = {
  type: "object" as const,
  properties: { query: { type: "string", description: "Words to look for: file paths, identifiers, error text." } },
  required: ["query"],
  additionalProperties: false as const,
};
const expandParameters = {
  type: "object" as const,
  properties: {
    id: { type: "string", description: "The id of an evicted unit." },
    offset: { type: ["integer", "null"], description: "Character offset to start from (null or 0 for the start)." },
  },
  required: ["id", "offset"],
  additionalProperties: false as const,
};

/**
 * `search_context`: finds evicted units by words (returns JSON `{ hits: [{ id, kind, summary, snippet, tokens }] }`).
 *
 * @example
 * const [search]: readonly [SearchContextTool, ExpandContextTool] = cc.tools;
 */
export type SearchContextTool = FunctionTool<unknown, typeof searchParameters, string>;
/**
 * `expand_context`: the original text of an evicted unit by id (paged when longer than `maxExpandChars`).
 *
 * @example
 * const text = await cc.tools[1].invoke(new RunContext(), JSON.stringify({ id: "u0123456789abcdef", offset: null }));
 */
export type ExpandContextTool = FunctionTool<unknown, typeof expandParameters, string>;

/**
 * The two tools bound to `manager` (its index and namespace). Invalid settings (an unknown or
 * missing field, a number out of range) throw an `InvalidOptionsError` of @cc/validate naming the
 * field.
 *
 * @example
 * const [search, expand] = contextTools(manager, { maxHits: 5, maxExpandChars: 8000 });
 * const agent = new Agent({ name: "a", tools: [search, expand] });
 */
export function contextTools(manager: ContextManager, settings: ContextToolSettings): readonly [SearchContextTool, ExpandContextTool] {
  decodeOrThrow(decodeSettings, settings);
  const search: SearchContextTool = tool({
    name: "search_context",
    description:
      "Search earlier parts of this conversation that were moved out of your context (listed in the 'Evicted to the journal' note). Returns ids, kinds and summaries; read one with expand_context.",
    parameters: searchParameters,
    strict: true,
    execute: async (input: unknown): Promise<string> => {
      const args = decodeSearch(input);
      if (E.isLeft(args)) return `InvalidArguments: ${args.left.message}`;
      try {
        const hits = await manager.search(args.right.query, settings.maxHits);
        return JSON.stringify({ hits: hits.map((h) => ({ id: h.id, kind: h.kind, summary: h.summary, snippet: h.snippet, tokens: h.tokenCost })) });
      } catch (e) {
        return `IndexFailed: ${errorText(e)}`;
      }
    },
  });
  const expand: ExpandContextTool = tool({
    name: "expand_context",
    description: `Read the original text of an evicted part of this conversation by its id (from the note or search_context), up to ${settings.maxExpandChars} characters per call; pass nextOffset as offset to continue.`,
    parameters: expandParameters,
    strict: true,
    execute: async (input: unknown): Promise<string> => {
      const args = decodeExpand(input);
      if (E.isLeft(args)) return `InvalidArguments: ${args.left.message}`;
      try {
        const content = await manager.expand(args.right.id);
        if (content === undefined) return `NotFound: no evicted unit has id ${JSON.stringify(args.right.id)}`;
        return expandPage(content, args.right.offset ?? 0, settings.maxExpandChars);
      } catch (e) {
        return `IndexFailed: ${errorText(e)}`;
      }
    },
  });
  return [search, expand];
}

/**
 * One page of an original: the whole text when it fits (so a short original comes back
 * byte for byte), else a JSON page `{ content, offset, totalChars, nextOffset? }`. Offsets never
 * split a surrogate pair.
 *
 * @example expandPage("hello", 0, 8000) // "hello"
 */
export function expandPage(content: string, offset: number, maxChars: number): string {
  if (offset === 0 && content.length <= maxChars) return content;
  const from = Math.min(offset, content.length) - (isLowSurrogate(content, offset) ? 1 : 0);
  let to = Math.min(content.length, from + maxChars);
  if (to < content.length && isLowSurrogate(content, to) && to - 1 > from) to -= 1;
  return JSON.stringify({ content: content.slice(from, to), offset: from, totalChars: content.length, ...(to < content.length ? { nextOffset: to } : {}) });
}

const isLowSurrogate = (s: string, i: number): boolean => {
  const c = s.charCodeAt(i);
  return i > 0 && i < s.length && c >= 0xdc00 && c <= 0xdfff;
};
