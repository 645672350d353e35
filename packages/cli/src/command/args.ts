/**
 * Command-line parsing for `cc-compact` (node:util parseArgs) into a validated command.
 *
 * @module command/args
 */
import { parseArgs } from "node:util";
import { decodeCompactOptions, type CompactOptions } from "@cc/lcm";
import { displayUrl } from "@cc/lcm/internal";
import * as E from "fp-ts/lib/Either.js";
import type { TranscriptFormat } from "../formats/read.js";
import type { StrategyName } from "@cc/context";

/** `cc-compact [compact] [file]`. */
export interface CompactCommand {
  readonly _tag: "Compact";
  readonly file: string | undefined;
  readonly format: TranscriptFormat;
  readonly strategy: StrategyName;
  readonly options: CompactOptions;
  readonly force: boolean;
  readonly index: string | undefined;
  readonly namespace: string;
  readonly providerUrl: string | undefined;
  readonly encoding: "o200k_base" | "cl100k_base";
  readonly quiet: boolean;
}

/** `cc-compact search --index FILE QUERY`. */
export interface SearchCommand {
  readonly _tag: "Search";
  readonly index: string;
  readonly query: string;
  readonly k: number;
  readonly namespace: string | undefined;
}

/** `cc-compact expand --index FILE ID`. */
export interface ExpandCommand {
  readonly _tag: "Expand";
  readonly index: string;
  readonly id: string;
  /** `undefined`: the one namespace that holds the id (an id in several namespaces needs `-n`). */
  readonly namespace: string | undefined;
  /** Print the original content only, not the entry as JSON. */
  readonly raw: boolean;
}

/** `cc-compact mcp --index FILE`: serve the index's search and expand as MCP tools over stdio. */
export interface McpCommand {
  readonly _tag: "Mcp";
  readonly index: string;
  /** Confine the tools to this namespace; `undefined`: every namespace. */
  readonly namespace: string | undefined;
}

/** A parsed command line. */
export type Command =
  | CompactCommand
  | SearchCommand
  | ExpandCommand
  | McpCommand
  | { readonly _tag: "Help" }
  | { readonly _tag: "Version" };

/** The command line is wrong; `message` says what to fix. */
export interface UsageError {
  readonly _tag: "UsageError";
  readonly message: string;
}

/** The `--help` text. */
export const HELP = `cc-compact — compact an agent transcript to fit a token budget

Usage:
  cc-compact [compact] [FILE|-] [options]   compact a transcript (stdin when FILE is absent or -)
  cc-compact search --index FILE QUERY      search evicted entries of an index
  cc-compact expand --index FILE ID         print the original of an evicted entry
  cc-compact mcp --index FILE [-n NS]       serve search_context / expand_context of an
                                            index as an MCP server on stdio (stdout is the
                                            protocol; logs go to stderr)
  cc-compact help                           this text (same as --help)

Input: OpenAI chat JSON (array or {"messages": [...]}), JSONL (one message per line),
or a SWE-agent .traj. Output: the compacted messages as OpenAI chat JSON on stdout;
a report on stderr.

Compact options:
  -b, --budget N          context budget in tokens (default 128000)
      --soft F            soft threshold, fraction of the budget (default 0.5)
      --hard F            hard threshold (default 0.95)
  -p, --preserve-last N   trailing messages kept verbatim (default 20)
  -s, --strategy S        lcm (summarise the older prefix) | hierarchical (evict into the index)
                          (default lcm)
  -f, --format F          auto | openai-json | jsonl | traj | mini-swe-agent (default auto)
      --force             compact even below the soft threshold
      --unpin-task        let the task (the first user message) be compacted like the
                          rest (default: it stays verbatim unless it takes over half the budget)
  -i, --index FILE        SQLite index for evicted entries (hierarchical; default: in memory)
  -n, --namespace NS      index namespace (default "default")
      --provider-url URL  OpenAI-compatible endpoint for summaries (key: CC_PROVIDER_KEY);
                          default: the offline extractive summariser
      --model M           summary model at the provider (default: cheapest listed)
      --encoding E        o200k_base | cl100k_base (default o200k_base)
  -q, --quiet             no report on stderr

The compact defaults are those of @cc/lcm's compactor, not createContextManager's
(strategy hierarchical, threshold 0.8, preserveLast 6, maxTokens required): a one-shot
offline run has no index to keep evicted originals in unless given -i (so lcm), no model
to take a window from (so 128000), compacts because it is asked to (so from half the
budget), and serves a reader who wants the last exchanges whole (so 20 messages).
README, "Defaults, and why they are not the manager's".

Search / expand / mcp options:
  -i, --index FILE        the SQLite index (required; must exist, never created)
  -k N                    hits to return (default 10)
  -n, --namespace NS      only this namespace (default: all; expand finds the id in
                          the one namespace that holds it; mcp: the only namespace
                          the tools serve)
      --raw               expand: print the original content only, not JSON

Exit codes: 0 ok, 1 internal error, 2 usage, 3 input, 4 provider, 5 index, 6 not found,
7 index file missing, 8 budget not met (the output is still written).
`;

/** What a numeric option accepts. */
type NumberKind = "positive integer" | "non-negative integer" | "number";

const num = (label: string, raw: string | undefined, kind: NumberKind): E.Either<UsageError, number | undefined> => {
  if (raw === undefined) return E.right(undefined);
  const n = Number(raw);
  const integer = kind !== "number";
  const ok =
    raw.trim() !== "" &&
    Number.isFinite(n) &&
    (!integer || Number.isSafeInteger(n)) &&
    (kind !== "positive integer" || n >= 1) &&
    (kind !== "non-negative integer" || n >= 0);
  return ok
    ? E.right(n)
    : E.left({
        _tag: "UsageError",
        message: `${label}: expected a${kind === "number" ? "" : kind === "positive integer" ? " positive" : " non-negative"} ${integer ? "integer" : "number"}, got ${raw}`,
      });
};

/** Numeric options by long name, with their short letter. */
const NUMERIC: Readonly<Record<string, string | undefined>> = {
  budget: "b",
  soft: undefined,
  hard: undefined,
  "preserve-last": "p",
  k: "k",
};

/**
 * `-b -5` and `--soft -0.5`: node's parseArgs refuses a value that starts with `-` as ambiguous.
 * A numeric option followed by something that reads as a negative number takes it as its value
 * (`--budget=-5`), so the value check reports it. Also returns how the user spelled each numeric
 * option (`-b` or `--budget`) for the messages.
 */
function joinNegativeValues(argv: readonly string[]): {
  readonly args: readonly string[];
  readonly spelled: ReadonlyMap<string, string>;
} {
  const args: string[] = [];
  const spelled = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      args.push(...argv.slice(i));
      break;
    }
    const long = a.startsWith("--")
      ? a.slice(2).split("=")[0]!
      : Object.keys(NUMERIC).find((k) => NUMERIC[k] !== undefined && a.startsWith(`-${NUMERIC[k]!}`));
    if (long !== undefined && long in NUMERIC) {
      spelled.set(long, a.startsWith("--") ? `--${long}` : `-${NUMERIC[long]!}`);
      const next = argv[i + 1];
      if ((a === `--${long}` || a === `-${NUMERIC[long] ?? ""}`) && next !== undefined && /^-[\d.]/.test(next)) {
        args.push(`--${long}=${next}`);
        i++;
        continue;
      }
    }
    args.push(a);
  }
  return { args, spelled };
}

const oneOf = <T extends string>(
  name: string,
  raw: string | undefined,
  allowed: readonly T[],
  fallback: T,
): E.Either<UsageError, T> =>
  raw === undefined
    ? E.right(fallback)
    : (allowed as readonly string[]).includes(raw)
      ? E.right(raw as T)
      : E.left({
          _tag: "UsageError",
          message: `--${name}: expected one of ${allowed.join(", ")}, got ${JSON.stringify(raw)}`,
        });

/** Parses `argv` (without node and script) into a {@link Command}. */
export function parseCommand(argv: readonly string[]): E.Either<UsageError, Command> {
  const { args, spelled } = joinNegativeValues(argv);
  const label = (name: string): string => spelled.get(name) ?? `--${name}`;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
        budget: { type: "string", short: "b" },
        soft: { type: "string" },
        hard: { type: "string" },
        "preserve-last": { type: "string", short: "p" },
        strategy: { type: "string", short: "s" },
        format: { type: "string", short: "f" },
        force: { type: "boolean" },
        "unpin-task": { type: "boolean" },
        index: { type: "string", short: "i" },
        namespace: { type: "string", short: "n" },
        "provider-url": { type: "string" },
        model: { type: "string" },
        encoding: { type: "string" },
        quiet: { type: "boolean", short: "q" },
        k: { type: "string", short: "k" },
        raw: { type: "boolean" },
      },
    });
  } catch (e: unknown) {
    return E.left({ _tag: "UsageError", message: e instanceof Error ? e.message : String(e) });
  }
  const v = parsed.values;
  if (v.help === true) return E.right({ _tag: "Help" });
  if (v.version === true) return E.right({ _tag: "Version" });
  const [first, ...rest] = parsed.positionals;
  // `cc-compact help` is the command, not a file named help (`./help` reads such a file).
  if (first === "help") return E.right({ _tag: "Help" });
  if (v.raw === true && first !== "expand")
    return E.left({ _tag: "UsageError", message: "--raw: only expand takes it" });
  if (first === "mcp") {
    if (v.index === undefined) return E.left({ _tag: "UsageError", message: "mcp: --index FILE is required" });
    if (rest.length > 0)
      return E.left({ _tag: "UsageError", message: `mcp: unexpected argument ${JSON.stringify(rest[0])}` });
    if (v.namespace === "")
      return E.left({ _tag: "UsageError", message: "--namespace: expected a non-empty namespace" });
    return E.right({ _tag: "Mcp", index: v.index, namespace: v.namespace });
  }
  if (first === "search" || first === "expand") {
    if (v.index === undefined) return E.left({ _tag: "UsageError", message: `${first}: --index FILE is required` });
    if (first === "search") {
      if (rest.length === 0) return E.left({ _tag: "UsageError", message: "search: a QUERY is required" });
      const k = num(label("k"), v.k, "positive integer");
      if (E.isLeft(k)) return k;
      if (k.right !== undefined && (k.right < 1 || k.right > 1000))
        return E.left({ _tag: "UsageError", message: `-k: expected 1..1000, got ${k.right}` });
      return E.right({
        _tag: "Search",
        index: v.index,
        query: rest.join(" "),
        k: k.right ?? 10,
        namespace: v.namespace,
      });
    }
    if (rest.length !== 1) return E.left({ _tag: "UsageError", message: "expand: exactly one ID is required" });
    return E.right({ _tag: "Expand", index: v.index, id: rest[0]!, namespace: v.namespace, raw: v.raw === true });
  }
  const files = first === "compact" ? rest : parsed.positionals;
  if (files.length > 1)
    return E.left({ _tag: "UsageError", message: `expected at most one input file, got ${files.length}` });
  const budget = num(label("budget"), v.budget, "positive integer");
  const soft = num(label("soft"), v.soft, "number");
  const hard = num(label("hard"), v.hard, "number");
  const keep = num(label("preserve-last"), v["preserve-last"], "non-negative integer");
  const strategy = oneOf<StrategyName>("strategy", v.strategy, ["lcm", "hierarchical"], "lcm");
  const format = oneOf<TranscriptFormat>(
    "format",
    v.format,
    ["auto", "openai-json", "jsonl", "traj", "mini-swe-agent"],
    "auto",
  );
  const encoding = oneOf("encoding", v.encoding, ["o200k_base", "cl100k_base"] as const, "o200k_base");
  if (E.isLeft(budget)) return budget;
  if (E.isLeft(soft)) return soft;
  if (E.isLeft(hard)) return hard;
  if (E.isLeft(keep)) return keep;
  if (E.isLeft(strategy)) return strategy;
  if (E.isLeft(format)) return format;
  if (E.isLeft(encoding)) return encoding;
  const input = {
    ...(budget.right === undefined ? {} : { maxTokens: budget.right }),
    ...(soft.right === undefined ? {} : { softThreshold: soft.right }),
    ...(hard.right === undefined ? {} : { hardThreshold: hard.right }),
    ...(keep.right === undefined ? {} : { preserveLast: keep.right }),
    ...(v.model === undefined ? {} : { compactionModel: v.model }),
    pinTask: v["unpin-task"] !== true,
  };
  const options = decodeCompactOptions(input);
  if (E.isLeft(options))
    return E.left({
      _tag: "UsageError",
      message: options.left.problems
        .map((p) =>
          p.message
            .replace(/^maxTokens/, "--budget")
            .replace(/^softThreshold/, "--soft")
            .replace(/^hardThreshold/, "--hard")
            .replace(/^preserveLast/, "--preserve-last"),
        )
        .join("; "),
    });
  const url = v["provider-url"];
  if (url !== undefined && !/^https?:\/\/[^\s]+$/.test(url))
    return E.left({
      _tag: "UsageError",
      message: `--provider-url: expected an http(s) URL, got ${JSON.stringify(displayUrl(url))}`,
    });
  const file = files[0] === "-" ? undefined : files[0];
  return E.right({
    _tag: "Compact",
    file,
    format: format.right,
    strategy: strategy.right,
    options: options.right,
    force: v.force === true,
    index: v.index,
    namespace: v.namespace ?? "default",
    providerUrl: url,
    encoding: encoding.right,
    quiet: v.quiet === true,
  });
}
