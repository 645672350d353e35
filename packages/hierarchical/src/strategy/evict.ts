/**
 * One eviction pass over a conversation — the core both the `hierarchical` history strategy and
 * the `cc-compact` command build on: group messages into units, pin the leading system messages
 * and the preserved tail, evict the lowest-importance units into a `SegmentIndex` until the
 * context fits a target, and write a note listing what left (searchable and expandable by id).
 *
 * @module strategy/evict
 */
import { createHmac } from "node:crypto";
import {
  leadingSystemCount,
  planTail,
  SUMMARY_PREFIX,
  summaryMessage,
  type Message,
  type TaskPin,
  type UserMessage,
} from "@cc/messages";
import { planTaskPin } from "@cc/messages/internal";
import { decodeWith, type InvalidInput, type InvalidOptions } from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { hierarchicalCompact, type SegmentFailure } from "../compact.js";
import { extractiveSummarizer } from "../summarize.js";
import { indexWriter } from "../writer.js";
import { factLine, journalFacts } from "./facts.js";
import { clipOutputs, maskOutputs, restoringOriginals, type MaskedEntry } from "./mask.js";
import { excerptTask } from "./task-excerpt.js";
import { DEFAULT_RELEVANCE_WINDOW } from "./relevance.js";
import { protectNewest } from "./plan.js";
import { buildSegments, type MessageSegment } from "./segments.js";

import {
  EVICTION_SCORING,
  EvictionOptionsCodec,
  EvictionRunOptionsCodec,
  type EvictionOptions,
  type EvictionRunOptions,
  type EvictionScoring,
  type StrategyCounter,
} from "./options.js";

export { type MaskedEntry, type MaskOptions } from "./mask.js";
export {
  EVICTION_SCORING,
  type EvictionOptions,
  type EvictionRunOptions,
  type EvictionScoring,
  type StrategyCounter,
} from "./options.js";

const decodeOptions = decodeWith(EvictionOptionsCodec, "InvalidOptions", "eviction options");
const decodeRunOptions = decodeWith(EvictionRunOptionsCodec, "InvalidOptions", "eviction run options");

/**
 * One unit written to the index.
 *
 * @example
 * for (const e of eviction.evicted) console.log(`${e.id} (${e.kind}, ${e.tokens} tokens): ${e.summary}`);
 */
export interface EvictedEntry {
  readonly id: string;
  readonly kind: string;
  readonly tokens: number;
  readonly summary: string;
}

/**
 * What a pass did. Only what reached the index left the context.
 *
 * @example
 * const r = await evictUnits(history, options, { index, counter, now: Date.now() })();
 * if (r._tag === "Right" && !r.right.noteFits) console.warn("the target cannot hold the eviction note");
 */
export interface Eviction {
  /** The units the pass ranked, with their token costs and access statistics. */
  readonly segments: readonly MessageSegment[];
  /** Kept messages in conversation order (leading system messages first). */
  readonly kept: readonly Message[];
  readonly evicted: readonly EvictedEntry[];
  /**
   * Outputs masked (see `mask`): each original was written to the index under `id`, and its stub
   * names that id — in `kept`, or inside a unit that then left too (listed in `evicted`, whose
   * entry holds the original output). Empty when masking is off or was not needed.
   */
  readonly masked: readonly MaskedEntry[];
  /**
   * The one note of the next prompt: `evicted` (newest first) plus the entries of the notes of
   * earlier passes found in the messages (those notes leave the prompt), cut to the note budget
   * with "… N more in the journal" ("" when nothing was evicted, now or before).
   */
  readonly note: string;
  /** Units whose summary could not be written (kept in context instead), with the reason. */
  readonly failures: readonly { readonly id: string; readonly reason: string }[];
  /**
   * Units whose id already held a different original in the index (another writer of a shared
   * index): each was written under `writtenAs`, the first free alternative of its `id`, and is
   * listed under it in `evicted` and the note. The other original is untouched.
   */
  readonly disambiguated: readonly { readonly id: string; readonly writtenAs: string }[];
  /** Evicted units with nothing to summarise (empty). */
  readonly skipped: number;
  /**
   * True exactly when the note plus the kept messages fit the target (measured with the counter);
   * false when pinned units alone exceed it, or the note cannot fit.
   */
  readonly budgetMet: boolean;
  /**
   * False when the target cannot hold even the note's reservation (the summary-message overhead
   * plus the note budget): nothing was evicted, since a note that does not fit cannot list what left.
   */
  readonly noteFits: boolean;
  /** Tokens reserved for the note (its message overhead plus the note budget actually used). */
  readonly reservedTokens: number;
  /** The signal fired during the pass (what was written by then is reported). */
  readonly aborted: boolean;
  /** What became of the task (see `pinTask`): pinned, too large to pin, or not pinned. */
  readonly task: TaskPin;
  /**
   * Where the note goes in `kept` (give it to {@link withNote}): right after the pinned task, so
   * the task stays the message the conversation opens with; else right after the system messages.
   */
  readonly noteAt: number;
}

/**
 * The pass could not run: the one failure shape of `@cc/validate` — `InvalidOptions` (subjects
 * "eviction options", "eviction run options", or those of `hierarchicalCompact`), or
 * `InvalidInput` when the segments built from the messages are refused.
 *
 * @example
 * // evictUnits(m, { ...options, targetTokns: 10 }, run) → Left({ _tag: "InvalidOptions", subject: "eviction options", … "did you mean targetTokens?" })
 */
export type InvalidEviction = InvalidOptions | InvalidInput;

/**
 * The share of a note's tokens its entry lines may take when it has a fact line (the rest goes
 * to the facts): an entry costs its 33-character id and a summary, while the fact line lists the
 * literals of every unit that left (a quarter is a choice made before measuring, not tuned); the
 * newest entries still name ids to expand, and every original stays in the index for `search`.
 */
export const NOTE_ENTRY_SHARE = 0.25;

/** Prefix of the note that lists evicted entries. */
export const EVICTION_NOTE_PREFIX = "Evicted to the journal (search or expand by id to bring one back):";

/**
 * The note listing evicted entries, cut to `maxTokens` with a count of what did not fit (plus
 * `unlisted`: entries an earlier note already counted without listing them).
 *
 * @example evictionNote([{ id: "m3", kind: "tool:bash", tokens: 812, summary: "pytest: 2 failed" }], 200, counter)
 * // "Evicted to the journal (…):\n- m3 (tool:bash, 812 tokens): pytest: 2 failed"
 */
export function evictionNote(
  evicted: readonly EvictedEntry[],
  maxTokens: number,
  counter: Pick<StrategyCounter, "count">,
  unlisted = 0,
): string {
  let note = EVICTION_NOTE_PREFIX;
  for (let i = 0; i < evicted.length; i++) {
    const e = evicted[i]!;
    const line = `\n- ${e.id} (${e.kind}, ${e.tokens} tokens): ${e.summary}`;
    const rest = evicted.length - i - 1 + unlisted;
    const tail = rest > 0 ? `\n… ${rest} more` : "";
    if (counter.count(note + line + tail) > maxTokens)
      return `${note}\n… ${evicted.length - i + unlisted} more in the journal`;
    note += line;
  }
  return unlisted > 0 ? `${note}\n… ${unlisted} more in the journal` : note;
}

/** The entries an eviction note lists and the count of those it names only by number. */
export interface ParsedNote {
  readonly entries: readonly EvictedEntry[];
  readonly unlisted: number;
  /** The note's fact line (see `noteFacts`), newest first; absent when it has none. */
  readonly facts?: readonly string[];
}

/** How the fact line of a note begins (the line right after {@link EVICTION_NOTE_PREFIX}). */
export const NOTE_FACTS_PREFIX = "Facts in the journal (newest first):";

/**
 * `note` (an {@link evictionNote}) with a fact line right after its first line: the literals of
 * what left the prompt, newest first — `fresh`, then `earlier` (an earlier note's line) — none of
 * `known`, within what `maxTokens` leaves after the note (pure apart from the counter). The result
 * never exceeds `maxTokens` when `note` alone does not; `note` unchanged when no fact fits.
 *
 * @example withFactLine(evictionNote([{ id: "u3", kind: "tool:bash", tokens: 812, summary: "grep -n" }], 100, counter), ["1262", "_rstrip_inplace"], [], new Set(), 200, counter)
 * // "Evicted to the journal (…):\nFacts in the journal (newest first): 1262 _rstrip_inplace\n- u3 …"
 */
export function withFactLine(
  note: string,
  fresh: readonly string[],
  earlier: readonly string[],
  known: ReadonlySet<string>,
  maxTokens: number,
  counter: Pick<StrategyCounter, "count">,
): string {
  const cut = note.indexOf("\n");
  const head = cut < 0 ? note : note.slice(0, cut);
  const rest = cut < 0 ? "" : note.slice(cut);
  const room = maxTokens - counter.count(note) - counter.count(`\n${NOTE_FACTS_PREFIX}`) - 1;
  let facts = [...factLine(fresh, earlier, known, room, counter.count)];
  const build = (): string => `${head}\n${NOTE_FACTS_PREFIX} ${facts.join(" ")}${rest}`;
  // Counts of joined texts are not sums of their parts: drop facts until the whole really fits.
  while (facts.length > 0 && counter.count(build()) > maxTokens)
    facts = facts.slice(0, -Math.max(1, Math.ceil(facts.length / 16)));
  return facts.length === 0 ? note : build();
}

const ENTRY_LINE = /^- (\S+) \((.*?), (\d+) tokens\): ?(.*)$/;
const MORE_LINE = /^… (\d+) more(?: in the journal)?$/;

/** Prefix of the `id` that seals a note (see {@link sealedNote}). */
export const NOTE_ID_PREFIX = "cc-note:";

/**
 * The seal of a note's text under `key`: {@link NOTE_ID_PREFIX} and the HMAC-SHA256 (hex) of the
 * text keyed by `key`. Without the key it cannot be made, and it names one exact text.
 *
 * @example noteId("k3y", "Summary of the earlier conversation …") // "cc-note:5f0c…"
 */
export function noteId(key: string, text: string): string {
  return `${NOTE_ID_PREFIX}${createHmac("sha256", key).update(text).digest("hex")}`;
}

/**
 * The summary message that carries `note`, sealed with `key`: its `id` is {@link noteId} of its
 * text. The seal lives outside the text, in message metadata a participant of the conversation
 * cannot type, so a message that only reads like a note (a copy of one, a prefix, some of its
 * lines) is never taken for one. Without a key the message is unsealed (never recognised later).
 *
 * @example sealedNote(eviction.note, key).id?.startsWith(NOTE_ID_PREFIX) // true
 */
export function sealedNote(note: string, key: string | undefined): UserMessage {
  const m = summaryMessage(note);
  return key === undefined ? m : { ...m, id: noteId(key, m.content) };
}

/**
 * Whether `message` is a note sealed with `key` (a user message whose `id` is the seal of its
 * exact text); always false without a key.
 *
 * @example isSealedNote(sealedNote(eviction.note, key), key) // true
 * isSealedNote({ role: "user", content: sealedNote(eviction.note, key).content }, key) // false: a copy of the text
 */
export function isSealedNote(message: Message, key: string | undefined): boolean {
  return (
    key !== undefined &&
    message.role === "user" &&
    message.id !== undefined &&
    message.id === noteId(key, message.content)
  );
}

/**
 * The eviction note a message carries (a note sealed with `key` whose text starts with
 * {@link EVICTION_NOTE_PREFIX}), parsed; `undefined` for any other message — including one that
 * has a note's text but not its seal.
 *
 * @example parseEvictionNote(sealedNote(evictionNote(eviction.evicted, 300, counter), key), key)?.entries.map((e) => e.id)
 */
export function parseEvictionNote(message: Message, key: string | undefined): ParsedNote | undefined {
  if (!isSealedNote(message, key) || !message.content.startsWith(SUMMARY_PREFIX + EVICTION_NOTE_PREFIX))
    return undefined;
  const lines = message.content.slice(SUMMARY_PREFIX.length + EVICTION_NOTE_PREFIX.length).split("\n");
  const entries: EvictedEntry[] = [];
  let unlisted = 0;
  let facts: string[] | undefined;
  for (const line of lines) {
    if (entries.length === 0 && facts === undefined && line.startsWith(`${NOTE_FACTS_PREFIX} `)) {
      facts = line
        .slice(NOTE_FACTS_PREFIX.length + 1)
        .split(" ")
        .filter((f) => f !== "");
      continue;
    }
    const entry = ENTRY_LINE.exec(line);
    const more = MORE_LINE.exec(line);
    if (entry !== null) entries.push({ id: entry[1]!, kind: entry[2]!, tokens: Number(entry[3]), summary: entry[4]! });
    else if (more !== null) unlisted += Number(more[1]);
    else if (entries.length > 0 && line !== "") {
      const last = entries[entries.length - 1]!;
      entries[entries.length - 1] = { ...last, summary: `${last.summary}\n${line}` };
    }
  }
  return facts === undefined ? { entries, unlisted } : { entries, unlisted, facts };
}

/**
 * `messages` with the note placed at `noteAt` (an eviction's `noteAt`: right after its pinned
 * task), else after the leading system messages, as a summary message sealed with `key` (see
 * {@link sealedNote}); unchanged when the note is "".
 *
 * @example
 * const next = withNote(eviction.kept, eviction.note, key); // system messages, the note, the kept messages
 */
export function withNote(
  messages: readonly Message[],
  note: string,
  key?: string,
  noteAt?: number,
): readonly Message[] {
  if (note === "") return messages;
  const at =
    noteAt !== undefined && Number.isSafeInteger(noteAt) && noteAt >= 0 && noteAt <= messages.length
      ? noteAt
      : leadingSystemCount(messages);
  return [...messages.slice(0, at), sealedNote(note, key), ...messages.slice(at)];
}

/** The fields of an override that are set (`undefined` leaves the pass's setting in place). */
function definedFields(o: EvictionScoring | undefined): EvictionScoring {
  return o === undefined ? {} : Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** One line for a unit that could not be written: the failure's tag and what it says. */
function describeFailure(e: SegmentFailure): string {
  switch (e._tag) {
    case "SummarizeFailed":
    case "InvalidSummary":
      return `${e._tag} ${e.message}`;
    case "WriteFailed":
      return `${e._tag} ${e.error._tag === "WriterThrew" ? e.error.message : JSON.stringify(e.error.error)}`;
    case "DuplicateId":
      return `${e._tag} (first at ${e.firstPosition})`;
    case "Aborted":
      return e._tag;
  }
}

/**
 * Where the verbatim tail begins: `safeSplit(source, preserveLast)` when the system prefix, that
 * tail and the largest note this pass could write fit `targetTokens`; otherwise the first later
 * safe boundary that fits, never past the start of the last step (see `planTail`).
 */
function fittingTail(
  source: readonly Message[],
  settings: EvictionOptions,
  counter: EvictionRunOptions["counter"],
  foldedEntries: number,
  task: TaskPin,
): number {
  const system = [
    ...source.slice(0, leadingSystemCount(source)),
    ...(task._tag === "Pinned" ? [source[task.index]!] : []),
  ];
  const shortest = counter.count(`${EVICTION_NOTE_PREFIX}\n… ${source.length + foldedEntries} more in the journal`);
  const noteTokens = Math.max(shortest, Math.min(settings.noteTokens, Math.floor(settings.targetTokens / 4)));
  const reserved = counter.countMessages([summaryMessage("")]) + noteTokens;
  return planTail(
    source,
    settings.preserveLast,
    (split) => counter.countMessages([...system, ...source.slice(split)]) + reserved <= settings.targetTokens,
  ).split;
}

/** Where the note goes in `kept`: right after the pinned task, else after the system messages. */
function noteAfterTask(kept: readonly Message[], source: readonly Message[], task: TaskPin): number {
  const pinnedAt = task._tag === "Pinned" ? kept.indexOf(source[task.index]!) : -1;
  return pinnedAt >= 0 ? pinnedAt + 1 : leadingSystemCount(kept);
}

/**
 * Runs one eviction pass. Never rejects: a summariser or index failure keeps its unit in context
 * and is listed in `failures`. `Left` only for invalid options (closed codecs: an unknown field
 * gets a "did you mean").
 *
 * @example
 * const r = await evictUnits(history, { targetTokens: 8000, preserveLast: 6, namespace: "run-1", noteTokens: 300, concurrency: 4 }, { index, counter, now: Date.now() })();
 */
export function evictUnits(
  messages: readonly Message[],
  settings: EvictionOptions,
  deps: EvictionRunOptions,
  signal?: AbortSignal,
): TaskEither<InvalidEviction, Eviction> {
  return async () => {
    const checked = decodeOptions(settings);
    if (E.isLeft(checked)) return checked;
    const checkedRun = decodeRunOptions(deps);
    if (E.isLeft(checkedRun)) return checkedRun;
    const prefix = settings.idPrefix ?? "";
    // The notes of earlier passes leave the messages and are folded into this pass's note, so the
    // prompt always holds one note naming every evicted id (never a note evicted into the index).
    // Only a note sealed with this conversation's key is one: text alone proves nothing.
    const earlier = messages.map((m) => parseEvictionNote(m, deps.noteKey));
    const folded = earlier.flatMap((n) => n?.entries ?? []);
    const foldedUnlisted = earlier.reduce((sum, n) => sum + (n?.unlisted ?? 0), 0);
    const foldedFacts = earlier.flatMap((n) => n?.facts ?? []);
    const hadNotes = earlier.some((n) => n !== undefined);
    let source = hadNotes ? messages.filter((_, i) => earlier[i] === undefined) : messages;
    // preserveLast is the longest verbatim tail: when the system prefix, that tail and the note
    // cannot fit the target, the tail shrinks over safe boundaries (never orphaning a tool result)
    // down to the last step, so older units can go instead of the budget being missed.
    const base = deps.counter.countMessages([]);
    // The task is found in the messages as given: an earlier note right after the system messages
    // means the task was compacted before (taskIndex stops there), so no later message takes its place.
    const found = planTaskPin(
      messages,
      { enabled: settings.pinTask ?? false, targetTokens: settings.targetTokens },
      (i) => deps.counter.countMessages([messages[i]!]) - base,
    );
    let task: TaskPin =
      found._tag === "NotPinned"
        ? found
        : { ...found, index: found.index - earlier.slice(0, found.index).filter((n) => n !== undefined).length };
    // An id another original already holds (a shared index) costs the unit only that id.
    const writer = indexWriter(deps.index, { namespace: settings.namespace, idConflicts: "disambiguate" });
    // A task too large to pin whole is pinned as an excerpt (its opening, a pointer, the key facts
    // of the rest) once the whole task is in the index; if it cannot be written it is compacted
    // like the rest, as before.
    const excerptFailures: { readonly id: string; readonly reason: string }[] = [];
    const rewrite = settings.rewrite !== false;
    if (task._tag === "TooLarge" && rewrite) {
      const excerpted = await excerptTask(source, task, {
        counter: deps.counter,
        writer,
        now: deps.now,
        idPrefix: prefix,
        ...(signal === undefined ? {} : { signal }),
      });
      if (excerpted._tag === "Failed") excerptFailures.push(excerpted.failure);
      else if (excerpted._tag === "Excerpted") {
        source = excerpted.messages;
        task = excerpted.task;
      }
    }
    const preserveLast =
      source.length - fittingTail(source, settings, deps.counter, folded.length + foldedUnlisted, task);
    const pinIndex = task._tag === "Pinned" ? { pinIndex: task.index } : {};
    // Relevance to the working set costs a scan of every unit: only when it is scored.
    const relevanceWeight = settings.scoring?.relevanceWeight ?? EVICTION_SCORING.relevanceWeight ?? 0;
    const relevance =
      relevanceWeight > 0 ? { relevanceWindow: settings.relevanceWindow ?? DEFAULT_RELEVANCE_WINDOW } : {};
    const segments = buildSegments(source, {
      counter: deps.counter,
      now: deps.now,
      preserveLast,
      ...pinIndex,
      ...relevance,
    }).map((s) => (prefix === "" ? s : { ...s, id: `${prefix}${s.id}` }));
    // Segment costs exclude the request's base cost; the note is one more message of at most
    // noteTokens — never more than a quarter of the target, so small budgets still get a note.
    // The note is never shorter than its prefix plus a count of what left, so that much is always reserved.
    const shortest = deps.counter.count(
      `${EVICTION_NOTE_PREFIX}\n… ${segments.length + folded.length + foldedUnlisted} more in the journal`,
    );
    const noteTokens = Math.max(shortest, Math.min(settings.noteTokens, Math.floor(settings.targetTokens / 4)));
    const reserved = deps.counter.countMessages([summaryMessage("")]) + noteTokens;
    const maxTokens = settings.targetTokens - reserved;
    // A target of 0 is not "no budget": when the note cannot fit, say so instead of evicting nothing silently.
    if (maxTokens <= 0) {
      return E.right({
        segments,
        kept: messages,
        evicted: [],
        masked: [],
        note: "",
        failures: [],
        disambiguated: [],
        skipped: 0,
        budgetMet: false,
        noteFits: false,
        reservedTokens: reserved,
        aborted: false,
        task: { _tag: "NotPinned" },
        noteAt: leadingSystemCount(messages),
      });
    }
    const scoring = { ...EVICTION_SCORING, ...definedFields(settings.scoring), now: () => deps.now };
    // What masking and clipping both run with (each adds where the task is and its goal).
    const outputRun = {
      counter: deps.counter,
      writer,
      scoring,
      now: deps.now,
      idPrefix: prefix,
      ...(signal === undefined ? {} : { signal }),
    };
    // Fact-keeping masks come first: the least important outputs become stubs (call kept, key
    // facts kept, original in the index); whole units leave only when that is not enough. With
    // earlier notes a note is written anyway, so masking aims below its reservation.
    let masking = {
      messages: source,
      masked: [] as readonly MaskedEntry[],
      failures: [] as readonly { readonly id: string; readonly reason: string }[],
    };
    let units = segments;
    if (settings.mask !== undefined && settings.mask !== false) {
      const taskAt = task._tag === "NotPinned" ? leadingSystemCount(source) - 1 : task.index;
      const goal = hadNotes ? maxTokens : settings.targetTokens;
      masking = await maskOutputs(source, segments, settings.mask, { ...outputRun, taskAt, goal });
      if (masking.masked.length > 0) {
        units = buildSegments(masking.messages, {
          counter: deps.counter,
          now: deps.now,
          preserveLast,
          ...pinIndex,
          ...relevance,
        }).map((s) => (prefix === "" ? s : { ...s, id: `${prefix}${s.id}` }));
        if (!hadNotes && deps.counter.countMessages(masking.messages) <= settings.targetTokens) {
          return E.right({
            segments: units,
            kept: masking.messages,
            evicted: [],
            masked: masking.masked,
            note: "",
            failures: [...excerptFailures, ...masking.failures],
            disambiguated: [],
            skipped: 0,
            budgetMet: true,
            noteFits: true,
            reservedTokens: reserved,
            aborted: signal?.aborted === true,
            task,
            noteAt: noteAfterTask(masking.messages, source, task),
          });
        }
      }
    }
    // A unit that leaves with a stub in it is stored with the original output, so its entry
    // expands to what the conversation really held (and searches like it).
    // The choice of what leaves reads costs, kinds and times, never the content: the originals are
    // read back only for the units that leave, as they are summarised and written.
    const originals = new Map(masking.masked.map((m) => [m.id, source[m.position]!.content]));
    const restore = restoringOriginals(originals, async (id) => {
      const r = await deps.index.expand(id, settings.namespace)();
      return E.isRight(r) ? r.right?.content : undefined;
    });
    const summarize = extractiveSummarizer<MessageSegment>();
    // The newest units leave only when the older ones are not enough, and then only they leave.
    const r = await hierarchicalCompact(protectNewest(units, maxTokens, scoring), {
      target: { maxTokens },
      scoring,
      summarize: async (segment, context) => summarize(await restore(segment), context),
      writer: {
        writeSummary: (segment, summary, context) => async () =>
          writer.writeSummary(await restore(segment), summary, context)(),
      },
      concurrency: settings.concurrency,
      ...(signal === undefined ? {} : { signal }),
    })();
    if (E.isLeft(r)) return r;
    const res = r.right;
    const gone = new Set([...res.written, ...res.skipped].map((o) => o.segment.id));
    // The note: its entries, and with `noteFacts` a fact line — the literals of the units that
    // left (newest first), then of masked outputs, then of earlier notes' lines — that the kept
    // messages do not already hold, within the entries' leftover of the note's tokens.
    const noteOf = async (
      listed: readonly EvictedEntry[],
      unlisted: number,
      earlierFacts: readonly string[],
    ): Promise<string> => {
      if (settings.noteFacts !== true) return evictionNote(listed, noteTokens, deps.counter, unlisted);
      // The entries' share, but never less than one entry line when one fits the whole note: the
      // note always names an id to expand when it can.
      const shared = evictionNote(listed, Math.floor(noteTokens * NOTE_ENTRY_SHARE), deps.counter, unlisted);
      const one =
        listed.length === 0
          ? shared
          : evictionNote(listed.slice(0, 1), noteTokens, deps.counter, unlisted + listed.length - 1);
      const entriesNote =
        shared.includes("\n- ") || !one.includes("\n- ") || deps.counter.count(one) > noteTokens ? shared : one;
      const left = [...res.written].sort((a, b) => (b.segment.turn ?? 0) - (a.segment.turn ?? 0));
      const fresh: string[] = [];
      for (const w of left) fresh.push(...journalFacts((await restore(w.segment)).content));
      for (const m of masking.masked) fresh.push(...journalFacts(source[m.position]!.content));
      const known = new Set(units.filter((s) => !gone.has(s.id)).flatMap((s) => journalFacts(s.content)));
      return withFactLine(entriesNote, fresh, earlierFacts, known, noteTokens, deps.counter);
    };
    const evicted = res.written.map((w): EvictedEntry => ({
      id: w.id,
      kind: w.segment.kind ?? "segment",
      tokens: w.segment.tokenCost ?? 0,
      summary: w.summary,
    }));
    const unclipped = units.filter((s) => !gone.has(s.id)).flatMap((s) => s.unit.messages);
    // Newest first, so a cut drops the oldest entries (still counted, and in the journal).
    const newIds = new Set(evicted.map((e) => e.id));
    const listed = [
      ...evicted,
      ...folded.filter((e, i) => !newIds.has(e.id) && folded.findIndex((o) => o.id === e.id) === i),
    ];
    const note = listed.length === 0 && foldedUnlisted === 0 ? "" : await noteOf(listed, foldedUnlisted, foldedFacts);
    // budgetMet is measured on what the caller will send, never assumed from the per-unit costs
    // (nor from the compaction's inner target, which reserves room for a note that may not be needed).
    const noteAt = noteAfterTask(unclipped, source, task);
    // Still over the target (a verbatim tail of outputs larger than the budget): the largest
    // outputs, the newest included, are clipped to stubs with their opening and key facts.
    const sent = deps.counter.countMessages(withNote(unclipped, note, deps.noteKey, noteAt));
    let clipped: {
      readonly messages: readonly Message[];
      readonly masked: readonly MaskedEntry[];
      readonly failures: readonly { readonly id: string; readonly reason: string }[];
    } = {
      messages: unclipped,
      masked: [],
      failures: [],
    };
    if (rewrite && sent > settings.targetTokens && res.aborted !== true) {
      const noteCost = sent - deps.counter.countMessages(unclipped);
      const taskAt =
        task._tag === "Pinned" ? unclipped.indexOf(source[task.index]!) : leadingSystemCount(unclipped) - 1;
      const c = await clipOutputs(unclipped, { ...outputRun, taskAt, goal: settings.targetTokens - noteCost });
      // Positions in the pass's messages, like the other masked entries.
      clipped = {
        ...c,
        masked: c.masked.map((m) => ({ ...m, position: masking.messages.indexOf(unclipped[m.position]!) })),
      };
    }
    const kept = clipped.messages;
    const fits = deps.counter.countMessages(withNote(kept, note, deps.noteKey, noteAt)) <= settings.targetTokens;
    return E.right({
      segments: units,
      kept,
      evicted,
      masked: [...masking.masked, ...clipped.masked],
      note,
      failures: [
        ...excerptFailures,
        ...masking.failures,
        ...clipped.failures,
        ...res.failed.map((f) => ({ id: f.segment.id, reason: describeFailure(f.error) })),
      ],
      disambiguated: res.written
        .filter((w) => w.id !== w.segment.id)
        .map((w) => ({ id: w.segment.id, writtenAs: w.id })),
      skipped: res.skipped.length,
      budgetMet: fits,
      noteFits: true,
      reservedTokens: reserved,
      aborted: res.aborted,
      task,
      noteAt,
    });
  };
}
