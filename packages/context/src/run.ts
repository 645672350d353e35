/**
 * The two strategies as candidates: each runs one compaction and returns the prompt it would
 * send plus a `commit` that makes it final (the `hierarchical` index batch). A policy that
 * discards the candidate simply does not commit: nothing was written, nothing is lost.
 *
 * @module run
 */
import { evictUnits, withNote } from "@cc/hierarchical";
import { createLcmCompactor, describeWarnings, nextContext } from "@cc/lcm";
import { describeRejection } from "@cc/lcm/internal";
import type { Message, Provider, TaskPin } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";
import type { ContextError, Resolved, TurnResult, TurnWarning } from "./types.js";
import { describeIndexError } from "./types.js";
import { stagedIndex } from "./staged-index.js";

/** A compaction computed but not yet final. */
export interface Candidate {
  readonly result: TurnResult;
  /** Makes the compaction final (writes the evicted units to the index in one batch). */
  readonly commit: () => Promise<E.Either<ContextError, void>>;
  /** True when the LLM summariser was called. */
  readonly llmAsked: boolean;
  /** The summariser's error `_tag` when it failed. */
  readonly providerError?: string;
}

/** The error of an aborted turn. */
export const aborted: ContextError = { _tag: "Aborted", subject: "turn", problems: [] };

/** `TaskNotPinned` when the task was too large to pin, `TaskExcerpted` when an excerpt of it was pinned instead. */
function taskWarning(task: TaskPin): TurnWarning[] {
  if (task._tag === "Pinned" && task.excerpt !== undefined)
    return [{ _tag: "TaskExcerpted", id: task.excerpt.id, tokens: task.excerpt.tokens, excerptTokens: task.tokens }];
  return task._tag === "TooLarge" ? [{ _tag: "TaskNotPinned", tokens: task.tokens, limit: task.limit }] : [];
}

const noCommit = async (): Promise<E.Either<ContextError, void>> => E.right(undefined);

/** One `lcm` compaction with `provider` (none: truncation only). */
export async function runLcm(
  history: readonly Message[],
  maxTokens: number,
  target: number,
  o: Resolved,
  provider: Provider | undefined,
  signal: AbortSignal | undefined,
): Promise<E.Either<ContextError, Candidate>> {
  const lcm = createLcmCompactor({
    ...(provider === undefined ? {} : { provider }),
    counter: o.counter,
    now: o.now,
    ...(o.alertSink === undefined ? {} : { alertSink: o.alertSink, sessionId: o.namespace }),
  });
  const r = await lcm.compact(
    history,
    { maxTokens: target, preserveLast: o.preserveLast, compactionModel: o.summaryModel, pinTask: o.pinTask },
    signal,
  )();
  if (E.isLeft(r)) return E.left(r.left._tag === "CompactionAborted" ? aborted : r.left);
  const res = r.right;
  const out = nextContext(res);
  const tokensAfter = o.counter.countMessages(out);
  const warnings: TurnWarning[] = taskWarning(res.task);
  let providerError: string | undefined;
  for (const a of res.attempts)
    if (a.rejection?._tag === "ProviderFailed" && providerError === undefined) providerError = a.rejection.error._tag;
  if (res.level === "truncate") {
    warnings.push({
      _tag: "SummaryFellToTruncation",
      attempts: res.attempts.map((a) => `${a.level}: ${describeRejection(a)}`),
      providerFailed: providerError !== undefined,
    });
  }
  const resError = describeWarnings(res.warnings);
  if (resError !== undefined && /alert sink/.test(resError))
    warnings.push({ _tag: "AlertSinkFailed", message: resError });
  if (tokensAfter > maxTokens)
    warnings.push({
      _tag: "BudgetNotMet",
      tokens: tokensAfter,
      maxTokens,
      reason: resError ?? "the summary and the verbatim tail exceed the budget",
    });
  const llmAsked = provider !== undefined && res.attempts.some((a) => a.level !== "truncate");
  return E.right({
    result: {
      messages: out,
      compacted: res.level !== "none",
      strategy: "lcm",
      tokensBefore: res.originalTokens,
      tokensAfter,
      maxTokens,
      budgetMet: tokensAfter <= maxTokens,
      evicted: [],
      masked: [],
      recalled: [],
      summary: res.summary,
      level: res.level,
      warnings,
    },
    commit: noCommit,
    llmAsked,
    ...(providerError === undefined ? {} : { providerError }),
  });
}

/** One `hierarchical` compaction; its evicted units reach the index only on `commit`. */
export async function runHierarchical(
  history: readonly Message[],
  tokensBefore: number,
  maxTokens: number,
  target: number,
  o: Resolved,
  signal: AbortSignal | undefined,
): Promise<E.Either<ContextError, Candidate>> {
  // The turn's entries wait in a staging index and reach the real one in one batch at its end:
  // an aborted or interrupted turn writes none of them, a finished one all of them.
  const staged = stagedIndex(o.index);
  const r = await evictUnits(
    history,
    {
      targetTokens: target,
      preserveLast: o.preserveLast,
      namespace: o.namespace,
      noteTokens: o.noteTokens,
      concurrency: o.concurrency,
      pinTask: o.pinTask,
      rewrite: o.rewrite ?? true,
      mask: o.mask,
      scoring: o.scoring,
      noteFacts: o.noteFacts,
    },
    { index: staged, counter: o.counter, now: o.now(), noteKey: o.noteKey },
    signal,
  )();
  if (E.isLeft(r)) return E.left(r.left);
  if (r.right.aborted || signal?.aborted === true) return E.left(aborted);
  const ev = r.right;
  const out = withNote(ev.kept, ev.note, o.noteKey, ev.noteAt);
  const tokensAfter = o.counter.countMessages(out);
  const warnings: TurnWarning[] = [
    ...taskWarning(ev.task),
    ...ev.disambiguated.map((d): TurnWarning => ({ _tag: "UnitIdDisambiguated", id: d.id, writtenAs: d.writtenAs })),
    ...ev.failures.map((f): TurnWarning => ({ _tag: "UnitKept", id: f.id, reason: f.reason })),
  ];
  if (ev.noteFits === false)
    warnings.push({ _tag: "NoteDoesNotFit", targetTokens: target, reservedTokens: ev.reservedTokens });
  if (tokensAfter > maxTokens)
    warnings.push({
      _tag: "BudgetNotMet",
      tokens: tokensAfter,
      maxTokens,
      reason: "pinned system messages and the verbatim tail alone exceed the budget",
    });
  const commit = async (): Promise<E.Either<ContextError, void>> => {
    const entries = staged.pending();
    const committed = await staged.commit()();
    if (E.isRight(committed)) return E.right(undefined);
    const why = describeIndexError(committed.left);
    return E.left({
      _tag: "IndexWriteFailed",
      subject: "index",
      problems: [why],
      message: `the index refused the turn's ${entries} evicted units (none was written): ${why}`,
      entries,
      cause: committed.left,
    });
  };
  return E.right({
    result: {
      messages: out,
      compacted: ev.evicted.length > 0 || ev.masked.length > 0,
      strategy: "hierarchical",
      tokensBefore,
      tokensAfter,
      maxTokens,
      budgetMet: tokensAfter <= maxTokens,
      evicted: ev.evicted,
      masked: ev.masked,
      recalled: [],
      summary: ev.note,
      warnings,
    },
    commit,
    llmAsked: false,
  });
}
