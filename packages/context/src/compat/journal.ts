/**
 * The journal tools, kept for one release as deprecated aliases of the one tool core:
 * `journal_search` and `journal_expand` are `search_context` and `expand_context` under their old
 * names, in the OpenAI function-calling shape with a `TaskEither` executor. New code uses
 * `manager.tools()` or `contextToolCore(index, { namespace })` from `@cc/context`.
 *
 * @module compat/journal
 */
import { invalid, type InvalidOptions } from "@cc/validate";
import { DEFAULT_NAMESPACE } from "@cc/search/internal";
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import * as t from "io-ts";
import type { SegmentIndex } from "@cc/search";
import {
  buildCore,
  type ContextToolError,
  type ExpandContextResult,
  type JsonSchema,
  type SearchContextResult,
} from "../tools.js";

/**
 * A tool definition (`type` + `function`, as OpenAI-compatible APIs take it) with its executor.
 * `execute` accepts the model's raw JSON arguments (string) or an already parsed object.
 *
 * @deprecated use `manager.tools()` or `contextToolCore` from `@cc/context`.
 * @example
 * const tools = journalTools(index);
 * if (E.isRight(tools)) { const tool = tools.right.search; const forApi = { type: tool.type, function: tool.function }; }
 */
export interface AgentTool<R> {
  readonly type: "function";
  readonly function: { readonly name: string; readonly description: string; readonly parameters: JsonSchema };
  execute(args: unknown): TE.TaskEither<ContextToolError, R>;
}

/**
 * The two journal tools.
 *
 * @deprecated use `manager.tools()` or `contextToolCore` from `@cc/context`.
 * @example const tools = journalTools(index); if (E.isRight(tools)) { const { search, expand } = tools.right; }
 */
export interface JournalTools {
  readonly search: AgentTool<SearchContextResult>;
  readonly expand: AgentTool<ExpandContextResult>;
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

const int = (min: number, max: number): t.Type<number, number, unknown> =>
  new t.Type<number, number, unknown>(
    `Integer(${min}..${max})`,
    (u): u is number => typeof u === "number" && Number.isInteger(u) && u >= min && u <= max,
    (u, c) =>
      typeof u === "number" && Number.isInteger(u) && u >= min && u <= max
        ? t.success(u)
        : t.failure(u, c, `expected an integer in ${min}..${max}`),
    t.identity,
  );

const NonEmptyString = new t.Type<string, string, unknown>(
  "NonEmptyString",
  (u): u is string => typeof u === "string" && u !== "",
  (u, c) => (typeof u === "string" && u !== "" ? t.success(u) : t.failure(u, c, "expected a non-empty string")),
  t.identity,
);

/** io-ts codec of {@link JournalToolOptions} (unknown keys are checked by {@link decodeJournalToolOptions}). */
export const JournalToolOptionsCodec = t.readonly(
  t.partial({ namespace: NonEmptyString, maxExpandChars: int(1, 10_000_000), maxHits: int(1, 1000) }),
);

const toolOptionKeys: readonly string[] = ["namespace", "maxExpandChars", "maxHits"];

const showValue = (u: unknown): string =>
  typeof u === "string"
    ? JSON.stringify(u.slice(0, 80))
    : typeof u === "object" && u !== null
      ? "an object"
      : String(u);

/**
 * Validates tool options and applies the defaults: a page size or hit count that is 0, negative,
 * fractional, NaN or infinite is refused (it would make paging stall), as is an unknown key.
 *
 * @example
 * decodeJournalToolOptions({ maxExpandChars: 0 });
 * // left({ _tag: "InvalidOptions", subject: "journal tool options", problems: ["maxExpandChars: expected an integer in 1..10000000, got 0"] })
 */
export function decodeJournalToolOptions(input: unknown): E.Either<InvalidOptions, JournalToolConfig> {
  const fail = (problems: readonly string[]): E.Either<InvalidOptions, JournalToolConfig> =>
    E.left(invalid("InvalidOptions", "journal tool options", problems));
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return fail([`options: expected an object, got ${showValue(input)}`]);
  const record = input as Readonly<Record<string, unknown>>;
  const problems: string[] = [];
  for (const key of Object.keys(record)) {
    if (toolOptionKeys.includes(key)) continue;
    const near = toolOptionKeys.find(
      (k) =>
        k.toLowerCase() === key.replace(/[_-]/g, "").toLowerCase() ||
        (key.length >= 4 && k.toLowerCase().startsWith(key.toLowerCase().slice(0, 6))),
    );
    problems.push(
      `${key} is not an option${near === undefined ? ` (known: ${toolOptionKeys.join(", ")})` : `; did you mean ${near}?`}`,
    );
  }
  const defined = Object.fromEntries(
    Object.entries(record).filter(([k, v]) => v !== undefined && toolOptionKeys.includes(k)),
  );
  const decoded = JournalToolOptionsCodec.decode(defined);
  if (E.isLeft(decoded)) {
    for (const error of decoded.left) {
      const field = error.context.map((c) => c.key).filter((k) => k !== "")[0] ?? "options";
      problems.push(`${field}: ${error.message ?? "invalid value"}, got ${showValue(error.value)}`);
    }
  }
  if (problems.length > 0 || E.isLeft(decoded)) return fail([...new Set(problems)]);
  return E.right({
    namespace: decoded.right.namespace ?? DEFAULT_NAMESPACE,
    maxExpandChars: decoded.right.maxExpandChars ?? 8000,
    maxHits: decoded.right.maxHits ?? 20,
  });
}

/**
 * The `journal_search` and `journal_expand` tools bound to one index and namespace, or the
 * problems of `options` (see {@link decodeJournalToolOptions}).
 *
 * @deprecated use `manager.tools()` or `contextToolCore` from `@cc/context` (the same tools as `search_context` / `expand_context`).
 * @example
 * const tools = journalTools(index, { namespace: "session-42" });
 * if (E.isRight(tools)) await tools.right.search.execute('{"query":"ValueError in src/app.py"}')();
 */
export function journalTools(
  index: SegmentIndex,
  options: JournalToolOptions = {},
): E.Either<InvalidOptions, JournalTools> {
  const config = decodeJournalToolOptions(options);
  if (E.isLeft(config)) return config;
  const { namespace, maxExpandChars, maxHits } = config.right;
  const core = buildCore(
    index,
    { namespace, maxExpandChars, defaultExpandChars: maxExpandChars, maxHits, defaultK: Math.min(5, maxHits) },
    { search: "journal_search", expand: "journal_expand" },
  );
  const wrap = <R>(tool: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonSchema;
    run(args: unknown): Promise<E.Either<ContextToolError, R>>;
  }): AgentTool<R> => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    execute: (args) => () => tool.run(args),
  });
  return E.right({ search: wrap(core.search), expand: wrap(core.expand) });
}
