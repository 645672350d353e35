/**
 * The retention metrics, pure and deterministic (rules also in bench/README.md, "Retention"):
 *
 * - **Message roles for the rules** (`ruleKinds`): `system`; `demonstration` (a user message
 *   opening with the harness's "Here is a demonstration"); `task` (the first user message holding
 *   the issue — `<pr_description>` or `ISSUE:` — else the first user message); `action` (assistant
 *   messages); `observation` (tool results and every later user message).
 * - **Term origins** are the non-system, non-demonstration messages, with the harness template
 *   lines removed (`templateLines`: lines found in at least half of a corpus's sessions, and in at
 *   least 3 of them).
 * - **Re-access** (`agentReaccesses`): one per (agent message `j`, term) where the term (a path,
 *   identifier or error of `termsOf`; tool-call ids are left out, so a result never pairs with
 *   its own call) occurs in the agent's text — content, reasoning and action arguments — and in
 *   some earlier origin message. It is **kept** when any message in the context before `j` holds
 *   the term (`heldBy`), not only its first mention.
 * - **Action grounding** (`actionLiterals`, `groundingTargets`): per action, the literals of its
 *   arguments — paths, identifiers, errors, numbers of two or more digits (line numbers), hex
 *   strings and command-line flags — that occur in an earlier origin message. Grounded when a
 *   message in the context holds the literal.
 * - **Recovery queries** (`contextQuery`) are formed from the context as it is — the newest
 *   messages in it — never from the future referring message.
 */
import { argumentText, FOOTER_LINES, termsOf, type RuleMessage } from "./reaccess.js";

/** How the rules see a message. */
export type RuleKind = "system" | "demonstration" | "task" | "action" | "observation";

/** A message with the fields the rules read (reasoning from `extra.reasoning_content`). */
export interface MetricMessage extends RuleMessage {
  readonly extra?: { readonly [key: string]: unknown };
}

const DEMONSTRATION = /^\s*Here is a demonstration/i;
const ISSUE = /<pr_description>|ISSUE:/;

/**
 * The rule kind of every message of a session.
 *
 * @example ruleKinds([{ role: "system", content: "" }, { role: "user", content: "ISSUE: x" }, { role: "assistant", content: "" }]) // ["system", "task", "action"]
 */
export function ruleKinds(messages: readonly MetricMessage[]): RuleKind[] {
  const users = messages
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => m.role === "user" && !DEMONSTRATION.test(m.content));
  const task = (users.find(({ m }) => ISSUE.test(m.content)) ?? users[0])?.i ?? -1;
  return messages.map((m, i) => {
    if (m.role === "system") return "system";
    if (m.role === "assistant") return "action";
    if (i === task) return "task";
    if (m.role === "user" && DEMONSTRATION.test(m.content)) return "demonstration";
    return "observation";
  });
}

/**
 * Lines that are the harness's template: present in at least half of the sessions and in at least
 * 3 of them (blank lines never count).
 *
 * @example templateLines([["a", "x"], ["a", "y"], ["a", "z"]]).has("a") // true
 */
export function templateLines(sessions: readonly (readonly MetricMessage[])[]): ReadonlySet<string> {
  const seen = new Map<string, number>();
  for (const s of sessions) {
    const lines = new Set<string>();
    for (const m of s) for (const l of m.content.split(/\r?\n/)) if (l.trim() !== "") lines.add(l.trim());
    for (const l of lines) seen.set(l, (seen.get(l) ?? 0) + 1);
  }
  const min = Math.max(3, Math.ceil(sessions.length / 2));
  return new Set([...seen].filter(([, n]) => n >= min).map(([l]) => l));
}

/** Text of a message for the rules: content without template and footer lines, plus tool-call argument values. */
export function originText(m: MetricMessage, template: ReadonlySet<string>): string {
  const lines = m.content
    .split(/\r?\n/)
    .filter((l) => !template.has(l.trim()) && !FOOTER_LINES.some((f) => f.test(l.trim())));
  return [...lines, ...(m.toolCalls ?? []).map((c) => argumentText(c.arguments))].join("\n");
}

/** The agent's own text: content, reasoning (`extra.reasoning_content`) and action arguments. */
export function agentText(m: MetricMessage): string {
  const reasoning = m.extra?.["reasoning_content"];
  return [
    m.content,
    typeof reasoning === "string" ? reasoning : "",
    ...(m.toolCalls ?? []).map((c) => argumentText(c.arguments)),
  ].join("\n");
}

/** The arguments of an agent's actions: tool-call argument values, else fenced code blocks of its content. */
export function actionText(m: MetricMessage): string {
  if ((m.toolCalls ?? []).length > 0) return (m.toolCalls ?? []).map((c) => argumentText(c.arguments)).join("\n");
  return [...m.content.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((x) => x[1] ?? "").join("\n");
}

const NUMBER = /(?<![\w.])\d{2,}(?![\d.])/g;
const HEX = /\b(?:0x[0-9a-fA-F]{2,}|(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40})\b/g;
const FLAG = /(?<![\w-])--?[A-Za-z][\w-]*/g;

/**
 * Keys of the literals of a text: `termsOf` terms (not tool-call ids), numbers of ≥ 2 digits,
 * hex strings and flags.
 *
 * @example [...literalKeys("sed -n 120,160p src/app.py --quiet")] // ["path:app.py", "num:120", "num:160", "flag:-n", "flag:--quiet"]
 */
export function literalKeys(text: string): Set<string> {
  const keys = new Set(termKeys(text));
  for (const m of text.matchAll(NUMBER)) keys.add(`num:${m[0]}`);
  for (const m of text.matchAll(HEX)) keys.add(`hex:${m[0].toLowerCase()}`);
  for (const m of text.matchAll(FLAG)) keys.add(`flag:${m[0]}`);
  return keys;
}

/** Keys of the path, identifier and error terms of a text. */
export function termKeys(text: string): string[] {
  return termsOf(text)
    .filter((t) => t.kind !== "tool-call")
    .map((t) => t.key);
}

/** What a message holds for the rules: its term and literal keys (empty for system and demonstrations). */
export interface Holdings {
  readonly kinds: readonly RuleKind[];
  /** Literal keys (terms included) each message holds as an origin. */
  readonly held: readonly ReadonlySet<string>[];
}

/**
 * The keys each message holds as an origin of terms (system prompts and demonstrations hold none).
 *
 * @example holdings(messages, templateLines([messages])).held[1]?.has("path:app.py")
 */
export function holdings(messages: readonly MetricMessage[], template: ReadonlySet<string>): Holdings {
  const kinds = ruleKinds(messages);
  const held = messages.map((m, i) =>
    kinds[i] === "system" || kinds[i] === "demonstration" ? new Set<string>() : literalKeys(originText(m, template)),
  );
  return { kinds, held };
}

/** One thing the agent uses at message `at`: a term key (re-access) or a literal key (grounding). */
export interface Use {
  readonly at: number;
  readonly key: string;
}

/** Keys seen in an origin message before `j`, built incrementally. */
function usesOf(
  messages: readonly MetricMessage[],
  h: Holdings,
  keysOf: (m: MetricMessage) => Iterable<string>,
): Use[] {
  const before = new Set<string>();
  const out: Use[] = [];
  messages.forEach((m, j) => {
    if (h.kinds[j] === "action") for (const key of new Set(keysOf(m))) if (before.has(key)) out.push({ at: j, key });
    for (const k of h.held[j] ?? []) before.add(k);
  });
  return out;
}

/**
 * Re-accesses made by the agent: (agent message, term) pairs whose term occurred in an earlier origin.
 *
 * @example agentReaccesses(messages, holdings(messages, new Set())).map((u) => u.key) // ["path:app.py", …]
 */
export function agentReaccesses(messages: readonly MetricMessage[], h: Holdings): Use[] {
  return usesOf(messages, h, (m) => termKeys(agentText(m)));
}

/**
 * Grounding targets: (action message, literal) pairs whose literal occurred in an earlier origin.
 *
 * @example groundingTargets(messages, holdings(messages, new Set())).filter((u) => u.key.startsWith("num:"))
 */
export function groundingTargets(messages: readonly MetricMessage[], h: Holdings): Use[] {
  return usesOf(messages, h, (m) => literalKeys(actionText(m)));
}

/**
 * True when some message in `context` (indices) holds `key`.
 *
 * @example heldBy("path:app.py", [0, 2], holdings.held)
 */
export function heldBy(key: string, context: Iterable<number>, held: readonly ReadonlySet<string>[]): boolean {
  for (const i of context) if (held[i]?.has(key) === true) return true;
  return false;
}

/**
 * A recovery query formed from the context only: the term keys of its `newest` newest messages,
 * the rarest first (fewest holders in the context), at most `max`, as search text.
 *
 * @example contextQuery([3, 4], held, 2, 8) // "reproduce.py TimeDelta"
 */
export function contextQuery(
  context: readonly number[],
  held: readonly ReadonlySet<string>[],
  newest: number,
  max: number,
): string[] {
  const recent = context.slice(-newest);
  const keys = new Set<string>();
  for (const i of recent) for (const k of held[i] ?? []) if (/^(path|identifier|error):/.test(k)) keys.add(k);
  const holders = (k: string): number => context.reduce((n, i) => n + (held[i]?.has(k) === true ? 1 : 0), 0);
  return [...keys]
    .map((k) => ({ k, n: holders(k) }))
    .sort((a, b) => a.n - b.n || a.k.localeCompare(b.k))
    .slice(0, max)
    .map(({ k }) => k.slice(k.indexOf(":") + 1));
}

/**
 * A plain grep over the evicted store: messages (newest first) holding any query word, ranked by
 * how many query words they hold; the first `k`.
 *
 * @example grepEvicted(["app.py"], [5, 2], held, 5) // [5] when only message 5 holds app.py
 */
export function grepEvicted(
  query: readonly string[],
  evicted: readonly number[],
  held: readonly ReadonlySet<string>[],
  k: number,
): number[] {
  const words = query.map((q) => [`path:${q}`, `identifier:${q}`, `error:${q}`]);
  return evicted
    .map((i) => ({ i, n: words.filter((alts) => alts.some((a) => held[i]?.has(a) === true)).length }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n || b.i - a.i)
    .slice(0, k)
    .map((x) => x.i);
}
