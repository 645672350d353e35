/**
 * What a later turn needs from a transcript, extracted in one pass: the goal (first user
 * message), files touched, identifiers, error lines, the last outcome of each command, decisions
 * and the latest state. Deterministic and linear in the transcript's size.
 *
 * @module providers/offline/facts
 */
import { headOf } from "../../clip.js";
import type { Block } from "./parse.js";

/** A fact with the position (block index) of its last mention. */
export interface Fact {
  readonly order: number;
  readonly text: string;
}

/** A command and the outcome its last run produced. */
export interface Step {
  readonly order: number;
  readonly action: string;
  /** First line (or last error line) of the result; "" when no result was seen. */
  readonly outcome: string;
}

/** Everything the summary is drawn from. */
export interface Facts {
  /** The first user message, lines joined by a space (or the `Goal:` line of an earlier summary). */
  readonly goal: string;
  /** Paths named by the assistant (its text and its commands), first mention first. */
  readonly touchedPaths: readonly Fact[];
  /** Paths that appear only in results and user messages. */
  readonly seenPaths: readonly Fact[];
  /** Identifiers, most frequent first (ties: first mention). */
  readonly identifiers: readonly string[];
  /** Error lines of results and user messages (after the first), deduplicated, last mention kept. */
  readonly errors: readonly Fact[];
  /** One step per distinct command, at its last run, with that run's outcome. */
  readonly steps: readonly Step[];
  /** Assistant sentences that state a decision or a finding, deduplicated. */
  readonly decisions: readonly Fact[];
  /** The prose of the last assistant message that has some, clipped ("" when none). */
  readonly latest: string;
}

/** Error lines: exception names, "error", "failed", tracebacks, "not found", … */
export const ERROR_LINE =
  /\b\w*(?:error|exception)s?\b|\btraceback\b|\bfail(?:s|ed|ure|ures)?\b|\bfatal\b|\bpanic(?:ked)?\b|\bcannot\b|\bdenied\b|\bnot found\b|\bno such file\b/i;
/** A numbered source listing line (`12:    code`), shown by file viewers: never an error line. */
const LISTING = /^\d+[:|]/;
const EXTENSIONS =
  "ts|tsx|js|jsx|mjs|cjs|py|pyi|go|rs|java|kt|rb|c|h|cc|cpp|hpp|cs|php|swift|scala|md|rst|txt|json|jsonl|ya?ml|toml|ini|cfg|conf|sh|bash|sql|html|css|scss|xml|lock|proto|gradle|ipynb|csv";
const PATH = new RegExp(
  `(?<![\\w/.:-])(?:\\.{0,2}/)?(?:[\\w.-]+/)*[\\w-][\\w.-]*\\.(?:${EXTENSIONS})(?![\\w/])|\\b(?:Makefile|Dockerfile)\\b`,
  "g",
);
const IDENTIFIER =
  /`([^`\s]{2,60})`|\b([a-z][a-z0-9]*[A-Z]\w*|[A-Za-z][A-Za-z0-9]*_\w*[A-Za-z0-9]|[A-Z][a-z]+[A-Z]\w*|\w+\(\))/g;
const DECISION =
  /\b(?:decid\w*|instead|because|root cause|the (?:issue|problem|bug|cause|fix) (?:is|was|seems|appears)|should|need to|must|seems|appears|looks like|confirm\w*|succeed\w*|works?)\b/i;
const SENTENCE_END = /(?<=[.!?])\s+/;
const TOOL_CALL = /^→ call (\S+) #(\S+?): ?(.*)$/;
const FENCE = /^```/;

/** Whether `line` reads as an error (and is not a numbered source listing). */
export function isErrorLine(line: string): boolean {
  return !LISTING.test(line) && ERROR_LINE.test(line);
}

/** `text` cut to `max` characters (surrogate-safe) with "…" when cut. */
export function clipLine(text: string, max: number): string {
  return text.length > max ? `${headOf(text, Math.max(0, max - 1))}…` : text;
}

const collapse = (s: string): string => s.replace(/\s+/g, " ").trim();

/** An assistant block's commands: its tool calls, else the first line of its last fenced or `<command>` block. */
function actionsOf(lines: readonly string[]): {
  readonly calls: readonly { id: string; text: string }[];
  readonly prose: readonly string[];
} {
  const calls: { id: string; text: string }[] = [];
  const prose: string[] = [];
  let fenced: string | undefined;
  let inFence = false;
  let fenceFirst = false;
  for (const line of lines) {
    const call = TOOL_CALL.exec(line);
    if (call !== null) {
      calls.push({ id: call[2] ?? "", text: collapse(`${call[1] ?? ""} ${call[3] ?? ""}`) });
      continue;
    }
    if (FENCE.test(line) || line.startsWith("<command>") || line.startsWith("</command>")) {
      const rest = line.replace(/^```\w*|<\/?command>/g, "").trim();
      if (line.startsWith("</command>")) inFence = false;
      else {
        inFence = !inFence;
        fenceFirst = inFence;
        if (inFence && rest !== "") {
          fenced = rest;
          fenceFirst = false;
        }
      }
      continue;
    }
    if (inFence) {
      if (fenceFirst) fenced = line.replace(/<\/command>$/, "");
      fenceFirst = false;
      continue;
    }
    prose.push(line);
  }
  if (calls.length === 0 && fenced !== undefined && fenced !== "") calls.push({ id: "", text: collapse(fenced) });
  return { calls, prose };
}

/** The outcome line of a result: its last error line, else its first line, with "(+N lines)". */
function outcomeOf(lines: readonly string[], maxChars: number): string {
  let error: string | undefined;
  for (const line of lines) if (isErrorLine(line)) error = line;
  const first = error ?? lines[0] ?? "(no output)";
  const more = lines.length > 1 ? ` (+${lines.length - 1} lines)` : "";
  return `${clipLine(first, maxChars)}${more}`;
}

/** Keeps the last mention of each key, in order of last mention (linear). */
class LastMention<T> {
  private readonly items = new Map<string, T>();
  add(key: string, value: T): void {
    this.items.delete(key);
    this.items.set(key, value);
  }
  values(): T[] {
    return [...this.items.values()];
  }
}

/**
 * Extracts the {@link Facts} of `blocks` (pure). `maxChars` bounds every kept line.
 *
 * @example
 * import { parseTranscript } from "./parse.js";
 * extractFacts(parseTranscript("[user]\nfix src/a.ts\n\n[tool result bash #1]\nError: boom"), 200).errors
 * // [{ order: 1, text: "Error: boom" }]
 */
export function extractFacts(blocks: readonly Block[], maxChars: number): Facts {
  const firstUser = blocks.findIndex((b) => b.role === "user");
  const goalBlock = firstUser >= 0 ? blocks[firstUser]! : undefined;
  // A summary carried over from an earlier compaction (possibly quoted inside a note) keeps its goal.
  const priorGoal = goalBlock?.lines.find((l) => l.includes("Goal: "));
  const goal =
    priorGoal !== undefined
      ? clipLine(priorGoal.slice(priorGoal.indexOf("Goal: ") + 6), maxChars * 4)
      : clipLine(collapse((goalBlock?.lines ?? []).slice(0, 40).join(" ")), maxChars * 4);
  const touched = new Map<string, Fact>();
  const seen = new Map<string, Fact>();
  const idCount = new Map<string, number>();
  const errors = new LastMention<Fact>();
  const steps = new LastMention<Step>();
  const decisions = new LastMention<Fact>();
  const pending = new Map<string, { key: string; action: string; order: number }>();
  let lastFenced: { key: string; action: string; order: number } | undefined;
  let latest = "";
  const noteIdentifiers = (line: string): void => {
    for (const m of line.slice(0, 2000).matchAll(IDENTIFIER)) {
      const id = m[1] ?? m[2];
      if (id !== undefined && !/^\d/.test(id) && !id.includes("/") && (m[2] !== undefined || /[_.():A-Z]/.test(id)))
        idCount.set(id, (idCount.get(id) ?? 0) + 1);
    }
  };
  const notePaths = (line: string, order: number, into: Map<string, Fact>): void => {
    for (const m of line.slice(0, 2000).matchAll(PATH)) {
      const p = clipLine(m[0], maxChars);
      if (into === seen && touched.has(p)) continue;
      if (into === touched) seen.delete(p);
      if (!into.has(p)) into.set(p, { order, text: p });
    }
  };
  const record = (step: { key: string; action: string; order: number }, outcome: string): void =>
    steps.add(step.key, { order: step.order, action: step.action, outcome });

  blocks.forEach((block, order) => {
    if (block.role === "system") return;
    if (block.role === "assistant") {
      lastFenced = undefined;
      const { calls, prose } = actionsOf(block.lines);
      for (const line of block.lines) notePaths(line, order, touched);
      for (const call of calls) {
        const step = { key: call.text, action: clipLine(call.text, maxChars), order };
        if (call.id !== "") pending.set(call.id, step);
        else lastFenced = step;
        record(step, "");
      }
      const sentences = prose
        .join(" ")
        .split(SENTENCE_END)
        .map(collapse)
        .filter((s) => s !== "");
      for (const s of sentences) {
        noteIdentifiers(s);
        if (DECISION.test(s)) decisions.add(s.toLowerCase(), { order, text: clipLine(s, maxChars) });
      }
      if (sentences.length > 0) latest = clipLine(sentences.join(" "), maxChars);
      return;
    }
    // user messages after the first, and tool results: outcomes, errors, paths seen
    if (order !== firstUser) {
      for (const line of block.lines) {
        notePaths(line, order, seen);
        if (isErrorLine(line)) {
          const text = clipLine(line, maxChars);
          errors.add(text.replace(/\d+/g, "#"), { order, text });
          noteIdentifiers(line);
        }
      }
      const step =
        block.callId !== undefined ? pending.get(block.callId) : block.role === "user" ? lastFenced : undefined;
      if (step !== undefined) {
        record(step, outcomeOf(block.lines, maxChars));
        if (block.callId !== undefined) pending.delete(block.callId);
        else lastFenced = undefined;
      }
    } else {
      for (const line of block.lines) notePaths(line, order, seen);
    }
  });
  const identifiers = [...idCount.entries()]
    .filter(([id]) => !touched.has(id) && !seen.has(id))
    .sort((a, b) => b[1] - a[1])
    .map(([id]) => id);
  return {
    goal,
    touchedPaths: [...touched.values()],
    seenPaths: [...seen.values()],
    identifiers,
    errors: errors.values(),
    steps: steps.values(),
    decisions: decisions.values(),
    latest,
  };
}
