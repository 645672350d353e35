/**
 * The NEEDED-FACTS measure of the retention benchmark, pure and deterministic (rule also in
 * bench/README.md, "Retention"):
 *
 * For each action (assistant message `j`), the literals of the action itself — its tool-call
 * arguments, else the fenced code blocks of a text action — that are paths (by base name),
 * identifiers, error names, numbers of two or more digits (line numbers) or hex strings (never
 * command-line flags, never a bare one-digit number), that occur in an earlier task or
 * observation message, and that never appeared in any earlier agent (assistant) message: content,
 * reasoning or arguments. Such a literal is a fact the agent could only have taken from what its
 * environment or its task showed it: the agent did not write it down itself before. Each literal
 * is needed at most once per session (at its first use by the agent).
 *
 * A fact is `distant` when the newest message before `j` holding it is more than 4 messages back
 * (`j - newest > 4`): a recency window would have lost it.
 *
 * "Holding" is text containment at the level of literals: a text holds a literal when
 * {@link factLiterals} of the text contains it, so a placeholder or a stub holds exactly the
 * literals written in it.
 */
import { actionText, agentText, type MetricMessage, type RuleKind } from "./metrics.js";
import { argumentText, termsOf } from "./reaccess.js";

/** One fact the agent needs at action `at`: a literal of its action it can only have read. */
export interface NeededFact {
  /** Index of the action (assistant message) in the session. */
  readonly at: number;
  /** The literal: a path's base name, an identifier, an error name, a number, a lowercase hex string. */
  readonly literal: string;
  /** The newest message before `at` holding it is more than 4 messages back. */
  readonly distant: boolean;
}

/** How far back (in messages) the newest holder of a distant fact is, at least. */
export const DISTANT_AFTER = 4;

const NUMBER = /(?<![\w.])\d{2,}(?![\d.])/g;
const HEX = /\b(?:0x[0-9a-fA-F]{2,}|(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40})\b/g;

/**
 * The fact literals of a text: paths (base names), identifiers and error names of `termsOf`
 * (tool-call ids left out), numbers of ≥ 2 digits and hex strings (lowercased). No flags.
 *
 * @example [...factLiterals("sed -n 120,160p src/app.py --quiet 0xDEADBEEF")] // ["app.py", "120", "160", "0xdeadbeef"]
 */
export function factLiterals(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of termsOf(text)) if (t.kind !== "tool-call") out.add(t.text);
  for (const m of text.matchAll(NUMBER)) out.add(m[0]);
  for (const m of text.matchAll(HEX)) out.add(m[0].toLowerCase());
  return out;
}

/**
 * The text a message puts in a context: its content and its tool calls' argument values (the
 * reasoning of an assistant message is not sent back, so it holds nothing).
 *
 * @example heldText({ role: "assistant", content: "ls", toolCalls: [{ id: "c", name: "bash", arguments: '{"command":"cat a.py"}' }] }) // "ls\ncat a.py"
 */
export function heldText(m: MetricMessage): string {
  return [m.content, ...(m.toolCalls ?? []).map((c) => argumentText(c.arguments))].join("\n");
}

/**
 * Every needed fact of a session, ordered by action, then by first appearance in the action.
 * `kinds` are the messages' rule kinds (`ruleKinds`): origins are the `task` and `observation`
 * messages; `action` messages are the agent's.
 *
 * @example
 * neededFacts([
 *   { role: "user", content: "ISSUE: parse_date fails" },
 *   { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"grep -n parse_date src/dates.py"}' }] },
 * ], ["task", "action"]) // [{ at: 1, literal: "parse_date", distant: false }]
 */
export function neededFacts(messages: readonly MetricMessage[], kinds: readonly RuleKind[]): readonly NeededFact[] {
  const fromOrigin = new Set<string>();
  const fromAgent = new Set<string>();
  const newest = new Map<string, number>();
  const out: NeededFact[] = [];
  messages.forEach((m, j) => {
    const kind = kinds[j];
    if (kind === "action") {
      for (const literal of factLiterals(actionText(m))) {
        if (!fromOrigin.has(literal) || fromAgent.has(literal)) continue;
        out.push({ at: j, literal, distant: j - (newest.get(literal) ?? -Infinity) > DISTANT_AFTER });
      }
      for (const l of factLiterals(agentText(m))) fromAgent.add(l);
    } else if (kind === "task" || kind === "observation") {
      for (const l of factLiterals(heldText(m))) fromOrigin.add(l);
    }
    for (const l of factLiterals(heldText(m))) newest.set(l, j);
  });
  return out;
}

/**
 * The agent's own words at its action, with the target literal removed, as a search query: every
 * whitespace-separated token containing `literal` is dropped, then the other fact literals of the
 * rest come first (the specific words), then its remaining words, each once, at most `max`
 * (an index reads at most 32 terms of a query).
 *
 * @example recoveryQuery("open src/dates.py near parse_date, line 120", "dates.py", 8) // "parse_date 120 open near line"
 */
export function recoveryQuery(words: string, literal: string, max = 32): string {
  const kept = words.split(/\s+/).filter((w) => w !== "" && !w.includes(literal));
  const rest = kept.join(" ");
  const specific = [...factLiterals(rest)].filter((l) => !l.includes(literal));
  const plain = rest.match(/[\p{L}\p{N}_]+/gu) ?? [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of [...specific, ...plain]) {
    const key = w.toLowerCase();
    if (seen.has(key) || w.includes(literal)) continue;
    seen.add(key);
    out.push(w);
    if (out.length >= max) break;
  }
  return out.join(" ");
}
