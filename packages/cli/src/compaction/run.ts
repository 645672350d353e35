/**
 * One compaction of a whole transcript with the chosen strategy — the engine behind `cc-compact`
 * and the agent-loop demo. `lcm` summarises the older prefix by escalation; `hierarchical` evicts
 * the lowest-importance message units into a searchable index and leaves a note of what left.
 *
 * @module compaction/run
 */
import { extractiveSummarizer, hierarchicalCompact, indexWriter, type SegmentIndex } from "@cc/hierarchical";
import {
  createLcmCompactor,
  decodeCompactOptions,
  describeRejection,
  nextContext,
  pressureOf,
  summaryMessage,
  type CompactOptions,
  type ContextUsage,
  type Level,
  type Message,
  type Provider,
} from "@cc/lcm";
import type { TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/Either";
import type { TaskEither } from "fp-ts/TaskEither";
import { buildSegments } from "../segments/build.js";

/** The two strategies an agent can pick by configuration. */
export type StrategyName = "lcm" | "hierarchical";

/** What to do (already validated numbers; {@link decodeRunConfig} validates raw input). */
export interface RunConfig {
  readonly strategy: StrategyName;
  readonly options: CompactOptions;
  /** Compact even below the soft threshold. */
  readonly force: boolean;
  /** Index namespace of evicted entries (hierarchical). */
  readonly namespace: string;
  /** Tokens reserved for the note listing evicted entries (hierarchical). */
  readonly noteTokens: number;
  /** Prefix of index ids (hierarchical), so repeated compactions of one session never collide. Default "". */
  readonly idPrefix?: string;
}

/** Effects a run needs. */
export interface RunDeps {
  readonly counter: TokenCounter;
  readonly now: () => number;
  /** Summariser for lcm levels 1–2 (none → truncation only). */
  readonly provider?: Provider;
  /** Where hierarchical eviction writes (required for `hierarchical`). */
  readonly index?: SegmentIndex;
}

/** One evicted unit as the report shows it. */
export interface EvictedEntry {
  readonly id: string;
  readonly kind: string;
  readonly tokens: number;
  readonly summary: string;
}

/** What a run did. `messages` is the next prompt. */
export interface RunResult {
  readonly strategy: StrategyName;
  readonly messages: readonly Message[];
  readonly usage: ContextUsage;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly compacted: boolean;
  /** lcm: the escalation level reached. */
  readonly level?: Level;
  /** lcm: one line per attempted level. */
  readonly attempts: readonly string[];
  /** hierarchical: what was written to the index. */
  readonly evicted: readonly EvictedEntry[];
  /** hierarchical: units whose summary could not be written (kept in context instead). */
  readonly failures: readonly string[];
  readonly budgetMet: boolean;
  /** Why the run did less than asked (empty when all went to plan). */
  readonly notes: readonly string[];
  /** True when the provider failed and compaction fell to truncation because of it. */
  readonly providerFailed: boolean;
}

/** Why a run could not start. */
export type RunError =
  | { readonly _tag: "InvalidRunConfig"; readonly problems: readonly string[] }
  | { readonly _tag: "RunAborted" };

/** Prefix of the note that lists evicted entries (hierarchical). */
export const EVICTION_NOTE_PREFIX = "Evicted to the journal (search or expand by id to bring one back):";

/** The note message listing evicted entries, cut to `maxTokens`, with a count of what did not fit. */
export function evictionNote(evicted: readonly EvictedEntry[], maxTokens: number, counter: TokenCounter): string {
  let note = EVICTION_NOTE_PREFIX;
  for (let i = 0; i < evicted.length; i++) {
    const e = evicted[i]!;
    const line = `\n- ${e.id} (${e.kind}, ${e.tokens} tokens): ${e.summary}`;
    const rest = evicted.length - i - 1;
    const tail = rest > 0 ? `\n… ${rest} more` : "";
    if (counter.count(note + line + tail) > maxTokens) return `${note}\n… ${evicted.length - i} more in the journal`;
    note += line;
  }
  return note;
}

async function runLcm(messages: readonly Message[], config: RunConfig, deps: RunDeps, usage: ContextUsage, signal?: AbortSignal): Promise<E.Either<RunError, RunResult>> {
  const compactor = createLcmCompactor({ counter: deps.counter, now: deps.now, ...(deps.provider === undefined ? {} : { provider: deps.provider }) });
  const r = await compactor.compact(messages, config.options, signal)();
  if (E.isLeft(r)) return E.left(r.left._tag === "InvalidOptions" ? { _tag: "InvalidRunConfig", problems: r.left.problems } : { _tag: "RunAborted" });
  const res = r.right;
  const out = nextContext(res);
  const providerFailed = deps.provider !== undefined && res.level === "truncate" && res.attempts.some((a) => a.rejection?._tag === "ProviderFailed");
  const tokensAfter = deps.counter.countMessages(out);
  return E.right({
    strategy: "lcm", messages: out, usage, tokensBefore: usage.tokens, tokensAfter, compacted: res.level !== "none",
    level: res.level, attempts: res.attempts.map((a) => `${a.level}: ${describeRejection(a)}`), evicted: [], failures: [],
    budgetMet: tokensAfter <= config.options.maxTokens, notes: res.error === undefined ? [] : [res.error], providerFailed,
  });
}

async function runHierarchical(messages: readonly Message[], config: RunConfig, deps: RunDeps, usage: ContextUsage, signal?: AbortSignal): Promise<E.Either<RunError, RunResult>> {
  if (deps.index === undefined) return E.left({ _tag: "InvalidRunConfig", problems: ["index: the hierarchical strategy needs an index"] });
  const now = deps.now();
  const prefix = config.idPrefix ?? "";
  const segments = buildSegments(messages, { counter: deps.counter, now, preserveLast: config.options.preserveLast }).map((s) => (prefix === "" ? s : { ...s, id: `${prefix}${s.id}` }));
  const overhead = deps.counter.countMessages([]) + deps.counter.countMessages([summaryMessage("")]) - deps.counter.countMessages([]);
  // Evict down to the soft threshold, so the next turns have room before compaction fires again.
  const maxTokens = Math.max(0, Math.floor(config.options.softThreshold * config.options.maxTokens) - overhead - config.noteTokens);
  const r = await hierarchicalCompact(segments, { maxTokens }, { now: () => now }, extractiveSummarizer(), indexWriter(deps.index, { namespace: config.namespace }), {
    concurrency: 4,
    ...(signal === undefined ? {} : { signal }),
  })();
  if (E.isLeft(r)) return E.left({ _tag: "InvalidRunConfig", problems: [r.left._tag === "InvalidRunOptions" ? r.left.errors.join("; ") : r.left.message] });
  const res = r.right;
  // A unit whose summary was not written stays in context: nothing leaves without a way back.
  const notWritten = new Set(res.failed.map((f) => f.segment.id));
  const gone = new Set(res.written.map((w) => w.segment.id).concat(res.skipped.map((s) => s.segment.id)));
  const evicted: EvictedEntry[] = res.written.map((w) => ({ id: w.segment.id, kind: w.segment.kind ?? "segment", tokens: w.segment.tokenCost ?? 0, summary: w.summary }));
  const kept = segments.filter((s) => !gone.has(s.id) || notWritten.has(s.id));
  const note = evicted.length === 0 ? undefined : summaryMessage(evictionNote(evicted, config.noteTokens, deps.counter));
  const sysEnd = kept.findIndex((s) => s.unit.messages[0]?.role !== "system");
  const head = sysEnd === -1 ? kept : kept.slice(0, sysEnd);
  const rest = sysEnd === -1 ? [] : kept.slice(sysEnd);
  const out = [...head.flatMap((s) => s.unit.messages), ...(note === undefined ? [] : [note]), ...rest.flatMap((s) => s.unit.messages)];
  const tokensAfter = deps.counter.countMessages(out);
  const failures = res.failed.map((f) => `${f.segment.id}: ${f.error._tag}${"message" in f.error ? ` ${f.error.message}` : ""}`);
  return E.right({
    strategy: "hierarchical", messages: out, usage, tokensBefore: usage.tokens, tokensAfter, compacted: evicted.length > 0,
    attempts: [], evicted, failures, budgetMet: tokensAfter <= config.options.maxTokens,
    notes: [
      ...(res.skipped.length > 0 ? [`${res.skipped.length} evicted units had nothing to summarise (empty)`] : []),
      ...(res.budgetMet ? [] : ["pinned system messages and the preserved tail alone exceed the budget"]),
    ],
    providerFailed: false,
  });
}

/**
 * Measures pressure and, when it is soft or hard (or `force`), compacts with the configured
 * strategy. Below the soft threshold the messages come back unchanged. Never rejects.
 */
export function runCompaction(messages: readonly Message[], config: RunConfig, deps: RunDeps, signal?: AbortSignal): TaskEither<RunError, RunResult> {
  return async () => {
    const checked = decodeCompactOptions(config.options);
    if (E.isLeft(checked)) return E.left({ _tag: "InvalidRunConfig", problems: checked.left.problems });
    const tokens = messages.length === 0 ? 0 : deps.counter.countMessages(messages);
    const usage = pressureOf(tokens, config.options);
    if (!usage.shouldCompact && !config.force) {
      return E.right({
        strategy: config.strategy, messages, usage, tokensBefore: tokens, tokensAfter: tokens, compacted: false,
        attempts: [], evicted: [], failures: [], budgetMet: tokens <= config.options.maxTokens, notes: ["below the soft threshold: no compaction needed"], providerFailed: false,
      });
    }
    return config.strategy === "lcm" ? runLcm(messages, config, deps, usage, signal) : runHierarchical(messages, config, deps, usage, signal);
  };
}
