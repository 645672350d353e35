/**
 * The re-access rule: a later message refers to something that first appeared in an earlier
 * message — a file path, an identifier, an error name or a tool-call id.
 *
 * Pure and deterministic. The rule, exactly (also in bench/README.md):
 * 1. Text of a message = its content plus, for each tool call it issues, the string values of
 *    its JSON arguments (the raw argument text when it is not a JSON object; tool names and
 *    argument keys are the harness's vocabulary, not content). Harness footer lines (`(Open file: …)`, `(Current directory: …)`, a bare
 *    `bash-$` prompt) are removed first: the environment repeats them on every turn.
 * 2. Terms of that text (by kind):
 *    - `path`: a name with a file extension (`reproduce.py`, `src/app/main.ts`), keyed by its
 *      base name, so `/testbed/reproduce.py` and `reproduce.py` are the same file;
 *    - `error`: a word ending in `Error`, `Exception` or `Warning` (`AttributeError`);
 *    - `identifier`: a word of ≥ 4 characters with an inner `_` (`td_field`, `_serialize`) or a
 *      lower→upper case change (`TimeDelta`, `getValue`); dunder names (`__init__`) are too
 *      generic and left out;
 *    - `tool-call`: the id of a tool call (`call_…`, `toolu_…`), from the structured fields
 *      (an assistant's calls introduce it, a tool result's `toolCallId` refers to it) and from
 *      the text.
 * 3. A term's origin is the first message whose terms contain it. Message `j` re-accesses
 *    message `i < j` when one of `j`'s terms has origin `i` and `i` is not pinned (system
 *    prompts are never evicted, so references to them say nothing about a policy).
 * 4. One re-access per (referrer, origin) pair. Its query is the most specific referring term:
 *    the one found in the fewest messages before `j`, then the longest, then the first.
 */

/** The kinds of term the rule recognises. */
export type TermKind = "path" | "error" | "identifier" | "tool-call";

/** One term of a message: `key` is what is compared, `text` what a search is made with. */
export interface Term {
  readonly kind: TermKind;
  readonly key: string;
  readonly text: string;
}

/** The part of a chat message the rule reads (structurally a `@cc/lcm` Message). */
export interface RuleMessage {
  readonly role: string;
  readonly content: string;
  readonly toolCalls?: readonly { readonly id: string; readonly name: string; readonly arguments: string }[];
  readonly toolCallId?: string;
  /** When the message was written (epoch ms), if the transcript recorded it. */
  readonly timestamp?: number;
}

/** A later message (`at`) referring back to an earlier one (`origin`). */
export interface Reaccess {
  /** Index of the referring message. */
  readonly at: number;
  /** Index of the message where the term first appeared. */
  readonly origin: number;
  /** The most specific referring term (the search query). */
  readonly term: Term;
}

/** Lines the SWE-agent harness appends to every observation. */
export const FOOTER_LINES: readonly RegExp[] = [/^\(Open file: .*\)$/, /^\(Current directory: .*\)$/, /^bash-\$\s*$/];

const EXTENSIONS =
  "py|pyi|ts|tsx|js|jsx|mjs|cjs|json|ya?ml|toml|cfg|ini|txt|md|rst|go|rs|java|kt|c|h|cc|cpp|hpp|cs|rb|php|sh|sql|html|css|xml|lock|traj|csv";
const PATH = new RegExp(
  `(?:[\\p{L}\\p{N}_.\\-]+/)*[\\p{L}\\p{N}_\\-][\\p{L}\\p{N}_.\\-]*\\.(?:${EXTENSIONS})(?![\\p{L}\\p{N}_])`,
  "gu",
);
const ERROR = /\b[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning)\b/g;
const WORD = /(?<![\p{L}\p{N}_])[\p{L}_][\p{L}\p{N}_]*(?![\p{L}\p{N}_])/gu;
const TOOL_CALL = /\b(?:call|toolu)_[A-Za-z0-9]{6,}\b/g;

/** The text the rule reads from a message: content and tool calls, harness footers removed. */
export function ruleText(m: RuleMessage, footers: readonly RegExp[] = FOOTER_LINES): string {
  const calls = (m.toolCalls ?? []).map((c) => argumentText(c.arguments));
  const lines = [m.content, ...calls].join("\n").split(/\r?\n/);
  return lines.filter((l) => !footers.some((f) => f.test(l.trim()))).join("\n");
}

function stringsOf(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(stringsOf);
  if (typeof v === "object" && v !== null) return Object.values(v).flatMap(stringsOf);
  return [];
}

/** The string values of a tool call's JSON arguments, or the raw text when it is not JSON. */
export function argumentText(args: string): string {
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === "object" && v !== null ? stringsOf(v).join("\n") : args;
  } catch {
    return args;
  }
}

const isIdentifier = (w: string): boolean =>
  w.length >= 4 && !/^__\w+__$/.test(w) && (/[\p{L}\p{N}]_[\p{L}\p{N}]|^_\p{L}/u.test(w) || /\p{Ll}\p{Lu}/u.test(w));

/**
 * The terms of one text, deduplicated by key, in order of first appearance.
 *
 * @example termsOf("open src/app.py: AttributeError in td_field")
 * // [{ kind: "path", key: "path:app.py", text: "app.py" }, { kind: "error", … "AttributeError" }, { kind: "identifier", … "td_field" }]
 */
export function termsOf(text: string): Term[] {
  const found: { at: number; term: Term }[] = [];
  const taken: [number, number][] = [];
  const overlaps = (a: number, b: number): boolean => taken.some(([s, e]) => a < e && b > s);
  for (const m of text.matchAll(TOOL_CALL)) {
    found.push({ at: m.index, term: { kind: "tool-call", key: `tool-call:${m[0]}`, text: m[0] } });
    taken.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(PATH)) {
    if (overlaps(m.index, m.index + m[0].length)) continue;
    const base = m[0].slice(m[0].lastIndexOf("/") + 1);
    found.push({ at: m.index, term: { kind: "path", key: `path:${base}`, text: base } });
    taken.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(ERROR)) {
    if (overlaps(m.index, m.index + m[0].length)) continue;
    found.push({ at: m.index, term: { kind: "error", key: `error:${m[0]}`, text: m[0] } });
    taken.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(WORD)) {
    if (overlaps(m.index, m.index + m[0].length) || !isIdentifier(m[0])) continue;
    found.push({ at: m.index, term: { kind: "identifier", key: `identifier:${m[0]}`, text: m[0] } });
  }
  found.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  const out: Term[] = [];
  for (const f of found) {
    if (seen.has(f.term.key)) continue;
    seen.add(f.term.key);
    out.push(f.term);
  }
  return out;
}

/** The terms of one message: its text's terms plus the structured tool-call ids. */
export function messageTerms(m: RuleMessage, footers: readonly RegExp[] = FOOTER_LINES): Term[] {
  const terms = termsOf(ruleText(m, footers));
  const keys = new Set(terms.map((t) => t.key));
  const ids = [...(m.toolCalls ?? []).map((c) => c.id), ...(m.toolCallId === undefined ? [] : [m.toolCallId])];
  for (const id of ids) {
    const key = `tool-call:${id}`;
    if (id === "" || keys.has(key)) continue;
    keys.add(key);
    terms.push({ kind: "tool-call", key, text: id });
  }
  return terms;
}

/**
 * Every re-access of a conversation, ordered by referring message then origin.
 * `pinned(i)` says which messages are never evicted (default: system messages).
 *
 * @example
 * findReaccesses([{ role: "user", content: "fix app.py" }, { role: "assistant", content: "ok" }, { role: "user", content: "app.py still fails" }])
 * // [{ at: 2, origin: 0, term: { kind: "path", key: "path:app.py", text: "app.py" } }]
 */
export function findReaccesses(
  messages: readonly RuleMessage[],
  pinned: (index: number) => boolean = (i) => messages[i]?.role === "system",
  footers: readonly RegExp[] = FOOTER_LINES,
): Reaccess[] {
  const origin = new Map<string, number>();
  const seenIn = new Map<string, number>();
  const out: Reaccess[] = [];
  messages.forEach((m, j) => {
    const terms = messageTerms(m, footers);
    const best = new Map<number, Term>();
    for (const t of terms) {
      const o = origin.get(t.key);
      if (o === undefined || pinned(o)) continue;
      const cur = best.get(o);
      if (cur === undefined || moreSpecific(t, cur, seenIn)) best.set(o, t);
    }
    [...best.entries()].sort((a, b) => a[0] - b[0]).forEach(([o, term]) => out.push({ at: j, origin: o, term }));
    for (const t of terms) {
      if (!origin.has(t.key)) origin.set(t.key, j);
      seenIn.set(t.key, (seenIn.get(t.key) ?? 0) + 1);
    }
  });
  return out;
}

function moreSpecific(a: Term, b: Term, seenIn: ReadonlyMap<string, number>): boolean {
  const fa = seenIn.get(a.key) ?? 0;
  const fb = seenIn.get(b.key) ?? 0;
  if (fa !== fb) return fa < fb;
  return a.text.length > b.text.length;
}
