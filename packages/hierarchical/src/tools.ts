/**
 * Agent tools over a `SegmentIndex` in the OpenAI function-calling shape: `journal_search` finds
 * summaries of evicted context, `journal_expand` brings an original back (in pages, so a huge
 * original cannot flood the context window).
 *
 * @module tools
 */
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import * as t from "io-ts";
import type { IndexError, SearchHit, SegmentIndex } from "./search/index.js";
import { DEFAULT_NAMESPACE, messageOf } from "./search/index.js";

/** JSON Schema of a tool's parameters (the subset the tools use). */
export interface JsonSchema {
  readonly type: "object" | "string" | "integer" | "array";
  readonly description?: string;
  readonly properties?: { readonly [name: string]: JsonSchema };
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly additionalProperties?: boolean;
}

/** Why a tool call failed; `message` is written for the model to read. */
export type ToolError =
  | { readonly _tag: "InvalidArguments"; readonly message: string }
  | { readonly _tag: "NotFound"; readonly message: string }
  | { readonly _tag: "IndexFailed"; readonly message: string; readonly error: IndexError };

/**
 * A tool definition (`type` + `function`, as OpenAI-compatible APIs take it) with its executor.
 * `execute` accepts the model's raw JSON arguments (string) or an already parsed object.
 */
export interface AgentTool<R> {
  readonly type: "function";
  readonly function: { readonly name: string; readonly description: string; readonly parameters: JsonSchema };
  execute(args: unknown): TE.TaskEither<ToolError, R>;
}

/** Result of `journal_search`. */
export interface JournalSearchResult {
  readonly hits: readonly Pick<SearchHit, "id" | "kind" | "summary" | "snippet" | "tokenCost">[];
}

/** Result of `journal_expand`: a page of the original content. */
export interface JournalExpandResult {
  readonly id: string;
  readonly kind: string;
  readonly content: string;
  readonly offset: number;
  readonly totalChars: number;
  /** Offset of the next page, absent when this page reaches the end. */
  readonly nextOffset?: number;
}

/** Options of {@link journalTools}. */
export interface JournalToolOptions {
  /** Namespace the tools read (fixed by the host, not chosen by the model). Default "default". */
  readonly namespace?: string;
  /** Largest page `journal_expand` returns, in characters (default 8000). */
  readonly maxExpandChars?: number;
  /** Most hits `journal_search` returns (default 20). */
  readonly maxHits?: number;
}

const int = (min: number, max: number): t.Type<number, number, unknown> =>
  new t.Type<number, number, unknown>(
    `Integer(${min}..${max})`,
    (u): u is number => typeof u === "number" && Number.isInteger(u) && u >= min && u <= max,
    (u, c) =>
      typeof u === "number" && Number.isInteger(u) && u >= min && u <= max ? t.success(u) : t.failure(u, c, `expected an integer in ${min}..${max}`),
    t.identity,
  );

function parseArgs<A>(codec: t.Type<A, A, unknown>, raw: unknown): E.Either<ToolError, A> {
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = raw.trim() === "" ? {} : JSON.parse(raw);
    } catch (e) {
      return E.left({ _tag: "InvalidArguments", message: `arguments: malformed JSON (${messageOf(e)})` });
    }
  }
  const r = codec.decode(value);
  if (E.isRight(r)) return r;
  const problems = r.left.map((err) => {
    const path = err.context.map((c) => c.key).filter((k) => k !== "" && !/^\d+$/.test(k)).join(".");
    return `${path === "" ? "arguments" : path}: ${err.message ?? `expected ${err.context[err.context.length - 1]?.type.name ?? "a valid value"}`}`;
  });
  return E.left({ _tag: "InvalidArguments", message: [...new Set(problems)].join("; ") });
}

const indexFailed = (error: IndexError): ToolError => ({ _tag: "IndexFailed", message: `the journal is unavailable (${error._tag})`, error });

/**
 * The `journal_search` and `journal_expand` tools bound to one index and namespace.
 *
 * @example
 * const { search, expand } = journalTools(index, { namespace: "session-42" });
 * const tools = [search, expand].map(({ type, function: f }) => ({ type, function: f })); // for the API
 * const r = await search.execute('{"query":"ValueError in src/app.py"}')();
 */
export function journalTools(index: SegmentIndex, options: JournalToolOptions = {}): { readonly search: AgentTool<JournalSearchResult>; readonly expand: AgentTool<JournalExpandResult> } {
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const maxPage = options.maxExpandChars ?? 8000;
  const maxHits = options.maxHits ?? 20;
  const SearchArgs = t.intersection([t.type({ query: t.string }), t.partial({ k: int(1, maxHits), kinds: t.array(t.string) })]);
  const ExpandArgs = t.intersection([t.type({ id: t.string }), t.partial({ offset: int(0, Number.MAX_SAFE_INTEGER), maxChars: int(1, maxPage) })]);

  const search: AgentTool<JournalSearchResult> = {
    type: "function",
    function: {
      name: "journal_search",
      description:
        "Search summaries of earlier context that was evicted from your window (tool outputs, files, messages). " +
        "Returns ids with summaries and snippets; call journal_expand with an id to read the original.",
      parameters: {
        type: "object",
        properties: {
          query: { type: "string", description: "Words to look for: file paths, identifiers, error text." },
          k: { type: "integer", description: `How many hits (1-${maxHits}, default 5).`, minimum: 1, maximum: maxHits },
          kinds: { type: "array", items: { type: "string" }, description: "Only these kinds, e.g. tool_result, file, message." },
        },
        required: ["query"],
        additionalProperties: false,
      },
    },
    execute: (args) => async () => {
      const a = parseArgs(SearchArgs, args);
      if (E.isLeft(a)) return a;
      const r = await index.search(a.right.query, { k: a.right.k ?? 5, namespace, ...(a.right.kinds === undefined ? {} : { kinds: a.right.kinds }) })();
      if (E.isLeft(r)) return E.left(indexFailed(r.left));
      return E.right({ hits: r.right.map(({ id, kind, summary, snippet, tokenCost }) => ({ id, kind, summary, snippet, tokenCost })) });
    },
  };

  const expand: AgentTool<JournalExpandResult> = {
    type: "function",
    function: {
      name: "journal_expand",
      description: `Read the original content of an evicted segment by its id (from journal_search), up to ${maxPage} characters per call; pass nextOffset as offset to continue.`,
      parameters: {
        type: "object",
        properties: {
          id: { type: "string", description: "The id of a journal_search hit." },
          offset: { type: "integer", description: "Character offset to start from (default 0).", minimum: 0 },
          maxChars: { type: "integer", description: `Characters to return (1-${maxPage}).`, minimum: 1, maximum: maxPage },
        },
        required: ["id"],
        additionalProperties: false,
      },
    },
    execute: (args) => async () => {
      const a = parseArgs(ExpandArgs, args);
      if (E.isLeft(a)) return a;
      const r = await index.expand(a.right.id, namespace)();
      if (E.isLeft(r)) return E.left(indexFailed(r.left));
      const entry = r.right;
      if (entry === undefined) return E.left({ _tag: "NotFound", message: `no journal entry with id ${JSON.stringify(a.right.id)}` });
      const total = entry.content.length;
      let from = Math.min(a.right.offset ?? 0, total);
      if (from > 0 && from < total && isLow(entry.content.charCodeAt(from))) from--;
      let to = Math.min(total, from + (a.right.maxChars ?? maxPage));
      if (to < total && to > from + 1 && isLow(entry.content.charCodeAt(to))) to--;
      return E.right({
        id: entry.id,
        kind: entry.kind,
        content: entry.content.slice(from, to),
        offset: from,
        totalChars: total,
        ...(to < total ? { nextOffset: to } : {}),
      });
    },
  };
  return { search, expand };
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
