/**
 * Command-line parsing for `cc-compact` (node:util parseArgs) into a validated command.
 *
 * @module command/args
 */
import { parseArgs } from "node:util";
import { decodeCompactOptions, type CompactOptions } from "@cc/lcm";
import * as E from "fp-ts/lib/Either.js";
import type { TranscriptFormat } from "../formats/read.js";
import type { StrategyName } from "@cc/context";

/** `cc-compact [compact] [file]`. */
export interface CompactCommand {
  readonly _tag: "compact";
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
  readonly _tag: "search";
  readonly index: string;
  readonly query: string;
  readonly k: number;
  readonly namespace: string | undefined;
}

/** `cc-compact expand --index FILE ID`. */
export interface ExpandCommand {
  readonly _tag: "expand";
  readonly index: string;
  readonly id: string;
  readonly namespace: string;
}

/** A parsed command line. */
export type Command = CompactCommand | SearchCommand | ExpandCommand | { readonly _tag: "help" } | { readonly _tag: "version" };

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
  -f, --format F          auto | openai-json | jsonl | traj (default auto)
      --force             compact even below the soft threshold
  -i, --index FILE        SQLite index for evicted entries (hierarchical; default: in memory)
  -n, --namespace NS      index namespace (default "default")
      --provider-url URL  OpenAI-compatible endpoint for summaries (key: CC_PROVIDER_KEY);
                          default: the offline extractive summariser
      --model M           summary model at the provider (default: cheapest listed)
      --encoding E        o200k_base | cl100k_base (default o200k_base)
  -q, --quiet             no report on stderr

Search / expand options:
  -i, --index FILE        the SQLite index (required)
  -k N                    hits to return (default 10)
  -n, --namespace NS      only this namespace

Exit codes: 0 ok, 1 internal error, 2 usage, 3 input, 4 provider, 5 index, 6 not found.
`;

const num = (name: string, raw: string | undefined, integer: boolean): E.Either<UsageError, number | undefined> => {
  if (raw === undefined) return E.right(undefined);
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || (integer && !Number.isSafeInteger(n))) {
    return E.left({ _tag: "UsageError", message: `--${name}: expected ${integer ? "an integer" : "a number"}, got ${JSON.stringify(raw)}` });
  }
  return E.right(n);
};

const oneOf = <T extends string>(name: string, raw: string | undefined, allowed: readonly T[], fallback: T): E.Either<UsageError, T> =>
  raw === undefined ? E.right(fallback) : (allowed as readonly string[]).includes(raw) ? E.right(raw as T) : E.left({ _tag: "UsageError", message: `--${name}: expected one of ${allowed.join(", ")}, got ${JSON.stringify(raw)}` });

/** Parses `argv` (without node and script) into a {@link Command}. */
export function parseCommand(argv: readonly string[]): E.Either<UsageError, Command> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
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
        index: { type: "string", short: "i" },
        namespace: { type: "string", short: "n" },
        "provider-url": { type: "string" },
        model: { type: "string" },
        encoding: { type: "string" },
        quiet: { type: "boolean", short: "q" },
        k: { type: "string", short: "k" },
      },
    });
  } catch (e: unknown) {
    return E.left({ _tag: "UsageError", message: e instanceof Error ? e.message : String(e) });
  }
  const v = parsed.values;
  if (v.help === true) return E.right({ _tag: "help" });
  if (v.version === true) return E.right({ _tag: "version" });
  const [first, ...rest] = parsed.positionals;
  if (first === "search" || first === "expand") {
    if (v.index === undefined) return E.left({ _tag: "UsageError", message: `${first}: --index FILE is required` });
    if (first === "search") {
      if (rest.length === 0) return E.left({ _tag: "UsageError", message: "search: a QUERY is required" });
      const k = num("k", v.k, true);
      if (E.isLeft(k)) return k;
      if (k.right !== undefined && (k.right < 1 || k.right > 1000)) return E.left({ _tag: "UsageError", message: `-k: expected 1..1000, got ${k.right}` });
      return E.right({ _tag: "search", index: v.index, query: rest.join(" "), k: k.right ?? 10, namespace: v.namespace });
    }
    if (rest.length !== 1) return E.left({ _tag: "UsageError", message: "expand: exactly one ID is required" });
    return E.right({ _tag: "expand", index: v.index, id: rest[0]!, namespace: v.namespace ?? "default" });
  }
  const files = first === "compact" ? rest : parsed.positionals;
  if (files.length > 1) return E.left({ _tag: "UsageError", message: `expected at most one input file, got ${files.length}` });
  const budget = num("budget", v.budget, true);
  const soft = num("soft", v.soft, false);
  const hard = num("hard", v.hard, false);
  const keep = num("preserve-last", v["preserve-last"], true);
  const strategy = oneOf<StrategyName>("strategy", v.strategy, ["lcm", "hierarchical"], "lcm");
  const format = oneOf<TranscriptFormat>("format", v.format, ["auto", "openai-json", "jsonl", "traj"], "auto");
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
  };
  const options = decodeCompactOptions(input);
  if (E.isLeft(options)) return E.left({ _tag: "UsageError", message: options.left.problems.map((p) => p.message.replace(/^maxTokens/, "--budget").replace(/^softThreshold/, "--soft").replace(/^hardThreshold/, "--hard").replace(/^preserveLast/, "--preserve-last")).join("; ") });
  const url = v["provider-url"];
  if (url !== undefined && !/^https?:\/\/[^\s]+$/.test(url)) return E.left({ _tag: "UsageError", message: `--provider-url: expected an http(s) URL, got ${JSON.stringify(url)}` });
  const file = files[0] === "-" ? undefined : files[0];
  return E.right({
    _tag: "compact", file, format: format.right, strategy: strategy.right, options: options.right, force: v.force === true,
    index: v.index, namespace: v.namespace ?? "default", providerUrl: url, encoding: encoding.right, quiet: v.quiet === true,
  });
}
