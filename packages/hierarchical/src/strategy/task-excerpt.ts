/**
 * Task excerpts: a task too large to pin whole (more than `TASK_PIN_MAX_SHARE` of the target) is
 * not compacted like any other message — the run is about it, and its paths and names are what
 * the agent needs to the end. It is replaced in place by an excerpt that fits the pin allowance:
 * its opening lines, a pointer to the whole task in the index (expandable byte for byte), and the
 * key facts of the rest (see `facts`). The excerpt is then the task on every later turn.
 *
 * @module strategy/task-excerpt
 */
import { createHash } from "node:crypto";
import type { Message, TaskPin } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";
import { extractiveSummary } from "../summarize.js";
import type { SummaryWriter } from "../writer.js";
import { fitFacts, keyFacts } from "./facts.js";

/** How the pointer line of every excerpt begins (an excerpt is never excerpted again). */
export const TASK_EXCERPT_PREFIX = "[task excerpt: the whole task (";

/** Share of an excerpt's allowance its opening lines may take; the key facts of the rest get the remainder. */
export const TASK_EXCERPT_HEAD_SHARE = 0.6;

/**
 * The index id of a task (`t` + 32 hex digits of the SHA-256 of its text), so the same task gets
 * the same id in every pass.
 *
 * @example taskId("fix the reader") // "t" + 32 hex digits
 */
export function taskId(content: string): string {
  return `t${createHash("sha256").update(content).digest("hex").slice(0, 32)}`;
}

/**
 * The pointer line of an excerpt (pure).
 *
 * @example excerptPointer("t3f…", 5120) // "[task excerpt: the whole task (5120 tokens) is in the journal as t3f…; expand the id to read it]"
 */
export function excerptPointer(id: string, tokens: number): string {
  return `${TASK_EXCERPT_PREFIX}${tokens} tokens) is in the journal as ${id}; expand the id to read it]`;
}

/** The longest prefix of `text` (whole code points) that `fits`, by bisection over code points. */
function longestPrefix(text: string, fits: (s: string) => boolean): string {
  const points = Array.from(text);
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(points.slice(0, mid).join(""))) lo = mid;
    else hi = mid - 1;
  }
  return points.slice(0, lo).join("");
}

/**
 * An excerpt of `text` within `allowance` tokens by `count` (pure apart from the counter): the
 * pointer line, the opening lines (whole lines while they fit {@link TASK_EXCERPT_HEAD_SHARE} of
 * the allowance; the first line cut at a code point when even it does not), then the key facts
 * of the rest that neither the opening nor `known` already hold. `pointerFirst` puts the pointer
 * line before the opening (a stub), else after it (a task reads as itself). `undefined` when not
 * even the pointer fits, or when the text already fits.
 *
 * @example
 * excerptText(longLog, "[output masked to the journal: o1…, 5120 tokens; expand the id to read it]", 300, (t) => counter.count(t), true)
 */
export function excerptText(
  text: string,
  pointer: string,
  allowance: number,
  count: (text: string) => number,
  pointerFirst: boolean,
  known = "",
): string | undefined {
  const pointerTokens = count(pointer) + 1;
  if (pointerTokens > allowance || count(text) <= allowance) return undefined;
  const headAllowance = Math.floor(TASK_EXCERPT_HEAD_SHARE * allowance) - pointerTokens;
  const lines = text.split("\n");
  let head = "";
  let used = 0;
  let taken = 0;
  for (const line of lines) {
    const next = taken === 0 ? line : `${head}\n${line}`;
    if (count(next) > headAllowance) break;
    head = next;
    used += line.length + 1;
    taken++;
  }
  if (taken === 0 && headAllowance > 0) {
    head = longestPrefix(lines[0] ?? "", (x) => count(x) <= headAllowance);
    used = head.length;
  }
  const rest = text.slice(Math.min(used, text.length));
  const opening = head === "" ? pointer : pointerFirst ? `${pointer}\n${head}` : `${head}\n${pointer}`;
  const label = pointerFirst ? "\nkey facts: " : "\nkey facts of the rest: ";
  const factAllowance = allowance - count(opening) - count(label);
  const facts = factAllowance > 0 ? fitFacts(keyFacts(rest, `${known}\n${head}`), factAllowance, count) : [];
  const join = (n: number): string => (n === 0 ? opening : `${opening}${label}${facts.slice(0, n).join(" · ")}`);
  // Per-part counts estimate the whole; drop facts from the end until it really fits.
  let n = facts.length;
  while (n > 0 && count(join(n)) > allowance) n--;
  const out = join(n);
  return count(out) <= allowance ? out : undefined;
}

/**
 * The excerpt of a task's text within `allowance` tokens (see {@link excerptText}): its opening,
 * the pointer to the whole task, the key facts of the rest.
 *
 * @example
 * taskExcerpt(longIssue, "t3f…", 5120, 800, (t) => counter.count(t))
 * // "Fix the CSV reader …\n[task excerpt: the whole task (5120 tokens) is in the journal as t3f…; …]\nkey facts of the rest: src/io.py:42 · parse_row"
 */
export function taskExcerpt(
  text: string,
  id: string,
  tokens: number,
  allowance: number,
  count: (text: string) => number,
): string | undefined {
  return excerptText(text, excerptPointer(id, tokens), allowance, count, false);
}

/** What {@link excerptTask} needs besides the messages. */
export interface ExcerptRun {
  /** Counts text and chat messages (a `StrategyCounter`). */
  readonly counter: { count(text: string): number; countMessages(messages: readonly Message[]): number };
  readonly writer: SummaryWriter;
  readonly now: number;
  readonly idPrefix: string;
  readonly signal?: AbortSignal;
}

/** What became of a task too large to pin: excerpted, left as it was (no excerpt fits), or its write failed. */
export type TaskExcerpting =
  | {
      readonly _tag: "Excerpted";
      readonly messages: readonly Message[];
      readonly task: Extract<TaskPin, { _tag: "Pinned" }>;
    }
  | { readonly _tag: "Unchanged" }
  | { readonly _tag: "Failed"; readonly failure: { readonly id: string; readonly reason: string } };

/**
 * Pins an excerpt of a task that is too large to pin whole: writes the whole task to the index
 * (kind `task`), then replaces it in `messages` by {@link taskExcerpt} within the pin's limit
 * (the message's own overhead included). A task that is not a plain user message, is an excerpt
 * already, or has no excerpt that fits stays `Unchanged`; a failed write is `Failed` (the task is
 * then compacted like the rest). Never rejects.
 *
 * @example
 * const r = await excerptTask(source, { _tag: "TooLarge", index: 1, tokens: 5120, limit: 2000 }, { counter, writer, now, idPrefix: "" });
 * const next = r._tag === "Excerpted" ? r.messages : source;
 */
export async function excerptTask(
  messages: readonly Message[],
  task: Extract<TaskPin, { _tag: "TooLarge" }>,
  run: ExcerptRun,
): Promise<TaskExcerpting> {
  const original = messages[task.index];
  if (original === undefined || original.role !== "user" || original.content.includes(TASK_EXCERPT_PREFIX))
    return { _tag: "Unchanged" };
  const base = run.counter.countMessages([]);
  // The message without its text: what the excerpt's message costs on top of its text.
  const { parts: _parts, ...rest } = original;
  const overhead = run.counter.countMessages([{ ...rest, content: "" }]) - base;
  const count = (t: string): number => run.counter.count(t);
  const id = `${run.idPrefix}${taskId(original.content)}`;
  if (taskExcerpt(original.content, id, task.tokens, task.limit - overhead, count) === undefined)
    return { _tag: "Unchanged" };
  try {
    const written = await run.writer.writeSummary(
      { id, content: original.content, tokenCost: task.tokens, createdAt: original.timestamp ?? run.now, kind: "task" },
      extractiveSummary(original.content),
      { evictedAt: run.now, signal: run.signal ?? new AbortController().signal },
    )();
    if (E.isLeft(written))
      return {
        _tag: "Failed",
        failure: {
          id,
          reason: written.left._tag === "WriterThrew" ? written.left.message : JSON.stringify(written.left.error),
        },
      };
    const storedAs = written.right?.id ?? id;
    const text = taskExcerpt(original.content, storedAs, task.tokens, task.limit - overhead, count);
    if (text === undefined) return { _tag: "Unchanged" };
    const excerpt = { ...rest, content: text } as Message;
    const out = [...messages];
    out[task.index] = excerpt;
    return {
      _tag: "Excerpted",
      messages: out,
      task: {
        _tag: "Pinned",
        index: task.index,
        tokens: run.counter.countMessages([excerpt]) - base,
        excerpt: { id: storedAs, tokens: task.tokens },
      },
    };
  } catch (e) {
    return { _tag: "Failed", failure: { id, reason: e instanceof Error ? e.message : String(e) } };
  }
}
