/**
 * The simple context policies of the retention benchmark, each the strongest simple version a
 * user would write, as pure functions: the context (messages with their metadata), a token
 * budget and the clock in, the next context out. A policy may drop a message or replace it with a
 * placeholder; it never reorders, and tool calls stay paired with their results (a placeholder
 * keeps its `toolCallId`; a call and its results leave together). Rules in bench/README.md,
 * "Retention"; the context manager is the other kind of contender (replay.ts).
 *
 * Shared by every rule here: leading system prompts are never touched; a policy acts only when
 * the context is over the budget; the task is kept, truncated (head and tail) to half of the room
 * the system prompts leave when it is larger than that, so a huge task never leaves room for
 * nothing else — except under `importance`, which scores the task like any other segment.
 */
import { compact, type ImportanceOptions, type Segment } from "@cc/importance";
import type { Message } from "@cc/messages";
import type { RuleKind } from "./metrics.js";

/** One message in the context, as a rule sees it. */
export interface ContextEntry {
  /** Position in the session of the message this entry stands for (its identity). */
  readonly source: number;
  /** The message as it sits in the context (the original, a placeholder or the truncated task). */
  readonly message: Message;
  /** Tokens of `message`. */
  readonly tokens: number;
  readonly kind: RuleKind;
  /** When the original arrived (epoch ms). */
  readonly createdAt: number;
  /** When the agent last referred to it (epoch ms); `createdAt` when never. */
  readonly lastAccessed: number;
  /** How many agent messages referred to it so far. */
  readonly accessCount: number;
  /** Position of the last agent message that referred to it; `source` when never. */
  readonly lastAccessedTurn: number;
  /** The tool's name, for a tool result whose call names it. */
  readonly toolName?: string;
  /** How `message` differs from the original, when it does. */
  readonly replaced?: "placeholder" | "truncated";
}

/** What a rule decides on. */
export interface RuleInput {
  /** The context, oldest first; the last entry is the message that just arrived. */
  readonly context: readonly ContextEntry[];
  /** The most tokens the next context may take. */
  readonly budget: number;
  /** The clock at this step (epoch ms). */
  readonly now: number;
  /** Tokens of a message (the replay's shared count). */
  readonly count: (m: Message) => number;
}

/** A simple context policy. */
export interface Rule {
  readonly name: string;
  /** The next context: a subsequence of the input, entries possibly replaced by placeholders. */
  apply(input: RuleInput): readonly ContextEntry[];
}

const total = (es: readonly ContextEntry[]): number => es.reduce((s, e) => s + e.tokens, 0);

/**
 * The units of a context: positions that must stay or leave together — an assistant message with
 * the tool results answering its calls; any other message alone.
 *
 * @example unitsOf([sys, callA, resultA, user]) // [[0], [1, 2], [3]]
 */
export function unitsOf(context: readonly ContextEntry[]): number[][] {
  const owner = new Map<string, number[]>();
  const units: number[][] = [];
  context.forEach((e, i) => {
    const m = e.message;
    if (m.role === "tool") {
      const u = owner.get(m.toolCallId);
      if (u !== undefined) {
        u.push(i);
        return;
      }
    }
    const unit = [i];
    units.push(unit);
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) owner.set(c.id, unit);
  });
  return units;
}

/**
 * True when every tool result follows the assistant message holding its call, and a call whose
 * results were in `before` still has all of them in `after` (or left with them).
 *
 * @example pairsValid(before, before.filter((e) => e.kind !== "observation")) // false when a result left without its call
 */
export function pairsValid(before: readonly ContextEntry[], after: readonly ContextEntry[]): boolean {
  const calls = new Set<string>();
  for (const e of after) {
    if (e.message.role === "assistant") for (const c of e.message.toolCalls ?? []) calls.add(c.id);
    if (e.message.role === "tool" && !calls.has(e.message.toolCallId)) return false;
  }
  const kept = new Set(after.map((e) => e.source));
  for (const e of before)
    if (e.message.role === "tool" && calls.has(e.message.toolCallId) && !kept.has(e.source)) return false;
  return true;
}

const TASK_MARK = "\n[… task truncated …]\n";

/** `s` cut to at most `n` UTF-16 units without splitting a surrogate pair (`fromEnd`: its last units). */
function cutUnits(s: string, n: number, fromEnd: boolean): string {
  if (n >= s.length) return s;
  if (n <= 0) return "";
  if (!fromEnd) {
    const c = s.charCodeAt(n - 1);
    return s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
  }
  const c = s.charCodeAt(s.length - n);
  return s.slice(c >= 0xdc00 && c <= 0xdfff ? s.length - n + 1 : s.length - n);
}

/**
 * The message cut to at most `maxTokens` by `count`: its head and tail around a marker (the
 * longest such cut, by bisection on characters); the marker alone when nothing more fits.
 *
 * @example truncateMessage({ role: "user", content: "x".repeat(10_000) }, 100, count).content.includes("task truncated") // true
 */
export function truncateMessage(m: Message, maxTokens: number, count: (m: Message) => number): Message {
  if (count(m) <= maxTokens) return m;
  const text = m.content;
  const at = (chars: number): Message => ({
    ...m,
    content: `${cutUnits(text, Math.ceil(chars / 2), false)}${TASK_MARK}${cutUnits(text, Math.floor(chars / 2), true)}`,
  });
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(at(mid)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return at(lo);
}

/** The context with its task kept within half of the room the system prompts leave. */
function fitTask(input: RuleInput, context: readonly ContextEntry[]): ContextEntry[] {
  const room = input.budget - total(context.filter((e) => e.kind === "system"));
  const cap = Math.max(0, Math.floor(room / 2));
  return context.map((e) => {
    if (e.kind !== "task" || e.tokens <= cap) return e;
    const message = truncateMessage(e.message, cap, input.count);
    return { ...e, message, tokens: input.count(message), replaced: "truncated" };
  });
}

/**
 * Drops whole units in `order` (lists of positions) until the context fits, never a protected
 * position (system prompts, the task).
 */
function dropUnits(
  context: readonly ContextEntry[],
  order: readonly (readonly number[])[],
  budget: number,
): ContextEntry[] {
  let used = total(context);
  const gone = new Set<number>();
  for (const unit of order) {
    if (used <= budget) break;
    if (unit.some((i) => isProtected(context[i]!))) continue;
    for (const i of unit) {
      gone.add(i);
      used -= context[i]!.tokens;
    }
  }
  return context.filter((_, i) => !gone.has(i));
}

const isProtected = (e: ContextEntry): boolean => e.kind === "system" || e.kind === "task";

/**
 * The context without tool results whose call is not in it (a call that left before its result
 * arrived takes the result with it: a result cannot be sent without its call).
 *
 * @example withoutOrphans([result_of_c1]) // []
 */
export function withoutOrphans(context: readonly ContextEntry[]): readonly ContextEntry[] {
  const calls = new Set<string>();
  let orphans = false;
  for (const e of context) {
    if (e.message.role === "assistant") for (const c of e.message.toolCalls ?? []) calls.add(c.id);
    if (e.message.role === "tool" && !calls.has(e.message.toolCallId)) orphans = true;
  }
  return orphans ? context.filter((e) => e.message.role !== "tool" || calls.has(e.message.toolCallId)) : context;
}

/** A rule that drops orphaned results, acts only over the budget, keeps the task within its share, then runs `fit`. */
function overBudget(name: string, fit: (input: RuleInput, context: ContextEntry[]) => ContextEntry[]): Rule {
  return {
    name,
    apply: (input) => {
      const context = withoutOrphans(input.context);
      if (total(context) <= input.budget) return context;
      return fit(input, fitTask(input, context));
    },
  };
}

/** Oldest units first, the newest last. */
const oldestFirst = (context: readonly ContextEntry[]): number[][] => unitsOf(context);

/** First in, first out: the oldest units after the system prompts and the task go first. */
export const fifoRule: Rule = overBudget("fifo", (input, context) =>
  dropUnits(context, oldestFirst(context), input.budget),
);

/** Least recently used: the unit the agent referred to (or that arrived) longest ago goes first. */
export const lruRule: Rule = overBudget("lru", (input, context) => {
  const last = (u: readonly number[]): number => Math.max(...u.map((i) => context[i]!.lastAccessed));
  const order = unitsOf(context).sort((a, b) => last(a) - last(b) || a[0]! - b[0]!);
  return dropUnits(context, order, input.budget);
});

/** Largest first: the unit with the most tokens goes first (older first on a tie), the newest unit last. */
export const largestFirstRule: Rule = overBudget("largest-first", (input, context) => {
  const units = unitsOf(context);
  const newest = units.pop();
  const size = (u: readonly number[]): number => u.reduce((s, i) => s + context[i]!.tokens, 0);
  const order = units.sort((a, b) => size(b) - size(a) || a[0]! - b[0]!);
  return dropUnits(context, newest === undefined ? order : [...order, newest], input.budget);
});

/** Settings of a rule that replaces old observations with a placeholder. */
export interface MaskSettings {
  readonly name: string;
  /** Observations kept verbatim: the most recent ones. */
  readonly keep: number;
  readonly placeholder: string;
  /** Tool names whose results are never replaced. */
  readonly excludeTools: readonly string[];
}

/**
 * Replaces every observation (tool result, or user message after the task) older than the
 * `keep` most recent ones with `placeholder` (a tool result keeps its `toolCallId`, its call
 * stays); then, when still over the budget, drops the oldest units (the one holding the message
 * that just arrived last).
 */
export function maskingRule(s: MaskSettings): Rule {
  return overBudget(s.name, (input, context) => {
    const observations = context.map((e, i) => ({ e, i })).filter(({ e }) => e.kind === "observation");
    const old = new Set(observations.slice(0, Math.max(0, observations.length - s.keep)).map(({ i }) => i));
    const masked = context.map((e, i): ContextEntry => {
      if (
        !old.has(i) ||
        e.replaced === "placeholder" ||
        (e.toolName !== undefined && s.excludeTools.includes(e.toolName))
      )
        return e;
      const message: Message = { ...e.message, content: s.placeholder };
      return { ...e, message, tokens: input.count(message), replaced: "placeholder" };
    });
    return dropUnits(masked, oldestFirst(masked), input.budget);
  });
}

/** Observation masking: observations older than the last 5 become "[output omitted]"; then the oldest units go. */
export const observationMaskingRule: Rule = maskingRule({
  name: "observation-masking",
  keep: 5,
  placeholder: "[output omitted]",
  excludeTools: [],
});

/**
 * Tool-result clearing as Claude's `clear_tool_uses` and LangChain's `ClearToolUsesEdit` do it:
 * triggered at the budget, the 3 most recent tool results kept, no tool excluded, at least 0
 * tokens cleared (so every older result is cleared), placeholder "[cleared]", the call stays;
 * then, when still over, the oldest units go (as masking).
 */
export const toolResultClearingRule: Rule = maskingRule({
  name: "tool-result-clearing",
  keep: 3,
  placeholder: "[cleared]",
  excludeTools: [],
});

/**
 * `@cc/importance` `compact` on the units (one segment each: its tokens, first arrival, last
 * access, access count, kind and turn), system prompts pinned, with `options` (`AGENT_PRESET`).
 */
export function importanceRule(options: ImportanceOptions): Rule {
  return {
    name: "importance",
    apply: (input) => {
      const context = withoutOrphans(input.context);
      if (total(context) <= input.budget) return context;
      const units = unitsOf(context);
      const segments: Segment[] = units.map((u, k) => {
        const es = u.map((i) => context[i]!);
        const first = es[0]!;
        return {
          id: String(k),
          content: "",
          tokenCost: total(es),
          createdAt: first.createdAt,
          lastAccessed: Math.max(...es.map((e) => e.lastAccessed)),
          accessCount: es.reduce((s, e) => s + e.accessCount, 0),
          pinned: first.kind === "system",
          kind: first.kind,
          turn: first.source,
          lastAccessedTurn: Math.max(...es.map((e) => e.lastAccessedTurn)),
        };
      });
      const r = compact(segments, { maxTokens: input.budget }, { ...options, now: () => input.now });
      const gone = new Set(r.evict.flatMap((s) => units[Number(s.id)]!));
      return context.filter((_, i) => !gone.has(i));
    },
  };
}
