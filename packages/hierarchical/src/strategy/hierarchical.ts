/**
 * The `hierarchical` history strategy: group messages into units that keep tool calls with their
 * results, pin the leading system messages and the preserved tail, evict the lowest-importance
 * units with `hierarchicalCompact` into a `SegmentIndex`, and return the kept messages plus a note
 * listing what went to the index (searchable and expandable by id).
 *
 * @module strategy/hierarchical
 */
import type { Segment } from "@cc/importance";
import { createLcmCompactor, leadingSystemCount, safeSplit, summaryMessage, type CompactError, type HistoryStrategy, type Message } from "@cc/lcm";
import * as E from "fp-ts/Either";
import { hierarchicalCompact } from "../compact.js";
import type { SegmentIndex } from "../search/index.js";
import { extractiveSummarizer } from "../summarize.js";
import { indexWriter } from "../writer.js";

/** Counts tokens of text and of chat messages (structurally a `TokenCounter` of @cc/tokens). */
export interface StrategyCounter {
  count(text: string): number;
  countMessages(messages: readonly Message[]): number;
}

/** The weighted estimate the lcm compactor uses by default, as a {@link StrategyCounter}. */
export function defaultStrategyCounter(): StrategyCounter {
  const lcm = createLcmCompactor();
  const empty = lcm.estimateUsage([{ role: "user", content: "" }]);
  return {
    count: (text) => Math.max(0, lcm.estimateUsage([{ role: "user", content: text }]) - empty),
    countMessages: (messages) => lcm.estimateUsage(messages),
  };
}

/** Dependencies of the hierarchical strategy. */
export interface HierarchicalStrategyDeps {
  readonly index: SegmentIndex;
  /** Default: the weighted estimate of @cc/tokens ({@link defaultStrategyCounter}). */
  readonly counter?: StrategyCounter;
  /** Clock read once per compaction. Default `Date.now`. */
  readonly now?: () => number;
}

/** Settings (already validated). */
export interface HierarchicalStrategySettings {
  readonly preserveLast: number;
  readonly namespace: string;
  readonly noteTokens: number;
  readonly concurrency: number;
}

interface UnitSegment extends Segment {
  readonly messages: readonly Message[];
}

/** Splits messages into units: one message, or an assistant message with its tool results. */
export function groupUnits(messages: readonly Message[]): readonly (readonly [number, number])[] {
  const out: [number, number][] = [];
  let start = 0;
  let calls = new Set<string>();
  messages.forEach((m, i) => {
    if (i > 0 && !(m.role === "tool" && calls.has(m.toolCallId))) {
      out.push([start, i]);
      start = i;
      calls = new Set();
    }
    if (m.role === "assistant") calls = new Set((m.toolCalls ?? []).map((c) => c.id));
  });
  if (messages.length > 0) out.push([start, messages.length]);
  return out;
}

const STEP_MS = 60_000;

/** The note listing evicted entries, within `maxTokens` (counted with `counter`). */
function note(evicted: readonly { readonly id: string; readonly summary: string }[], maxTokens: number, counter: StrategyCounter): string {
  let text = "Evicted to the journal (search or expand by id to bring one back):";
  for (let i = 0; i < evicted.length; i++) {
    const line = `\n- ${evicted[i]!.id}: ${evicted[i]!.summary}`;
    if (counter.count(text + line) > maxTokens) return `${text}\n… ${evicted.length - i} more in the journal`;
    text += line;
  }
  return text;
}

/** Creates the hierarchical {@link HistoryStrategy}. */
export function createHierarchicalStrategy(deps: HierarchicalStrategyDeps, settings: HierarchicalStrategySettings): HistoryStrategy {
  const counter = deps.counter ?? defaultStrategyCounter();
  const clock = deps.now ?? Date.now;
  return {
    compact: (messages, _model, maxTokens, signal) => async () => {
      if (!Number.isSafeInteger(maxTokens) || maxTokens <= 0) return E.left<CompactError, never>({ _tag: "InvalidOptions", problems: [`maxTokens: expected a positive integer, got ${String(maxTokens)}`] });
      if (signal?.aborted === true) return E.left({ _tag: "CompactionAborted" });
      const now = clock();
      const sys = leadingSystemCount(messages);
      const tailFrom = safeSplit(messages, settings.preserveLast);
      const base = counter.countMessages([]);
      const units = groupUnits(messages);
      const segments: UnitSegment[] = units.map(([a, b], i) => {
        const part = messages.slice(a, b);
        return {
          id: `m${a}`,
          content: part.map((m) => (m.role === "assistant" ? [m.content, ...(m.toolCalls ?? []).map((c) => `[call ${c.name}] ${c.arguments}`)].join("\n") : m.content)).join("\n"),
          tokenCost: Math.max(0, counter.countMessages(part) - base),
          createdAt: part[0]?.timestamp ?? now - STEP_MS * (units.length - 1 - i),
          pinned: b <= sys || a >= tailFrom,
          kind: part[0]?.role ?? "message",
          messages: part,
        };
      });
      const noteOverhead = counter.countMessages([summaryMessage("")]) - base;
      const budget = Math.max(0, maxTokens - base - noteOverhead - settings.noteTokens);
      const r = await hierarchicalCompact(segments, { maxTokens: budget }, { now: () => now }, extractiveSummarizer(), indexWriter(deps.index, { namespace: settings.namespace }), {
        concurrency: settings.concurrency,
        ...(signal === undefined ? {} : { signal }),
      })();
      if (E.isLeft(r)) return E.left({ _tag: "InvalidOptions", problems: [r.left._tag === "InvalidRunOptions" ? r.left.errors.join("; ") : r.left.message] });
      if (r.right.aborted) return E.left({ _tag: "CompactionAborted" });
      // Only what reached the index leaves the context; a failed write keeps its unit.
      const gone = new Set([...r.right.written, ...r.right.skipped].map((o) => o.segment.id));
      const kept = segments.filter((s) => !gone.has(s.id)).flatMap((s) => s.messages);
      const summary = r.right.written.length === 0 ? "" : note(r.right.written.map((w) => ({ id: w.segment.id, summary: w.summary })), settings.noteTokens, counter);
      return E.right({ messages: kept, summary });
    },
  };
}
