/**
 * Reuse from the agent's own references: a unit is "used" when a later assistant message — its
 * text, its reasoning or its tool-call arguments — mentions a term (a path, an identifier, an
 * error name) first seen in that unit. Tool output, user messages and a tool result pointing at
 * its own call id never count: only what the agent itself wrote shows it needed a unit.
 *
 * Linear in the conversation and bounded in memory: each text is sampled (head and tail of
 * {@link SCAN_CHARS} characters), each message yields at most {@link MAX_REFERENCES} terms, and
 * the table of first sightings holds at most {@link MAX_TRACKED_TERMS} terms.
 *
 * @module strategy/reuse
 */
import type { Message, MessageUnit } from "@cc/messages";
import { MAX_REFERENCES, references, SCAN_CHARS } from "./references.js";

/** Most terms whose first unit is remembered; later new terms are not tracked (bounded memory). */
export const MAX_TRACKED_TERMS = 100_000;
/** Deepest nesting of tool-call arguments read for their string values. */
const MAX_ARGUMENT_DEPTH = 16;

const ERROR = /\b[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning)\b/g;
const TOOL_CALL_ID = /^(?:call|toolu)_/;
const EXTENSION = /\.[A-Za-z0-9]{1,8}$/;

/** The agent's use of earlier units, per unit. */
export interface UnitReuse {
  /** Later assistant messages that mention a term first seen in this unit. */
  readonly count: number;
  /** The position of the last unit holding such a message (`undefined` when none). */
  readonly lastTurn?: number;
}

/** Head and tail of a long text, so one huge tool output costs a bounded scan. */
function sample(text: string): string {
  return text.length > 2 * SCAN_CHARS ? `${text.slice(0, SCAN_CHARS)}\n${text.slice(-SCAN_CHARS)}` : text;
}

/**
 * The term keys of a text: paths keyed by their base name (so `/testbed/app.py` and `app.py` are
 * one file), identifiers and error names; tool-call ids (`call_…`, `toolu_…`, or any id of
 * `ids`) are left out. At most {@link MAX_REFERENCES} + the error names of the sample.
 *
 * @example termKeys("open /testbed/src/app.py: KeyError in load_config", new Set()) // ["app.py", "KeyError", "load_config"]
 */
export function termKeys(text: string, ids: ReadonlySet<string>): readonly string[] {
  const s = sample(text);
  const out = new Set<string>();
  for (const r of references(s)) {
    const slash = r.lastIndexOf("/");
    const base = slash >= 0 && EXTENSION.test(r) ? r.slice(slash + 1) : r;
    if (base.length < 3 || ids.has(base) || TOOL_CALL_ID.test(base)) continue;
    out.add(base);
  }
  let errors = 0;
  for (const m of s.matchAll(ERROR)) {
    out.add(m[0]);
    if (++errors >= MAX_REFERENCES) break;
  }
  return [...out];
}

/** The string values of a tool call's JSON arguments (the raw text when it is not JSON). */
export function argumentValues(args: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args;
  }
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === "string") out.push(v);
    else if (depth >= MAX_ARGUMENT_DEPTH || typeof v !== "object" || v === null) return;
    else for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, depth + 1);
  };
  walk(parsed, 0);
  return out.join("\n");
}

/** What the agent wrote in an assistant message: content, reasoning and tool-call argument values. */
export function agentText(m: Message): string {
  if (m.role !== "assistant") return "";
  const reasoning = [m.extra?.["reasoning_content"], m.extra?.["reasoning"]].filter(
    (r): r is string => typeof r === "string",
  );
  return [m.content, ...reasoning, ...(m.toolCalls ?? []).map((c) => argumentValues(c.arguments))].join("\n");
}

/** What a message offers as an origin of terms (system prompts offer none: they are never evicted). */
function originText(m: Message): string {
  return m.role === "assistant" ? agentText(m) : m.role === "system" ? "" : m.content;
}

/**
 * Reuse of every unit by the agent's later references (pure). One use per (assistant message,
 * earlier unit) pair; a message never uses its own unit.
 *
 * @example
 * agentReuse(messageUnits([{ role: "user", content: "see src/a.py" }, { role: "tool", toolCallId: "c1", content: "a.py: 3 lines" }, { role: "assistant", content: "edit a.py" }]))
 * // [{ count: 1, lastTurn: 2 }, { count: 0 }, { count: 0 }]
 */
export function agentReuse(units: readonly MessageUnit[]): readonly UnitReuse[] {
  const ids = new Set<string>();
  for (const u of units)
    for (const m of u.messages) {
      if (m.role === "tool") ids.add(m.toolCallId);
      if (m.role === "assistant") for (const c of m.toolCalls ?? []) ids.add(c.id);
    }
  const first = new Map<string, number>();
  const count = new Array<number>(units.length).fill(0);
  const last = new Array<number | undefined>(units.length).fill(undefined);
  units.forEach((unit, j) => {
    for (const m of unit.messages) {
      if (m.role !== "assistant") continue;
      const hit = new Set<number>();
      for (const key of termKeys(agentText(m), ids)) {
        const i = first.get(key);
        if (i !== undefined && i !== j) hit.add(i);
      }
      for (const i of hit) {
        count[i]!++;
        last[i] = j;
      }
    }
    for (const m of unit.messages) {
      for (const key of termKeys(originText(m), ids)) {
        if (first.size >= MAX_TRACKED_TERMS) return;
        if (!first.has(key)) first.set(key, j);
      }
    }
  });
  return count.map((c, i) => (last[i] === undefined ? { count: c } : { count: c, lastTurn: last[i]! }));
}
