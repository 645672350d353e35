/**
 * Agent tools over a `SegmentIndex` in the OpenAI function-calling shape: `journal_search` finds
 * summaries of evicted context, `journal_expand` brings an original back (in pages, so a huge
 * original cannot flood the context window).
 *
 * @module tools
 */
import * as E from "fp-ts/lib/Either.js";
import { invalid, type InvalidOptions } from "@cc/validate";
import type * as TE from "fp-ts/lib/TaskEither.js";
import * as t from "io-ts";
import type { IndexError, SearchHit, SegmentIndex } from "@cc/search";
import { DEFAULT_NAMESPACE, messageOf } from "@cc/search/internal";

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

/** Options of {@link journalTools} (validated by {@link decodeJournalToolOptions}; unknown keys are refused). */
export interface JournalToolOptions {
  /**
   * Namespace the tools read (fixed by the host, not chosen by the model; non-empty).
   * @default "default"
   */
  readonly namespace?: string;
  /**
   * Largest page `journal_expand` returns, in UTF-16 code units (integer 1..10000000).
   * @default 8000
   */
  readonly maxExpandChars?: number;
  /**
   * Most hits `journal_search` returns (integer 1..1000).
   * @default 20
   */
  readonly maxHits?: number;
}

/** {@link JournalToolOptions} with the defaults applied. */
export interface JournalToolConfig {
  readonly namespace: string;
  readonly maxExpandChars: number;
  readonly maxHits: number;
}

/** Tool options were rejected; `problems` has one line per field. */
export type InvalidToolOptions = InvalidOptions;

/** The two journal tools. */
export interface JournalTools {
  readonly search: AgentTool<JournalSearchResult>;
  readonly expand: AgentTool<JournalExpandResult>;
}

const int = (min: number, max: number): t.Type<number, number, unknown> =>
  new t.Type<number, number, unknown>(
    `Integer(${min}..${max})`,
    (u): u is number => typeof u === "number" && Number.isInteger(u) && u >= min && u <= max,
    (u, c) =>
      typeof u === "number" && Number.isInteger(u) && u >= min && u <= max ? t.success(u) : t.failure(u, c, `expected an integer in ${min}..${max}`),
    t.identity,
  );

const NonEmptyString = new t.Type<string, string, unknown>(
  "NonEmptyString",
  (u): u is string => typeof u === "string" && u !== "",
  (u, c) => (typeof u === "string" && u !== "" ? t.success(u) : t.failure(u, c, "expected a non-empty string")),
  t.identity,
);

/** io-ts codec of {@link JournalToolOptions} (unknown keys are checked by {@link decodeJournalToolOptions}). */
export const JournalToolOptionsCodec = t.readonly(t.partial({ namespace: NonEmptyString, maxExpandChars: int(1, 10_000_000), maxHits: int(1, 1000) }));

const toolOptionKeys: readonly string[] = ["namespace", "maxExpandChars", "maxHits"];

const showValue = (u: unknown): string => (typeof u === "string" ? JSON.stringify(u.slice(0, 80)) : typeof u === "object" && u !== null ? "an object" : String(u));

/**
 * Validates tool options and applies the defaults: a page size or hit count that is 0, negative,
 * fractional, NaN or infinite is refused (it would make paging stall), as is an unknown key.
 *
 * @example
 * decodeJournalToolOptions({ maxExpandChars: 0 });
 * // left({ _tag: "InvalidOptions", subject: "journal tool options", problems: ["maxExpandChars: expected an integer in 1..10000000, got 0"] })
 */
export function decodeJournalToolOptions(input: unknown): E.Either<InvalidToolOptions, JournalToolConfig> {
  const fail = (problems: readonly string[]): E.Either<InvalidToolOptions, JournalToolConfig> => E.left(invalid("InvalidOptions", "journal tool options", problems));
  if (typeof input !== "object" || input === null || Array.isArray(input)) return fail([`options: expected an object, got ${showValue(input)}`]);
  const record = input as Readonly<Record<string, unknown>>;
  const problems: string[] = [];
  for (const key of Object.keys(record)) {
    if (toolOptionKeys.includes(key)) continue;
    const near = toolOptionKeys.find((k) => k.toLowerCase() === key.replace(/[_-]/g, "").toLowerCase() || (key.length >= 4 && k.toLowerCase().startsWith(key.toLowerCase().slice(0, 6))));
    problems.push(`${key} is not an option${near === undefined ? ` (known: ${toolOptionKeys.join(", ")})` : `; did you mean ${near}?`}`);
  }
  const defined = Object.fromEntries(Object.entries(record).filter(([k, v]) => v !== undefined && toolOptionKeys.includes(k)));
  const decoded = JournalToolOptionsCodec.decode(defined);
  if (E.isLeft(decoded)) {
    for (const error of decoded.left) {
      const field = error.context.map((c) => c.key).filter((k) => k !== "")[0] ?? "options";
      problems.push(`${field}: ${error.message ?? "invalid value"}, got ${showValue(error.value)}`);
    }
  }
  if (problems.length > 0 || E.isLeft(decoded)) return fail([...new Set(problems)]);
  return E.right({ namespace: decoded.right.namespace ?? DEFAULT_NAMESPACE, maxExpandChars: decoded.right.maxExpandChars ?? 8000, maxHits: decoded.right.maxHits ?? 20 });
}

/** One page of a text. */
export interface TextPage {
  readonly content: string;
  /** Where the page starts (the requested offset, moved back onto a code point boundary). */
  readonly offset: number;
  /** Where the next page starts; absent when this page reaches the end. */
  readonly nextOffset?: number;
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
/** True when `at` falls between the two halves of a surrogate pair of `text`. */
const splitsPair = (text: string, at: number): boolean => at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at));

/**
 * The page of `text` from `offset` holding at most `maxChars` UTF-16 code units (pure). Pages
 * never split a surrogate pair (lone surrogates are ordinary units): an offset inside a pair moves
 * back to its start, a page end inside one moves back before it — or, when the pair is the page's
 * only code point, past it, so a page always advances by at least one whole code point (it is
 * then one unit over `maxChars`). Following `nextOffset` from 0 visits `text` exactly once.
 *
 * @example textPage("a😀b", 1, 1) // { content: "😀", offset: 1, nextOffset: 3 }
 */
export function textPage(text: string, offset: number, maxChars: number): TextPage {
  const total = text.length;
  const step = Number.isSafeInteger(maxChars) && maxChars >= 1 ? maxChars : 1;
  let from = Number.isSafeInteger(offset) && offset > 0 ? Math.min(offset, total) : 0;
  if (splitsPair(text, from)) from--;
  let to = Math.min(total, from + step);
  if (splitsPair(text, to)) to = to - 1 > from ? to - 1 : to + 1;
  return { content: text.slice(from, to), offset: from, ...(to < total ? { nextOffset: to } : {}) };
}

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
 * The `journal_search` and `journal_expand` tools bound to one index and namespace, or the
 * problems of `options` (see {@link decodeJournalToolOptions}).
 *
 * @example
 * const tools = journalTools(index, { namespace: "session-42" });
 * if (E.isLeft(tools)) throw new Error(tools.left.problems.join("; "));
 * const { search, expand } = tools.right;
 * const forApi = [search, expand].map(({ type, function: f }) => ({ type, function: f })); // for the API
 * const r = await search.execute('{"query":"ValueError in src/app.py"}')();
 */
export function journalTools(index: SegmentIndex, options: JournalToolOptions = {}): E.Either<InvalidToolOptions, JournalTools> {
  const config = decodeJournalToolOptions(options);
  if (E.isLeft(config)) return config;
  const { namespace, maxExpandChars: maxPage, maxHits } = config.right;
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
      const r = await index.search(a.right.query, { k: a.right.k ?? Math.min(5, maxHits), namespace, ...(a.right.kinds === undefined ? {} : { kinds: a.right.kinds }) })();
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
      const page = textPage(entry.content, a.right.offset ?? 0, a.right.maxChars ?? maxPage);
      return E.right({ id: entry.id, kind: entry.kind, ...page, totalChars: entry.content.length });
    },
  };
  return E.right({ search, expand });
}
