/**
 * The one tool core: `search_context` and `expand_context` over a `SegmentIndex`, defined once —
 * names, description texts, JSON-schema parameters, argument decoding, paging and error texts —
 * and wrapped by every face (MCP and each framework adapter) into its framework's tool type, so
 * the model sees the same tools everywhere.
 *
 * A tool's `run` takes the model's raw arguments (a JSON string or a parsed object) and never
 * rejects: a bad argument, an unknown id or a failing index is a typed {@link ContextToolError}.
 * {@link toolReply} turns an outcome into what the model reads, the same in every face.
 *
 * @module tools
 */
import type { IndexError, SearchHit, SegmentIndex } from "@cc/search";
import { DEFAULT_NAMESPACE } from "@cc/search/internal";
import {
  decodeWith,
  intIn,
  invalid,
  nonEmptyString,
  objectCodec,
  type InvalidOptions,
  type Problem,
} from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { textPage } from "./page.js";

/**
 * The tool names every face uses (the journal tools' `journal_search` / `journal_expand` are
 * deprecated aliases of these).
 *
 * @example CONTEXT_TOOL_NAMES // { search: "search_context", expand: "expand_context" }
 */
export const CONTEXT_TOOL_NAMES = { search: "search_context", expand: "expand_context" } as const;

/**
 * JSON Schema of a tool's parameters (the subset the tools use).
 *
 * @example const s: JsonSchema = { type: "object", properties: { query: { type: "string" } }, required: ["query"] };
 */
export interface JsonSchema {
  readonly type: "object" | "string" | "integer" | "array" | readonly ["string" | "integer" | "array", "null"];
  readonly description?: string;
  readonly properties?: { readonly [name: string]: JsonSchema };
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly additionalProperties?: boolean;
}

/**
 * Why a tool call produced no result. `message` is the text the model reads (the same in every
 * face); `problems` lists each bad argument; `IndexFailed` keeps the index's typed error.
 *
 * @example const error: ContextToolError = { _tag: "NotFound", subject: "expand_context", problems: [], message: 'expand_context: no evicted entry with id "u1"' };
 */
export type ContextToolError =
  | {
      readonly _tag: "InvalidArguments";
      readonly subject: string;
      readonly problems: readonly Problem[];
      readonly message: string;
    }
  | { readonly _tag: "NotFound"; readonly subject: string; readonly problems: readonly []; readonly message: string }
  /** `cause`: the index's typed `IndexError`, or what a user-supplied index threw. */
  | {
      readonly _tag: "IndexFailed";
      readonly subject: string;
      readonly problems: readonly [];
      readonly message: string;
      readonly cause: unknown;
    };

/**
 * One hit of `search_context`, best first (the order is the rank: a backend's raw score means
 * nothing to the model). `namespace` is present only when the tools are not confined to one
 * namespace (see {@link ContextToolOptions.namespace}).
 *
 * @example const hit: ContextHit = { id: "u0123…", kind: "tool:bash", summary: "pytest: 2 failed", snippet: "…**KeyError**…", tokens: 812 };
 */
export interface ContextHit {
  readonly id: string;
  readonly namespace?: string;
  readonly kind: string;
  readonly summary: string;
  /** Excerpt around the match, matched terms marked `**like this**`. */
  readonly snippet: string;
  /** Tokens the original costs when expanded whole. */
  readonly tokens: number;
}

/**
 * What `search_context` returns.
 *
 * @example const result: SearchContextResult = { hits: [] };
 */
export interface SearchContextResult {
  readonly hits: readonly ContextHit[];
}

/**
 * What `expand_context` returns: one page of an original, which never splits a surrogate pair.
 *
 * @example const page: ExpandContextResult = { id: "u1", kind: "tool:bash", content: "…", offset: 0, totalChars: 12000, nextOffset: 8000 };
 */
export interface ExpandContextResult {
  readonly id: string;
  readonly namespace?: string;
  readonly kind: string;
  /** The page of the original text. */
  readonly content: string;
  /** Where the page starts, in UTF-16 code units. */
  readonly offset: number;
  /** Length of the whole original, in UTF-16 code units. */
  readonly totalChars: number;
  /** Where the next page starts; absent when this page reaches the end. */
  readonly nextOffset?: number;
}

/**
 * One tool of the core: its definition and its executor.
 *
 * @example
 * const r = await core.search.run('{"query":"KeyError"}');
 * const reply = toolReply(r); // what the model reads
 */
export interface ContextTool<R> {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /** Runs a call; never rejects. Optional arguments may be absent or `null` (strict function calling sends `null`). */
  run(args: unknown): Promise<E.Either<ContextToolError, R>>;
}

/**
 * The two tools bound to one index (and namespace).
 *
 * @example
 * const core = contextToolCore(index, { namespace: "run-1" });
 * if (E.isRight(core)) { const { search, expand } = core.right; }
 */
export interface ContextToolCore {
  readonly search: ContextTool<SearchContextResult>;
  readonly expand: ContextTool<ExpandContextResult>;
}

/**
 * Options of {@link contextToolCore} (decoded by a closed codec: unknown keys are refused).
 *
 * @example contextToolCore(index, { namespace: "run-1", maxExpandChars: 4000 })
 */
export interface ContextToolOptions {
  /**
   * Confine both tools to this namespace (non-empty). Without it the tools take a `namespace`
   * argument: `search_context` then searches every namespace unless one is named, and
   * `expand_context` reads the default namespace unless one is named.
   * @default every namespace
   */
  readonly namespace?: string;
  /**
   * Default and largest page of `expand_context`, in UTF-16 code units (integer 1..10000000).
   * @default 8000
   */
  readonly maxExpandChars?: number;
  /**
   * Page of `expand_context` when the call gives no `maxChars` (integer 1..10000000, at most
   * `maxExpandChars`).
   * @default maxExpandChars
   */
  readonly defaultExpandChars?: number;
  /**
   * Most hits one `search_context` call may ask for (integer 1..1000).
   * @default 50
   */
  readonly maxHits?: number;
  /**
   * Hits `search_context` returns when the call gives no `k` (integer 1..1000, at most `maxHits`).
   * @default 5
   */
  readonly defaultK?: number;
}

/** Closed io-ts codec of {@link ContextToolOptions}. */
export const ContextToolOptionsCodec = objectCodec(
  "ContextToolOptions",
  {},
  {
    namespace: nonEmptyString,
    maxExpandChars: intIn(1, 10_000_000),
    defaultExpandChars: intIn(1, 10_000_000),
    maxHits: intIn(1, 1000),
    defaultK: intIn(1, 1000),
  },
  { expected: "a tool options object" },
);

const decodeOptions = decodeWith(ContextToolOptionsCodec, "InvalidOptions", "context tool options");

/** The options with defaults applied. */
interface ToolConfig {
  readonly namespace: string | undefined;
  readonly maxExpandChars: number;
  readonly defaultExpandChars: number;
  readonly maxHits: number;
  readonly defaultK: number;
}

/**
 * Validates tool options and applies the defaults (a page size or hit count that is 0, negative,
 * fractional, NaN or infinite is refused: it would make paging stall; so is an unknown key).
 *
 * @example decodeContextToolOptions({ maxExpandChars: 0 }) // left({ _tag: "InvalidOptions", … })
 */
export function decodeContextToolOptions(input: unknown): E.Either<InvalidOptions, ToolConfig> {
  const d = decodeOptions(input);
  if (E.isLeft(d)) return d;
  const maxHits = d.right.maxHits ?? 50;
  const defaultK = d.right.defaultK ?? Math.min(5, maxHits);
  const maxExpandChars = d.right.maxExpandChars ?? 8000;
  const defaultExpandChars = d.right.defaultExpandChars ?? maxExpandChars;
  const problems = [
    ...(defaultK > maxHits
      ? [{ path: "defaultK", field: "defaultK", message: `defaultK: ${defaultK} is more than maxHits (${maxHits})` }]
      : []),
    ...(defaultExpandChars > maxExpandChars
      ? [
          {
            path: "defaultExpandChars",
            field: "defaultExpandChars",
            message: `defaultExpandChars: ${defaultExpandChars} is more than maxExpandChars (${maxExpandChars})`,
          },
        ]
      : []),
  ];
  if (problems.length > 0) return E.left(invalid("InvalidOptions", "context tool options", problems));
  return E.right({ namespace: d.right.namespace, maxExpandChars, defaultExpandChars, maxHits, defaultK });
}

/**
 * What the model reads for an outcome, the same in every face: the result object, or
 * `{ error: { _tag, message } }`. `text` is its JSON; `isError` marks a failure.
 *
 * @example toolReply(await core.search.run({ query: "x" })).text // '{"hits":[]}'
 */
export function toolReply<R extends object>(
  outcome: E.Either<ContextToolError, R>,
): {
  readonly value: R | { readonly error: { readonly _tag: ContextToolError["_tag"]; readonly message: string } };
  readonly text: string;
  readonly isError: boolean;
} {
  const value = E.isLeft(outcome)
    ? { error: { _tag: outcome.left._tag, message: outcome.left.message } }
    : outcome.right;
  return { value, text: JSON.stringify(value), isError: E.isLeft(outcome) };
}

/**
 * The parameters of a tool in the shape OpenAI's strict function calling requires: every
 * property required, an optional one nullable (`null` means "use the default" to the core).
 *
 * @example strictParameters(core.search.parameters).required // ["query", "k", "kinds"]
 */
export function strictParameters(schema: JsonSchema): JsonSchema {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const strict = Object.fromEntries(
    Object.entries(properties).map(([name, p]) => [
      name,
      required.has(name) || typeof p.type !== "string" || p.type === "object"
        ? p
        : { ...p, type: [p.type, "null"] as const },
    ]),
  );
  return { ...schema, properties: strict, required: Object.keys(properties), additionalProperties: false };
}

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const shown = (s: string): string => JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** The model's arguments as an object: a JSON string is parsed, `null` optional fields are dropped. */
function argumentsOf(raw: unknown): E.Either<string, unknown> {
  let value: unknown = raw ?? {};
  if (typeof raw === "string") {
    try {
      value = raw.trim() === "" ? {} : JSON.parse(raw);
    } catch (e) {
      return E.left(`arguments: malformed JSON (${describe(e)})`);
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return E.right(value);
  return E.right(Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null)));
}

/**
 * Confined tools take no `namespace`: a call naming their own is served (the argument dropped),
 * one naming another is refused by name.
 */
function ownNamespace(args: unknown, confined: string): E.Either<string, unknown> {
  if (typeof args !== "object" || args === null || Array.isArray(args) || !("namespace" in args)) return E.right(args);
  const { namespace, ...rest } = args as Record<string, unknown>;
  if (namespace === confined) return E.right(rest);
  const asked = typeof namespace === "string" ? shown(namespace) : typeof namespace;
  return E.left(`namespace: these tools serve only namespace ${shown(confined)}, got ${asked}`);
}

/** The names and descriptions the two tools go by (the journal aliases pass their own names). */
interface ToolNames {
  readonly search: string;
  readonly expand: string;
}

/**
 * The description texts of the two tools (one text for every face).
 *
 * For example, `descriptions({ search: "search_context", expand: "expand_context" }, 8000, 8000, true).search`.
 */
function descriptions(
  names: ToolNames,
  defaultPage: number,
  maxPage: number,
  confined: boolean,
): { readonly search: string; readonly expand: string } {
  const pages =
    defaultPage === maxPage
      ? `up to ${maxPage} characters per call`
      : `${defaultPage} characters per call by default, at most ${maxPage}`;
  return {
    search:
      "Search summaries of earlier context that was evicted from your window (tool outputs, files, messages). " +
      `Returns ids with summaries and snippets; call ${names.expand} with an id${confined ? "" : " (and its namespace)"} to read the original.`,
    expand:
      `Read the original text of evicted context by its id (from ${names.search} or the eviction note), ${pages}; ` +
      "when the result has nextOffset, pass it as offset to read the next page.",
  };
}

/** A tool's definition: what a face registers (the executor aside). */
type Definition = Pick<ContextTool<unknown>, "name" | "description" | "parameters">;

/** The two tools' definitions for decoded settings (pure; no index needed). */
function definitionsOf(
  config: ToolConfig,
  names: ToolNames,
): { readonly search: Definition; readonly expand: Definition } {
  const { maxExpandChars: maxPage, defaultExpandChars: defaultPage, maxHits, defaultK } = config;
  const confined = config.namespace !== undefined;
  const text = descriptions(names, defaultPage, maxPage, confined);
  const nsSchema: { readonly [name: string]: JsonSchema } = confined
    ? {}
    : { namespace: { type: "string", minLength: 1, description: "Only this namespace (session, agent or tenant)." } };
  return {
    search: {
      name: names.search,
      description: text.search,
      parameters: {
        type: "object",
        properties: {
          query: { type: "string", description: "Words to look for: file paths, identifiers, error text." },
          k: {
            type: "integer",
            minimum: 1,
            maximum: maxHits,
            description: `How many hits (1-${maxHits}, default ${defaultK}).`,
          },
          kinds: {
            type: "array",
            items: { type: "string" },
            description: "Only these kinds, e.g. tool_result, file, message.",
          },
          ...nsSchema,
        },
        required: ["query"],
        additionalProperties: false,
      },
    },
    expand: {
      name: names.expand,
      description: text.expand,
      parameters: {
        type: "object",
        properties: {
          id: { type: "string", description: `The id of a ${names.search} hit or of an entry of the eviction note.` },
          offset: { type: "integer", minimum: 0, description: "Character offset to start from (default 0)." },
          maxChars: {
            type: "integer",
            minimum: 1,
            maximum: maxPage,
            description: `Characters to return (1-${maxPage}, default ${defaultPage}).`,
          },
          ...(confined
            ? {}
            : {
                namespace: {
                  type: "string",
                  minLength: 1,
                  description: "The namespace of the hit (default: the default namespace).",
                },
              }),
        },
        required: ["id"],
        additionalProperties: false,
      },
    },
  };
}

/**
 * The definitions (name, description, JSON-schema parameters) of the two tools for `options`, with
 * no index: for a face that registers its tools before it knows which manager serves a call (one
 * per thread). Identical to those of `contextToolCore(index, options)`: give the `namespace` the
 * tools will be confined to (its name never appears in the definitions; any name gives a
 * confined tool's definitions), or none for tools that take a `namespace` argument.
 *
 * @example contextToolDefinitions({ namespace: "run-1" }) // right({ search: { name: "search_context", … }, expand: { … } })
 */
export function contextToolDefinitions(options: ContextToolOptions = {}): E.Either<
  InvalidOptions,
  {
    readonly search: Pick<ContextTool<SearchContextResult>, "name" | "description" | "parameters">;
    readonly expand: Pick<ContextTool<ExpandContextResult>, "name" | "description" | "parameters">;
  }
> {
  const config = decodeContextToolOptions(options);
  return E.isLeft(config) ? config : E.right(definitionsOf(config.right, CONTEXT_TOOL_NAMES));
}

/**
 * Builds the core from decoded settings under `names` (also used by the deprecated journal
 * aliases).
 *
 * @example pipe(decodeContextToolOptions({ namespace: "run-1" }), E.map((config) => buildCore(index, config, CONTEXT_TOOL_NAMES)))
 */
export function buildCore(
  index: SegmentIndex,
  config: ToolConfig,
  names: ToolNames = CONTEXT_TOOL_NAMES,
): ContextToolCore {
  const { maxExpandChars: maxPage, defaultExpandChars: defaultPage, maxHits, defaultK } = config;
  const confined = config.namespace !== undefined;
  const defs = definitionsOf(config, names);
  const nsField = confined ? {} : { namespace: nonEmptyString };
  const SearchArgs = objectCodec(
    `${names.search} arguments`,
    { query: t.string },
    { k: intIn(1, maxHits), kinds: t.readonlyArray(t.string), ...nsField },
    { expected: "an arguments object" },
  );
  const ExpandArgs = objectCodec(
    `${names.expand} arguments`,
    { id: t.string },
    { offset: intIn(0, Number.MAX_SAFE_INTEGER), maxChars: intIn(1, maxPage), ...nsField },
    { expected: "an arguments object" },
  );
  const decodeSearch = decodeWith(SearchArgs, "InvalidInput", `${names.search} arguments`);
  const decodeExpand = decodeWith(ExpandArgs, "InvalidInput", `${names.expand} arguments`);

  const badArguments = (subject: string, problems: readonly Problem[], message: string): ContextToolError => ({
    _tag: "InvalidArguments",
    subject,
    problems,
    message,
  });
  const indexFailed = (subject: string, cause: IndexError): ContextToolError => ({
    _tag: "IndexFailed",
    subject,
    problems: [],
    cause,
    message: `${subject}: the index failed (${cause._tag}${"message" in cause && typeof cause.message === "string" ? `: ${cause.message}` : ""})`,
  });
  const threw = (subject: string, e: unknown): ContextToolError => ({
    _tag: "IndexFailed",
    subject,
    problems: [],
    cause: e,
    message: `${subject}: the index failed (it threw: ${describe(e)})`,
  });
  const decodeArgs = <A>(
    subject: string,
    decode: (u: unknown) => E.Either<{ readonly problems: readonly Problem[]; readonly message: string }, A>,
    raw: unknown,
  ): E.Either<ContextToolError, A> => {
    const parsed = argumentsOf(raw);
    if (E.isLeft(parsed))
      return E.left(badArguments(subject, [{ path: "", message: parsed.left }], `${subject}: ${parsed.left}`));
    const own = confined ? ownNamespace(parsed.right, config.namespace) : E.right(parsed.right);
    if (E.isLeft(own))
      return E.left(
        badArguments(
          subject,
          [{ path: "namespace", field: "namespace", message: own.left }],
          `invalid ${subject} arguments: ${own.left}`,
        ),
      );
    const a = decode(own.right);
    return E.isLeft(a) ? E.left(badArguments(subject, a.left.problems, a.left.message)) : E.right(a.right);
  };
  const hit = (h: SearchHit): ContextHit => ({
    id: h.id,
    ...(confined ? {} : { namespace: h.namespace }),
    kind: h.kind,
    summary: h.summary,
    snippet: h.snippet,
    tokens: h.tokenCost,
  });

  const search: ContextTool<SearchContextResult> = {
    ...defs.search,
    run: async (raw) => {
      const a = decodeArgs(names.search, decodeSearch, raw);
      if (E.isLeft(a)) return a;
      const namespace = config.namespace ?? (a.right as { readonly namespace?: string }).namespace;
      try {
        const r = await index.search(a.right.query, {
          k: a.right.k ?? defaultK,
          ...(namespace === undefined ? {} : { namespace }),
          ...(a.right.kinds === undefined ? {} : { kinds: a.right.kinds }),
        })();
        return E.isLeft(r) ? E.left(indexFailed(names.search, r.left)) : E.right({ hits: r.right.map(hit) });
      } catch (e) {
        return E.left(threw(names.search, e));
      }
    },
  };

  const expand: ContextTool<ExpandContextResult> = {
    ...defs.expand,
    run: async (raw) => {
      const a = decodeArgs(names.expand, decodeExpand, raw);
      if (E.isLeft(a)) return a;
      const namespace = config.namespace ?? (a.right as { readonly namespace?: string }).namespace ?? DEFAULT_NAMESPACE;
      try {
        const r = await index.expand(a.right.id, namespace)();
        if (E.isLeft(r)) return E.left(indexFailed(names.expand, r.left));
        const entry = r.right;
        if (entry === undefined) {
          return E.left({
            _tag: "NotFound",
            subject: names.expand,
            problems: [],
            message: `${names.expand}: no evicted entry with id ${shown(a.right.id)}${confined ? "" : ` in namespace ${shown(namespace)}`}`,
          });
        }
        const page = textPage(entry.content, a.right.offset ?? 0, a.right.maxChars ?? defaultPage);
        return E.right({
          id: entry.id,
          ...(confined ? {} : { namespace: entry.namespace }),
          kind: entry.kind,
          content: page.content,
          offset: page.offset,
          totalChars: entry.content.length,
          ...(page.nextOffset === undefined ? {} : { nextOffset: page.nextOffset }),
        });
      } catch (e) {
        return E.left(threw(names.expand, e));
      }
    },
  };
  return { search, expand };
}

/**
 * The tool core over `index`, or the problems of `options` (see {@link decodeContextToolOptions}).
 * A context manager gives its own with `manager.tools()`; MCP and the adapters wrap one.
 *
 * @example
 * const core = contextToolCore(index, { namespace: "session-42" });
 * if (E.isRight(core)) toolReply(await core.right.search.run('{"query":"ValueError in src/app.py"}')).text;
 */
export function contextToolCore(
  index: SegmentIndex,
  options: ContextToolOptions = {},
): E.Either<InvalidOptions, ContextToolCore> {
  const config = decodeContextToolOptions(options);
  return E.isLeft(config) ? config : E.right(buildCore(index, config.right));
}
