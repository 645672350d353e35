/**
 * The one way to run a turn: `createContextManager` takes every effect and setting at
 * construction and compacts a conversation to its budget with the chosen strategy. The CLI, the
 * demo, the benchmarks and the framework adapters all run turns through it.
 *
 * Two facades over one implementation: `compact` returns a plain `Promise` (an expected failure
 * rejects with a {@link ContextManagerError} carrying the typed error), `compactTE` returns an
 * fp-ts `TaskEither` that never rejects.
 *
 * @module manager
 */
import { evictUnits, memoryIndex, withNote, type EvictedEntry, type SearchHit } from "@cc/hierarchical";
import { createLcmCompactor, describeWarnings, nextContext, offlineProvider, type Level } from "@cc/lcm";
import { describeRejection } from "@cc/lcm/internal";
import { decodeMessages, type Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import { stagedIndex } from "./staged-index.js";
import { invalid, type InvalidInput, type InvalidOptions } from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { decodeContextManagerOptions, type ContextManagerOptions } from "./options.js";
import type { StrategyName } from "./strategy.js";

/** Something that did not go to plan in a turn that still produced a prompt. */
export type TurnWarning =
  /**
   * No LLM summary was accepted: the older part was cut by deterministic truncation. `attempts`
   * says why each level was rejected; `providerFailed` is true when the provider itself failed.
   */
  | { readonly _tag: "SummaryFellToTruncation"; readonly attempts: readonly string[]; readonly providerFailed: boolean }
  /** A unit chosen for eviction stayed in context because its summary could not be written. */
  | { readonly _tag: "UnitKept"; readonly id: string; readonly reason: string }
  /** The prompt is still over `maxTokens` (pinned system messages and the last step alone exceed it). */
  | { readonly _tag: "BudgetNotMet"; readonly tokens: number; readonly maxTokens: number; readonly reason: string }
  /** The budget is too small to hold the note that lists evicted units: nothing was evicted. */
  | { readonly _tag: "NoteDoesNotFit"; readonly targetTokens: number; readonly reservedTokens: number }
  /** The alert sink threw, rejected or did not settle in time (the turn went on). */
  | { readonly _tag: "AlertSinkFailed"; readonly message: string };

/** What one turn did. `messages` is the next prompt. */
export interface TurnResult {
  /** The next prompt: system messages, the summary or note (if any), kept messages, the verbatim tail. */
  readonly messages: readonly Message[];
  /** True when the prompt was changed. */
  readonly compacted: boolean;
  readonly strategy: StrategyName;
  /** Tokens of the input and of `messages`, by the manager's counter. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly maxTokens: number;
  /** `tokensAfter <= maxTokens`, judged with the manager's counter (exact by default). */
  readonly budgetMet: boolean;
  /** The units evicted in this turn (`hierarchical`): index id, kind, tokens, summary; each id expands back. */
  readonly evicted: readonly EvictedEntry[];
  /** The summary or note added to the prompt ("" when none). */
  readonly summary: string;
  /** `lcm`: the escalation level that produced the summary. */
  readonly level?: Level;
  readonly warnings: readonly TurnWarning[];
}

/**
 * Why a turn produced no prompt. `IndexWriteFailed`: the index refused the turn's batch of
 * evicted units — none of them was written and the history is unchanged; `problems` names the
 * index's error (e.g. `IdConflict: id "u…" in namespace "s1" already holds a different original`
 * when a shared index holds another original under an evicted unit's id).
 */
export type ContextError =
  | InvalidOptions
  | InvalidInput
  | { readonly _tag: "Aborted"; readonly subject: string; readonly problems: readonly [] }
  | { readonly _tag: "IndexWriteFailed"; readonly subject: "index"; readonly problems: readonly string[]; readonly message: string; readonly entries: number };

/** The rejection of the Promise facade: an `Error` that carries the typed {@link ContextError}. */
export class ContextManagerError extends Error {
  /** The typed failure. */
  readonly error: ContextError;
  constructor(error: ContextError) {
    super(error._tag === "Aborted" ? "the turn was aborted" : error.message);
    this.name = "ContextManagerError";
    this.error = error;
  }
}

/** Per-call settings of {@link ContextManager.compact}. */
export interface CompactCallOptions {
  /** Compact even below the threshold. @default false */
  readonly force?: boolean;
  /** This call's budget instead of the manager's `maxTokens`. */
  readonly maxTokens?: number;
  /** Aborts the turn (what was written to the index by then stays there). */
  readonly signal?: AbortSignal;
}

/** A context manager: one conversation's budget, strategy and effects. */
export interface ContextManager {
  /** The decoded options, defaults filled in. */
  readonly options: Readonly<Required<Omit<ContextManagerOptions, "alertSink">>> & Pick<ContextManagerOptions, "alertSink">;
  /**
   * Compacts `history` (our `Message[]`, validated) when it reaches the threshold, or always with
   * `force`. Rejects only with a {@link ContextManagerError}.
   */
  compact(history: readonly unknown[], call?: CompactCallOptions): Promise<TurnResult>;
  /** The same turn as an fp-ts `TaskEither` that never rejects. */
  compactTE(history: readonly unknown[], call?: CompactCallOptions): TaskEither<ContextError, TurnResult>;
  /** Searches the units evicted so far (in this manager's namespace). */
  search(query: string, k?: number): Promise<readonly SearchHit[]>;
  /** The original text of an evicted unit, or `undefined` when the id is unknown. */
  expand(id: string): Promise<string | undefined>;
  /** Tokens of a prompt by the manager's counter. */
  count(messages: readonly Message[]): number;
}

type Resolved = ContextManager["options"];

function resolve(o: ContextManagerOptions): Resolved {
  return {
    maxTokens: o.maxTokens,
    strategy: o.strategy ?? "hierarchical",
    threshold: o.threshold ?? 0.8,
    preserveLast: o.preserveLast ?? 6,
    counter: o.counter ?? tiktokenCounter(),
    provider: o.provider ?? offlineProvider(),
    index: o.index ?? memoryIndex(),
    namespace: o.namespace ?? "default",
    noteTokens: o.noteTokens ?? 512,
    concurrency: o.concurrency ?? 4,
    summaryModel: o.summaryModel ?? "",
    now: o.now ?? Date.now,
    ...(o.alertSink === undefined ? {} : { alertSink: o.alertSink }),
  };
}

const aborted: ContextError = { _tag: "Aborted", subject: "turn", problems: [] };

async function runLcm(history: readonly Message[], maxTokens: number, target: number, o: Resolved, signal: AbortSignal | undefined): Promise<E.Either<ContextError, TurnResult>> {
  const lcm = createLcmCompactor({ provider: o.provider, counter: o.counter, now: o.now, ...(o.alertSink === undefined ? {} : { alertSink: o.alertSink, sessionId: o.namespace }) });
  const r = await lcm.compact(history, { maxTokens: target, preserveLast: o.preserveLast, compactionModel: o.summaryModel }, signal)();
  if (E.isLeft(r)) return E.left(r.left._tag === "CompactionAborted" ? aborted : invalid("InvalidOptions", "compact options", r.left.problems));
  const res = r.right;
  const out = nextContext(res);
  const tokensAfter = o.counter.countMessages(out);
  const warnings: TurnWarning[] = [];
  if (res.level === "truncate") {
    warnings.push({
      _tag: "SummaryFellToTruncation",
      attempts: res.attempts.map((a) => `${a.level}: ${describeRejection(a)}`),
      providerFailed: res.attempts.some((a) => a.rejection?._tag === "ProviderFailed"),
    });
  }
  const resError = describeWarnings(res.warnings);
  if (resError !== undefined && /alert sink/.test(resError)) warnings.push({ _tag: "AlertSinkFailed", message: resError });
  if (tokensAfter > maxTokens) warnings.push({ _tag: "BudgetNotMet", tokens: tokensAfter, maxTokens, reason: resError ?? "the summary and the verbatim tail exceed the budget" });
  return E.right({
    messages: out, compacted: res.level !== "none", strategy: "lcm", tokensBefore: res.originalTokens, tokensAfter, maxTokens,
    budgetMet: tokensAfter <= maxTokens, evicted: [], summary: res.summary, level: res.level, warnings,
  });
}

async function runHierarchical(history: readonly Message[], tokensBefore: number, maxTokens: number, target: number, o: Resolved, signal: AbortSignal | undefined): Promise<E.Either<ContextError, TurnResult>> {
  // The turn's entries wait in a staging index and reach the real one in one batch at its end:
  // an aborted or interrupted turn writes none of them, a finished one all of them.
  const staged = stagedIndex(o.index);
  const r = await evictUnits(
    history,
    { targetTokens: target, preserveLast: o.preserveLast, namespace: o.namespace, noteTokens: o.noteTokens, concurrency: o.concurrency },
    { index: staged, counter: o.counter, now: o.now() },
    signal,
  )();
  if (E.isLeft(r)) return E.left(invalid("InvalidOptions", "eviction settings", r.left.problems));
  if (r.right.aborted || signal?.aborted === true) return E.left(aborted);
  const entries = staged.pending();
  const committed = await staged.commit()();
  if (E.isLeft(committed)) {
    const why = `${committed.left._tag}${"message" in committed.left ? `: ${String(committed.left.message)}` : ""}`;
    return E.left({ _tag: "IndexWriteFailed", subject: "index", problems: [why], message: `the index refused the turn's ${entries} evicted units (none was written): ${why}`, entries });
  }
  const ev = r.right;
  const out = withNote(ev.kept, ev.note);
  const tokensAfter = o.counter.countMessages(out);
  const warnings: TurnWarning[] = ev.failures.map((f) => ({ _tag: "UnitKept", id: f.id, reason: f.reason }));
  if (ev.noteFits === false) warnings.push({ _tag: "NoteDoesNotFit", targetTokens: target, reservedTokens: ev.reservedTokens });
  if (tokensAfter > maxTokens) warnings.push({ _tag: "BudgetNotMet", tokens: tokensAfter, maxTokens, reason: "pinned system messages and the verbatim tail alone exceed the budget" });
  return E.right({
    messages: out, compacted: ev.evicted.length > 0, strategy: "hierarchical", tokensBefore, tokensAfter, maxTokens,
    budgetMet: tokensAfter <= maxTokens, evicted: ev.evicted, summary: ev.note, warnings,
  });
}

function build(o: Resolved): ContextManager {
  const count = (messages: readonly Message[]): number => (messages.length === 0 ? 0 : o.counter.countMessages(messages));
  const compactTE = (input: readonly unknown[], call: CompactCallOptions = {}): TaskEither<ContextError, TurnResult> => async () => {
    const decoded = decodeMessages(input);
    if (E.isLeft(decoded)) return decoded;
    const maxTokens = call.maxTokens ?? o.maxTokens;
    if (!Number.isSafeInteger(maxTokens) || maxTokens < 1) return E.left(invalid("InvalidOptions", "compact call options", [`maxTokens: expected a positive integer, got ${String(maxTokens)}`]));
    if (call.signal?.aborted === true) return E.left(aborted);
    const history = decoded.right;
    try {
      const tokensBefore = count(history);
      const target = Math.max(1, Math.floor(o.threshold * maxTokens));
      if (tokensBefore < target && call.force !== true) {
        return E.right({ messages: history, compacted: false, strategy: o.strategy, tokensBefore, tokensAfter: tokensBefore, maxTokens, budgetMet: tokensBefore <= maxTokens, evicted: [], summary: "", warnings: [] });
      }
      return o.strategy === "lcm" ? await runLcm(history, maxTokens, target, o, call.signal) : await runHierarchical(history, tokensBefore, maxTokens, target, o, call.signal);
    } catch (e) {
      // A user-supplied counter, index or clock that throws: reported, never a rejection.
      return E.left(invalid("InvalidInput", "turn", [`a dependency threw: ${e instanceof Error ? e.message : String(e)}`]));
    }
  };
  return {
    options: o,
    compactTE,
    compact: async (history, call) => {
      const r = await compactTE(history, call)();
      if (E.isLeft(r)) throw new ContextManagerError(r.left);
      return r.right;
    },
    search: async (query, k = 5) => {
      const r = await o.index.search(query, { k, namespace: o.namespace })();
      if (E.isLeft(r)) throw new ContextManagerError(invalid("InvalidInput", "search", [`${r.left._tag}`]));
      return r.right;
    },
    expand: async (id) => {
      const r = await o.index.expand(id, o.namespace)();
      if (E.isLeft(r)) throw new ContextManagerError(invalid("InvalidInput", "expand", [`${r.left._tag}`]));
      return r.right?.content;
    },
    count,
  };
}

/**
 * Creates a context manager (fp-ts style): `Left<InvalidOptions>` names every bad option.
 *
 * @example
 * const m = decodeContextManager({ maxTokens: 8000 });
 * if (m._tag === "Right") await m.right.compactTE(history)();
 */
export function decodeContextManager(options: unknown): E.Either<InvalidOptions, ContextManager> {
  const decoded = decodeContextManagerOptions(options);
  return E.isLeft(decoded) ? decoded : E.right(build(resolve(decoded.right)));
}

/**
 * Creates a context manager. Invalid options throw a {@link ContextManagerError} at once (a
 * programming error, reported before any turn); every turn after that fails only as a value.
 *
 * @example
 * const manager = createContextManager({ maxTokens: 8000 });
 * const { messages, budgetMet } = await manager.compact(history);
 */
export function createContextManager(options: ContextManagerOptions): ContextManager {
  const m = decodeContextManager(options);
  if (E.isLeft(m)) throw new ContextManagerError(m.left);
  return m.right;
}
