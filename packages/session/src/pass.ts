/**
 * One compaction pass of the session compactor, in three named steps: {@link planSummary} (pure:
 * which messages to fold, with which prompt), {@link summarise} (the model call and the
 * truncation fallback) and {@link saveSummary} (the store write and the events); and the
 * {@link CompactionOutcome} a pass ends with.
 *
 * @module session/pass
 */
import { type TokenCounter } from "@cc/tokens";
import * as O from "fp-ts/lib/Option.js";
import * as T from "fp-ts/lib/Task.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import { chooseCompactionModel } from "@cc/lcm";
import type { Message, Provider } from "@cc/messages";
import { serialiseTranscript, type TranscriptLimits } from "@cc/lcm";
import { type SessionCompactionConfig } from "./config.js";
import {
  type CompactionDone,
  type CompactionTrigger,
  type CompactionWarning,
  type EventBus,
  type SessionEvent,
  type SubscriberFailure,
} from "./events.js";
import { truncatedSummary, type SummaryFallback, type SummaryLevel } from "./fallback.js";
import { planCompaction, type CompactionPlan, type SessionSkipReason, type TokenSource } from "./plan.js";
import type { StackId, StoredMessage, StoredSummary, SummaryStore } from "./store/store.js";
import type { SessionCompactionError, SummariserError } from "./errors.js";
import { summaryPrompt } from "./template.js";

/**
 * What a compaction call did.
 *
 * @example const outcome = await right(compactor.tryCompact({ stackId: "chat-1", lastInputTokens: 26000 })); if (outcome._tag === "Skipped") console.log(outcome.reason);
 */
export type CompactionOutcome =
  | {
      readonly _tag: "Compacted";
      readonly summary: StoredSummary;
      readonly event: CompactionDone;
      readonly tokenSource: TokenSource;
      /** Subscribers that threw while handling the event (compaction still succeeded). */
      readonly subscriberFailures: readonly SubscriberFailure[];
      /** Present when the summariser did not deliver and the summary is the truncation fallback. */
      readonly warning?: CompactionWarning;
    }
  | {
      readonly _tag: "Skipped";
      readonly reason: SessionSkipReason;
      /**
       * The earlier snake_case spelling of `reason`: `Ephemeral` → `ephemeral`, `BelowThreshold` →
       * `below_threshold`, `TooFewMessages` → `too_few_messages`, `EmptySummary` → `empty_summary`,
       * `ConcurrentCompaction` → `concurrent_compaction`.
       * @deprecated Switch on `reason` (PascalCase, like every tag of @cc); kept one release.
       */
      readonly legacyReason:
        "ephemeral" | "below_threshold" | "too_few_messages" | "empty_summary" | "concurrent_compaction";
      readonly message: string;
      /** The token figure the trigger used (0 for ephemeral sessions). */
      readonly effectiveTokens: number;
    };

/** A compaction that did nothing, and why. */
export type Skipped = Extract<CompactionOutcome, { readonly _tag: "Skipped" }>;

/** The summariser's result before saving: a summary, or why there is none. */
type Summarised =
  | { readonly _tag: "Summary"; readonly text: string; readonly model: string }
  | { readonly _tag: "Empty"; readonly model: string }
  | { readonly _tag: "Failed"; readonly error: SummariserError };

/** True when the caller cancelled: then no fallback runs, the caller asked to stop. */
const cancelled = (error: SummariserError, signal: AbortSignal | undefined): boolean =>
  signal?.aborted === true || (error._tag === "SummariserFailed" && error.error._tag === "ProviderAborted");

const describeSummariserError = (error: SummariserError): string => {
  switch (error._tag) {
    case "NoCompactionModel":
      return error.message;
    case "ModelListFailed":
      return `listing models failed (${error.error._tag}${"message" in error.error ? `: ${error.error.message}` : ""})`;
    case "SummariserFailed":
      return error.error._tag === "ProviderTimeout"
        ? `the summary call timed out after ${error.error.timeoutMs} ms`
        : `the summary call failed (${error.error._tag}${"message" in error.error ? `: ${error.error.message}` : ""})`;
  }
};

/** The earlier snake_case spellings of the reasons (deprecated `legacyReason`, kept one release). */
const LEGACY_SKIP: Readonly<Record<SessionSkipReason, Skipped["legacyReason"]>> = {
  Ephemeral: "ephemeral",
  BelowThreshold: "below_threshold",
  TooFewMessages: "too_few_messages",
  EmptySummary: "empty_summary",
  ConcurrentCompaction: "concurrent_compaction",
};

export const skipped = (reason: SessionSkipReason, message: string, effectiveTokens: number): Skipped => ({
  _tag: "Skipped",
  reason,
  legacyReason: LEGACY_SKIP[reason],
  message,
  effectiveTokens,
});

/** What a pass read from the store: the active summary and the messages past its watermark. */
export interface Loaded {
  readonly latest: O.Option<StoredSummary>;
  readonly after: readonly StoredMessage[];
}

/** One compaction pass: the stack, how it was started, the token figure that drove it, its clock reading. */
export interface Pass {
  readonly stackId: StackId;
  readonly trigger: CompactionTrigger;
  readonly effectiveTokens: number;
  readonly tokenSource: TokenSource;
  readonly at: number;
  readonly signal?: AbortSignal;
}

/** What {@link planSummary} decided: the messages to fold and the prompt that folds them. */
export interface SummaryJob {
  readonly _tag: "Job";
  readonly plan: Extract<CompactionPlan, { readonly _tag: "Fold" }>;
  /** The summary being superseded, if any. */
  readonly previous: StoredSummary | undefined;
  /** The serialised folded messages. */
  readonly transcript: string;
  /** The summariser's prompt (iterative when there is a previous summary). */
  readonly prompt: readonly Message[];
}

/**
 * Plans a pass (pure): which messages past the watermark are folded (all but the newest
 * `preserveLast`, never splitting a tool call from its results) and the summariser prompt built
 * from them and the previous summary. A `Skipped` outcome says why there is nothing to fold.
 *
 * @example
 * import { defaultTranscriptLimits } from "@cc/lcm/internal";
 * planSummary({ latest: O.none, after: stored }, { preserveLast: 6 }, defaultTranscriptLimits, 31000)._tag // "Job"
 */
export function planSummary(
  loaded: Loaded,
  config: Pick<SessionCompactionConfig, "preserveLast">,
  limits: TranscriptLimits,
  effectiveTokens: number,
): SummaryJob | Skipped {
  const plan = planCompaction(loaded.after, config.preserveLast);
  if (plan._tag === "Nothing") {
    const why =
      loaded.after.length <= config.preserveLast
        ? `${loaded.after.length} message(s) past the watermark; preserveLast is ${config.preserveLast}`
        : `the tool calls of the newest ${config.preserveLast} messages reach back to the watermark; folding would separate a call from its results`;
    return skipped("TooFewMessages", why, effectiveTokens);
  }
  const previous = O.toUndefined(loaded.latest);
  const transcript = serialiseTranscript(
    plan.summarise.map((m) => m.message),
    limits,
  );
  const prompt = summaryPrompt({
    transcript,
    ...(previous === undefined ? {} : { previousSummary: previous.content }),
  });
  return { _tag: "Job", plan, previous, transcript, prompt };
}

/** What {@link summarise} settled on: a text to save (with its level and warning), a skip, or a failure. */
export type SummaryDecision =
  | {
      readonly _tag: "Save";
      readonly text: string;
      readonly level: SummaryLevel;
      readonly model: string | null;
      readonly warning?: CompactionWarning;
    }
  | { readonly _tag: "Skip"; readonly outcome: Skipped; readonly warning?: CompactionWarning }
  | { readonly _tag: "Fail"; readonly error: SummariserError };

/** What {@link summarise} needs besides the job. */
export interface SummariseDeps {
  /** The provider as given (used to list models). */
  readonly provider: Provider;
  /** The provider wrapped by `guardProvider` (timeout, no throws). */
  readonly guarded: Provider;
  readonly config: SessionCompactionConfig;
  readonly counter: TokenCounter;
}

/**
 * Runs the summariser on a planned job and settles what to save: its text (`detailed`), or —
 * when it fails or returns nothing and `fallback` is `truncate` — a truncated excerpt within
 * `maxSummaryTokens` with a `CompactionWarning` that says why. Never rejects; a cancelled call is
 * a `Fail` (no fallback runs: the caller asked to stop). Touches no store and publishes nothing.
 *
 * @example const decision = await summarise(deps, job, pass)(); // { _tag: "Save", level: "detailed", … }
 */
export function summarise(deps: SummariseDeps, job: SummaryJob, pass: Pass): T.Task<SummaryDecision> {
  const { config, counter } = deps;
  const { signal } = pass;
  const previousSummary = job.previous === undefined ? {} : { previousSummary: job.previous.content };
  const warningOf = (
    reason: CompactionWarning["reason"],
    error: SummariserError | null,
    fallback: SummaryFallback,
    message: string,
  ): CompactionWarning => ({
    _tag: "CompactionWarning",
    stackId: pass.stackId,
    reason,
    legacyReason: reason === "EmptySummary" ? "empty_summary" : "summariser_failed",
    error,
    fallback,
    message,
    at: pass.at,
  });
  /** The deterministic fallback; `otherwise` when nothing non-blank fits (not reachable with a budget ≥ 16 tokens). */
  const truncate = (warning: CompactionWarning, otherwise: SummaryDecision): SummaryDecision => {
    const cut = truncatedSummary({
      transcript: job.transcript,
      ...previousSummary,
      maxTokens: config.maxSummaryTokens,
      counter,
    });
    if (cut !== undefined) return { _tag: "Save", text: cut.text, level: "truncate", model: null, warning };
    return otherwise._tag === "Skip"
      ? {
          ...otherwise,
          warning: {
            ...warning,
            fallback: "none",
            message: warning.message.replace(/; a truncated .*$/, "; nothing was saved"),
          },
        }
      : otherwise;
  };
  const settle = (result: Summarised): SummaryDecision => {
    switch (result._tag) {
      case "Summary":
        return { _tag: "Save", text: result.text, level: "detailed", model: result.model };
      case "Empty": {
        const onTruncate = config.fallback === "truncate" && signal?.aborted !== true;
        const message = onTruncate
          ? `the summariser (${result.model}) returned an empty summary; a truncated excerpt of the folded messages was saved instead`
          : `the summariser (${result.model}) returned an empty summary; nothing was saved and the history is unchanged`;
        const warning = warningOf("EmptySummary", null, onTruncate ? "truncate" : "none", message);
        const skip: SummaryDecision = {
          _tag: "Skip",
          outcome: skipped("EmptySummary", message, pass.effectiveTokens),
          warning,
        };
        return onTruncate ? truncate(warning, skip) : skip;
      }
      case "Failed": {
        if (config.fallback === "none" || cancelled(result.error, signal)) return { _tag: "Fail", error: result.error };
        const message = `${describeSummariserError(result.error)}; a truncated excerpt of the folded messages was saved instead`;
        return truncate(warningOf("SummariserFailed", result.error, "truncate", message), {
          _tag: "Fail",
          error: result.error,
        });
      }
    }
  };
  return pipe(
    chooseCompactionModel(deps.provider, config.model ?? "", config.strength),
    TE.mapLeft((e): SummariserError => e),
    TE.chain((model) =>
      pipe(
        deps.guarded.complete({
          model,
          messages: job.prompt,
          maxTokens: config.maxSummaryTokens,
          temperature: config.temperature,
          ...(signal === undefined ? {} : { signal }),
        }),
        TE.mapLeft((error): SummariserError => ({ _tag: "SummariserFailed", error })),
      ),
    ),
    TE.match(
      (error): Summarised => ({ _tag: "Failed", error }),
      (completion): Summarised => {
        const text = completion.text.trim();
        return text === ""
          ? { _tag: "Empty", model: completion.model }
          : { _tag: "Summary", text, model: completion.model };
      },
    ),
    T.map(settle),
  );
}

/**
 * Writes what {@link summarise} settled on: saves the summary (superseding the previous one),
 * then publishes the warning (if any) and `CompactionDone`. A summary saved meanwhile by another
 * writer turns this pass into a `ConcurrentCompaction` skip; the store is unchanged on any error.
 *
 * @example await saveSummary(store, events, job, decision, pass)(); // right({ _tag: "Compacted", … })
 */
export function saveSummary(
  store: SummaryStore,
  events: EventBus<SessionEvent>,
  job: SummaryJob,
  decision: SummaryDecision,
  pass: Pass,
): TE.TaskEither<SessionCompactionError, CompactionOutcome> {
  if (decision._tag === "Fail") return TE.left(decision.error);
  if (decision.warning !== undefined) events.publish(decision.warning);
  if (decision._tag === "Skip") return TE.right(decision.outcome);
  const { text, level, model, warning } = decision;
  const { plan, previous } = job;
  return pipe(
    store.saveSummary(
      pass.stackId,
      { content: text, coversUpTo: plan.coversUpTo, previousId: previous?.id ?? null },
      pass.at,
    ),
    TE.map((summary): CompactionOutcome => {
      const event: CompactionDone = {
        _tag: "CompactionDone",
        stackId: pass.stackId,
        trigger: pass.trigger,
        summaryId: summary.id,
        previousSummaryId: summary.previousId,
        coversUpTo: summary.coversUpTo,
        messagesSummarised: plan.summarise.length,
        messagesKept: plan.keep.length,
        effectiveTokens: pass.effectiveTokens,
        summaryChars: text.length,
        level,
        model,
        at: pass.at,
      };
      const subscriberFailures = events.publish(event);
      return {
        _tag: "Compacted",
        summary,
        event,
        tokenSource: pass.tokenSource,
        subscriberFailures,
        ...(warning === undefined ? {} : { warning }),
      };
    }),
    TE.orElse((error): TE.TaskEither<SessionCompactionError, CompactionOutcome> =>
      error._tag === "SummaryConflict"
        ? TE.right(
            skipped(
              "ConcurrentCompaction",
              `another process saved summary ${String(error.actualPreviousId)} meanwhile; this summary was discarded and the next turn builds on that one`,
              pass.effectiveTokens,
            ),
          )
        : TE.left(error),
    ),
  );
}
