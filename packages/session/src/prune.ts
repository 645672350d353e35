/**
 * Tool-result pruning for the live context, with no LLM call: an oversized tool result from an
 * earlier turn is shown as a one-line description derived from the call that produced it, e.g.
 * ``[bash] ran `npm test` → exit 0, 47 lines output`` or `[read_file] read src/a.ts (5120 chars)`.
 * Pure string work; the messages passed in (and so anything stored) are never modified.
 *
 * @module prune
 */
import * as E from "fp-ts/lib/Either.js";
import type { Either } from "fp-ts/lib/Either.js";
import { headOf } from "@cc/lcm/internal";
import type { Message, ToolCall, ToolMessage } from "@cc/messages";
import type * as t from "io-ts";
import { decodeWith, leaf, objectCodec, type InvalidOptions } from "@cc/validate";

/**
 * How aggressively to prune. Build it with {@link decodePruneOptions} from untrusted input.
 *
 * @example const settings: PruneSettings = { maxChars: 4000, protectTurns: 0, protectResults: 5 };
 */
export interface PruneSettings {
  /**
   * Tool results longer than this many characters are pruned (≥ 200).
   * @default 2000
   */
  readonly maxChars: number;
  /**
   * The newest turns (a turn starts at a user message) whose results stay intact.
   * @default 1
   */
  readonly protectTurns: number;
  /**
   * The newest tool results that stay intact whatever turn they are in. Autonomous agents that
   * work through one long user turn set `protectTurns: 0` and this instead.
   * @default 0
   */
  readonly protectResults: number;
}

/** Default pruning: results over 2000 characters, in every turn but the current one. */
export const defaultPruneSettings: PruneSettings = { maxChars: 2000, protectTurns: 1, protectResults: 0 };

/** A rejected pruning option: the @cc/validate `InvalidOptions` (subject "prune options"), naming the field. */
export type InvalidPruneOptions = InvalidOptions;

/** One pruned tool result. */
export interface PrunedResult {
  /** Position in the input array. */
  readonly index: number;
  readonly toolCallId: string;
  readonly tool: string;
  readonly originalChars: number;
  /** The line shown instead. */
  readonly line: string;
}

/**
 * What {@link pruneToolResults} returns: new messages (pruned ones replaced) and what it pruned.
 *
 * @example const { messages, pruned } = pruneToolResults(history); // pruned[0].line: "[bash] ran `npm test` → exit 0, 47 lines output"
 */
export interface PruneResult {
  readonly messages: readonly Message[];
  readonly pruned: readonly PrunedResult[];
}

const wholeFrom = (name: string, min: number, what: string) =>
  leaf(
    name,
    `a whole number ≥ ${min} (${what})`,
    (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= min,
  );

/** io-ts codec of raw pruning options (every field optional; unknown keys refused with a "did you mean"). */
export const PruneOptionsCodec = objectCodec(
  "PruneOptions",
  {},
  {
    maxChars: wholeFrom("MaxChars", 200, "results longer than this are replaced by one line"),
    protectTurns: wholeFrom("ProtectTurns", 0, "newest turns left intact"),
    protectResults: wholeFrom("ProtectResults", 0, "newest tool results left intact"),
  },
  { expected: "an object like { maxChars: 2000 }" },
);

const settingFrom = (name: string, what: string) =>
  leaf(
    name,
    `a whole number ≥ 0 (${what})`,
    (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0,
  );

/**
 * io-ts codec of complete {@link PruneSettings} as a typed caller passes them (to `loadContext`,
 * `createChatSession`): every field present, whole and non-negative (NaN, ±Infinity refused);
 * unknown keys refused. {@link decodePruneOptions} is the stricter reader of untrusted input.
 */
export const PruneSettingsCodec = objectCodec(
  "PruneSettings",
  {
    maxChars: settingFrom("MaxChars", "results longer than this are replaced by one line"),
    protectTurns: settingFrom("ProtectTurns", "newest turns left intact"),
    protectResults: settingFrom("ProtectResults", "newest tool results left intact"),
  },
  {},
  { expected: "prune settings such as { maxChars: 2000, protectTurns: 1, protectResults: 0 }" },
);

const decodeRawPrune = decodeWith(PruneOptionsCodec, "InvalidOptions", "prune options");

/**
 * Validates pruning options (all optional; `undefined` = the defaults), applying defaults.
 *
 * @example
 * decodePruneOptions({ maxChars: 4000 }); // right({ maxChars: 4000, protectTurns: 1, protectResults: 0 })
 * decodePruneOptions({ maxChar: 4000 }); // left: "invalid prune options: maxChar: unknown field (did you mean maxChars?)"
 */
export function decodePruneOptions(input: unknown): Either<InvalidPruneOptions, PruneSettings> {
  if (input === undefined) return E.right(defaultPruneSettings);
  return E.map((raw: t.TypeOf<typeof PruneOptionsCodec>): PruneSettings => ({
    maxChars: raw.maxChars ?? defaultPruneSettings.maxChars,
    protectTurns: raw.protectTurns ?? defaultPruneSettings.protectTurns,
    protectResults: raw.protectResults ?? defaultPruneSettings.protectResults,
  }))(decodeRawPrune(input));
}

const SHELL = new Set([
  "bash",
  "sh",
  "shell",
  "zsh",
  "execute_cmd",
  "exec",
  "execute",
  "execute_bash",
  "run_command",
  "run_shell_command",
  "terminal",
  "cmd",
  "run",
]);
const READ = new Set(["read_file", "read", "view_file", "open", "open_file", "cat", "get_file", "readfile"]);
const WRITE = new Set(["write_file", "write", "create_file", "create", "save_file"]);
const SEARCH = new Set([
  "grep",
  "search",
  "search_dir",
  "search_file",
  "find_file",
  "find",
  "glob",
  "rg",
  "ripgrep",
  "code_search",
  "file_search",
]);
const FETCH = new Set(["fetch", "web_fetch", "http_get", "curl", "browse", "open_url", "get_url"]);

const COMMAND_KEYS = ["command", "cmd", "script", "commands", "code"];
const PATH_KEYS = ["path", "file_path", "filepath", "file", "filename", "file_name", "target_file", "target"];
const PATTERN_KEYS = ["pattern", "query", "search_term", "regex", "search", "term", "file_name", "name"];
const URL_KEYS = ["url", "uri", "href"];

/** Parses tool-call arguments leniently; anything but a JSON object yields `{}`. */
function parseArguments(text: string): Readonly<Record<string, unknown>> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const firstString = (args: Readonly<Record<string, unknown>>, keys: readonly string[]): string | undefined => {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === "string" && value.trim() !== "") return value;
    if (Array.isArray(value) && value.every((v) => typeof v === "string") && value.length > 0)
      return value.join(" && ");
  }
  return undefined;
};

/** One line, whitespace collapsed, at most `max` characters (surrogate-safe, "…" when cut). */
export function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  return `${headOf(flat, max - 1)}…`;
}

/** Number of lines of `text` (0 for empty text; a trailing newline does not open a line). */
export function countLines(text: string): number {
  if (text === "") return 0;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return text.endsWith("\n") ? lines - 1 : lines;
}

const EXIT =
  /\b(?:exit(?:ed)?(?:\s+with)?(?:\s+(?:code|status))?|return\s+code|status\s+code)\s*[:=]?\s*(-?\d{1,4})\b/gi;

/** The last exit status reported in a shell result, if it states one. */
export function exitCodeOf(output: string): number | undefined {
  let code: number | undefined;
  for (const match of output.matchAll(EXIT)) code = Number(match[1]);
  return code;
}

/**
 * The one-line description of a tool result, derived from its call (when known) and its size.
 *
 * @example
 * const out = "PASS src/a.test.ts\n".repeat(46) + "exit code 0"; // 47 lines
 * describeToolResult({ id: "c1", name: "bash", arguments: '{"command":"npm test"}' }, { role: "tool", toolCallId: "c1", content: out })
 * // "[bash] ran `npm test` → exit 0, 47 lines output"
 */
export function describeToolResult(call: ToolCall | undefined, result: ToolMessage): string {
  const tool = oneLine(call?.name ?? result.name ?? "tool", 40);
  const args = call === undefined ? {} : parseArguments(call.arguments);
  const chars = result.content.length;
  const lines = countLines(result.content);
  const key = tool.toLowerCase();
  const command = firstString(args, COMMAND_KEYS);
  const path = firstString(args, PATH_KEYS);
  if (SHELL.has(key) || (command !== undefined && path === undefined && !SEARCH.has(key))) {
    const code = exitCodeOf(result.content);
    const status = code === undefined ? "" : `exit ${code}, `;
    return command === undefined
      ? `[${tool}] ${status}${lines} lines output`
      : `[${tool}] ran \`${oneLine(command)}\` → ${status}${lines} lines output`;
  }
  if (READ.has(key) && path !== undefined) return `[${tool}] read ${oneLine(path)} (${chars} chars)`;
  if (WRITE.has(key) && path !== undefined) return `[${tool}] wrote ${oneLine(path)} → ${lines} lines output`;
  if (SEARCH.has(key)) {
    const pattern = firstString(args, PATTERN_KEYS);
    return pattern === undefined
      ? `[${tool}] search → ${lines} lines output`
      : `[${tool}] searched \`${oneLine(pattern, 60)}\` → ${lines} lines output`;
  }
  if (FETCH.has(key)) {
    const url = firstString(args, URL_KEYS);
    return url === undefined
      ? `[${tool}] fetched (${chars} chars)`
      : `[${tool}] fetched ${oneLine(url)} (${chars} chars)`;
  }
  const action = typeof args["command"] === "string" ? `${oneLine(args["command"], 20)} ` : "";
  if (path !== undefined) return `[${tool}] ${action}${oneLine(path)} → ${lines} lines output (${chars} chars)`;
  if (call === undefined) return `[${tool} #${oneLine(result.toolCallId, 40)}] ${lines} lines output (${chars} chars)`;
  const shown = Object.entries(args)
    .filter(([, v]) => typeof v === "string" || typeof v === "number" || typeof v === "boolean")
    .slice(0, 2)
    .map(([k, v]) => `${oneLine(k, 20)}=${oneLine(String(v), 40)}`)
    .join(", ");
  return `[${tool}]${shown === "" ? "" : ` ${shown}`} → ${lines} lines output (${chars} chars)`;
}

/** Index of the first message of the newest `turns` turns (a turn starts at a user message). */
function protectedFrom(messages: readonly Message[], turns: number): number {
  if (turns <= 0) return messages.length;
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "user" && ++seen === turns) return i;
  }
  return 0;
}

/** Index of the oldest of the newest `count` tool results (`length` when `count` is 0). */
function newestResultsFrom(messages: readonly Message[], count: number): number {
  if (!(count > 0)) return messages.length;
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "tool" && ++seen === count) return i;
  }
  return 0;
}

/**
 * Replaces tool results longer than `maxChars` — except in the newest `protectTurns` turns and
 * the newest `protectResults` results — with a
 * one-line description ({@link describeToolResult}). Returns new arrays and objects; the input is
 * never modified. A description is used only when it is shorter than what it replaces. Pure.
 *
 * @example pruneToolResults(history, defaultPruneSettings).pruned.length
 */
export function pruneToolResults(
  messages: readonly Message[],
  settings: PruneSettings = defaultPruneSettings,
): PruneResult {
  // A result belongs to the nearest earlier assistant call with its id (ids may repeat across turns).
  const calls = new Map<string, ToolCall>();
  const limit = Math.min(
    protectedFrom(messages, settings.protectTurns),
    newestResultsFrom(messages, settings.protectResults),
  );
  const pruned: PrunedResult[] = [];
  const out = messages.map((m, index): Message => {
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) calls.set(c.id, c);
    if (m.role !== "tool" || index >= limit || !(m.content.length > settings.maxChars)) return m;
    const call = calls.get(m.toolCallId);
    const line = describeToolResult(call, m);
    if (line.length >= m.content.length) return m;
    pruned.push({
      index,
      toolCallId: m.toolCallId,
      tool: call?.name ?? m.name ?? "tool",
      originalChars: m.content.length,
      line,
    });
    return { ...m, content: line };
  });
  return { messages: out, pruned };
}
