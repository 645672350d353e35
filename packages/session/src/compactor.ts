/**
 * The session compactor: `tryCompact` at the start of a turn (triggered by the previous turn's
 * input tokens) and `forceCompact` on demand. It reads the active summary and the messages past
 * its watermark, folds the older ones into an updated checkpoint with one summariser call, saves
 * it as a new summary that supersedes the old one, and announces `CompactionDone`. When the
 * summariser fails or returns nothing, the `fallback` setting (default `truncate`) saves a
 * deterministic head+tail excerpt instead (see `session/fallback`) and announces a warning first.
 *
 * @module session/compactor
 */
import { estimateCounter, type TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import { chooseCompactionModel, type ModelChoiceError } from "@cc/lcm";
import { guardProvider } from "@cc/lcm";
import type { Provider, ProviderError } from "@cc/messages";
import { defaultTranscriptLimits } from "@cc/lcm/internal";
import { serialiseTranscript, type TranscriptLimits } from "@cc/lcm";
import { decodeSessionConfig, type InvalidSessionConfig, type SessionCompactionConfig } from "./config.js";
import {
  createEventBus,
  type CompactionDone,
  type CompactionTrigger,
  type CompactionWarning,
  type EventBus,
  type SessionEvent,
  type SubscriberFailure,
} from "./events.js";
import { truncatedCheckpoint, type SummaryLevel } from "./fallback.js";
import { decideTrigger, planCompaction, type SessionSkipReason, type TokenSource } from "./plan.js";
import type { StackId, StoreError, StoredMessage, StoredSummary, SummaryStore } from "./store/store.js";
import { checkStackId } from "./store/validate.js";
import { checkpointPrompt } from "./template.js";

/** What a compaction call did. */
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
      readonly message: string;
      /** The token figure the trigger used (0 for ephemeral sessions). */
      readonly effectiveTokens: number;
    };

/** Why the summariser did not produce a summary: no model could be chosen, or the call failed. */
export type SummariserError = ModelChoiceError | { readonly _tag: "SummariserFailed"; readonly error: ProviderError };

/** Why a compaction failed. The store is unchanged when any of these is returned. */
export type SessionCompactionError =
  | StoreError
  | SummariserError
  | { readonly _tag: "InvalidCompactionInput"; readonly field: string; readonly message: string };

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

/** What the session compactor needs. */
export interface SessionCompactorDeps {
  readonly store: SummaryStore;
  readonly provider: Provider;
  /** Raw configuration; validated by {@link createSessionCompactor}. */
  readonly config: unknown;
  /** Where events go. Default: a private bus (see `SessionCompactor.events`). */
  readonly events?: EventBus<SessionEvent>;
  /** Token estimator for the fallback when no usage was reported. Default: the weighted estimate. */
  readonly counter?: TokenCounter;
  /** The clock, read once per pass. Default `Date.now`. */
  readonly now?: () => number;
  /** Transcript clipping limits. Default 6000+1500 / 4000+1500 / 1200 characters. */
  readonly transcriptLimits?: TranscriptLimits;
}

/** One turn's request to {@link SessionCompactor.tryCompact}. */
export interface TryCompactInput {
  readonly stackId: StackId;
  /** Input tokens the provider reported for the previous turn (0 when unknown). */
  readonly lastInputTokens: number;
  readonly ephemeral?: boolean;
  readonly signal?: AbortSignal;
}

/** A request to {@link SessionCompactor.forceCompact}. */
export interface ForceCompactInput {
  readonly stackId: StackId;
  readonly ephemeral?: boolean;
  readonly signal?: AbortSignal;
}

/** Compaction inside a running session. */
export interface SessionCompactor {
  readonly config: SessionCompactionConfig;
  /** The bus `CompactionDone` / `CompactionWarning` / `CompactionFailed` are published on. */
  readonly events: EventBus<SessionEvent>;
  /** Compacts when the previous turn's input tokens (or the estimate, when 0) reach the threshold. */
  tryCompact(input: TryCompactInput): TE.TaskEither<SessionCompactionError, CompactionOutcome>;
  /** Compacts now, whatever the token count (still never for ephemeral sessions). */
  forceCompact(input: ForceCompactInput): TE.TaskEither<SessionCompactionError, CompactionOutcome>;
}

const skipped = (reason: SessionSkipReason, message: string, effectiveTokens: number): CompactionOutcome => ({
  _tag: "Skipped",
  reason,
  message,
  effectiveTokens,
});

/**
 * Validates `deps.config` and creates the compactor.
 *
 * @example
 * const compactor = createSessionCompactor({ store, provider: offlineProvider(), config: { thresholdTokens: 30000 } });
 * if (E.isRight(compactor)) await compactor.right.tryCompact({ stackId: "chat-1", lastInputTokens: 31000 })();
 */
export function createSessionCompactor(deps: SessionCompactorDeps): E.Either<InvalidSessionConfig, SessionCompactor> {
  return E.map((config: SessionCompactionConfig) => build(deps, config))(decodeSessionConfig(deps.config));
}

interface Loaded {
  readonly latest: O.Option<StoredSummary>;
  readonly after: readonly StoredMessage[];
}

function build(deps: SessionCompactorDeps, config: SessionCompactionConfig): SessionCompactor {
  const { store } = deps;
  const events = deps.events ?? createEventBus<SessionEvent>();
  const counter = deps.counter ?? estimateCounter();
  const clock = deps.now ?? Date.now;
  const provider = guardProvider(deps.provider, config.timeoutMs);
  const limits = deps.transcriptLimits ?? defaultTranscriptLimits;

  const load = (stackId: StackId): TE.TaskEither<StoreError, Loaded> =>
    pipe(
      store.latestSummary(stackId),
      TE.chain((latest) =>
        pipe(
          store.messagesAfter(stackId, O.isSome(latest) ? latest.value.coversUpTo : 0),
          TE.map((after) => ({ latest, after })),
        ),
      ),
    );

  const estimate = (loaded: Loaded): number =>
    counter.countMessages(loaded.after.map((m) => m.message)) + (O.isSome(loaded.latest) ? counter.count(loaded.latest.value.content) : 0);

  const fail = (stackId: StackId, at: number) => (error: SessionCompactionError): SessionCompactionError => {
    events.publish({ _tag: "CompactionFailed", stackId, error, at });
    return error;
  };

  const fold = (
    stackId: StackId,
    loaded: Loaded,
    trigger: CompactionTrigger,
    effectiveTokens: number,
    tokenSource: TokenSource,
    at: number,
    signal: AbortSignal | undefined,
  ): TE.TaskEither<SessionCompactionError, CompactionOutcome> => {
    const plan = planCompaction(loaded.after, config.keepRecent);
    if (plan._tag === "Nothing") {
      const why =
        loaded.after.length <= config.keepRecent
          ? `${loaded.after.length} message(s) past the watermark; keepRecent is ${config.keepRecent}`
          : `the tool calls of the newest ${config.keepRecent} messages reach back to the watermark; folding would separate a call from its results`;
      return TE.right(skipped("too_few_messages", why, effectiveTokens));
    }
    const previous = O.toUndefined(loaded.latest);
    const transcript = serialiseTranscript(
      plan.summarise.map((m) => m.message),
      limits,
    );
    const previousSummary = previous === undefined ? {} : { previousSummary: previous.content };
    const prompt = checkpointPrompt({ transcript, ...previousSummary });

    const save = (
      text: string,
      level: SummaryLevel,
      model: string | null,
      warning: CompactionWarning | undefined,
    ): TE.TaskEither<SessionCompactionError, CompactionOutcome> =>
      pipe(
        store.saveSummary(stackId, { content: text, coversUpTo: plan.coversUpTo, previousId: previous?.id ?? null }, at),
        TE.map((summary): CompactionOutcome => {
          const event: CompactionDone = {
            _tag: "CompactionDone",
            stackId,
            trigger,
            summaryId: summary.id,
            previousSummaryId: summary.previousId,
            coversUpTo: summary.coversUpTo,
            messagesSummarised: plan.summarise.length,
            messagesKept: plan.keep.length,
            effectiveTokens,
            summaryChars: text.length,
            level,
            model,
            at,
          };
          const subscriberFailures = events.publish(event);
          return { _tag: "Compacted", summary, event, tokenSource, subscriberFailures, ...(warning === undefined ? {} : { warning }) };
        }),
        TE.orElse((error): TE.TaskEither<SessionCompactionError, CompactionOutcome> =>
          error._tag === "SummaryConflict"
            ? TE.right(
                skipped(
                  "concurrent_compaction",
                  `another process saved summary ${String(error.actualPreviousId)} meanwhile; this summary was discarded and the next turn builds on that one`,
                  effectiveTokens,
                ),
              )
            : TE.left(error),
        ),
      );

    /** The deterministic fallback: a truncated checkpoint within the summary budget. */
    const truncate = (warning: CompactionWarning, original: E.Either<SummariserError, CompactionOutcome>): TE.TaskEither<SessionCompactionError, CompactionOutcome> => {
      const cut = truncatedCheckpoint({ transcript, ...previousSummary, maxTokens: config.maxSummaryTokens, counter });
      if (cut === undefined) {
        // Nothing non-blank fits the budget (not reachable with a budget ≥ 16 tokens): behave as `none`.
        if (E.isRight(original)) events.publish({ ...warning, fallback: "none", message: warning.message.replace(/; a truncated .*$/, "; nothing was saved") });
        return TE.fromEither(original);
      }
      events.publish(warning);
      return save(cut.text, "truncate", null, warning);
    };

    const summarise: TE.TaskEither<never, Summarised> = pipe(
      chooseCompactionModel(deps.provider, config.model ?? "", config.strength),
      TE.mapLeft((e): SummariserError => e),
      TE.chain((model) =>
        pipe(
          provider.complete({
            model,
            messages: prompt,
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
          return text === "" ? { _tag: "Empty", model: completion.model } : { _tag: "Summary", text, model: completion.model };
        },
      ),
      TE.fromTask,
    );

    return pipe(
      summarise,
      TE.chain((result): TE.TaskEither<SessionCompactionError, CompactionOutcome> => {
        switch (result._tag) {
          case "Summary":
            return save(result.text, "checkpoint", result.model, undefined);
          case "Empty": {
            const onTruncate = config.fallback === "truncate" && signal?.aborted !== true;
            const message = onTruncate
              ? `the summariser (${result.model}) returned an empty summary; a truncated excerpt of the folded messages was saved instead`
              : `the summariser (${result.model}) returned an empty summary; nothing was saved and the history is unchanged`;
            const warning: CompactionWarning = {
              _tag: "CompactionWarning",
              stackId,
              reason: "empty_summary",
              error: null,
              fallback: onTruncate ? "truncate" : "none",
              message,
              at,
            };
            const skip = skipped("empty_summary", message, effectiveTokens);
            if (onTruncate) return truncate(warning, E.right(skip));
            events.publish(warning);
            return TE.right(skip);
          }
          case "Failed": {
            if (config.fallback === "none" || cancelled(result.error, signal)) return TE.left(result.error);
            const warning: CompactionWarning = {
              _tag: "CompactionWarning",
              stackId,
              reason: "summariser_failed",
              error: result.error,
              fallback: "truncate",
              message: `${describeSummariserError(result.error)}; a truncated excerpt of the folded messages was saved instead`,
              at,
            };
            return truncate(warning, E.left(result.error));
          }
        }
      }),
    );
  };

  const checkInput = (stackId: unknown, lastInputTokens: number): E.Either<SessionCompactionError, StackId> => {
    if (typeof lastInputTokens !== "number" || !Number.isFinite(lastInputTokens) || lastInputTokens < 0) {
      return E.left({
        _tag: "InvalidCompactionInput",
        field: "lastInputTokens",
        message: `lastInputTokens must be a finite number ≥ 0 (0 when the provider reported no usage), got ${String(lastInputTokens)}`,
      });
    }
    return checkStackId(stackId);
  };

  const run = (
    input: { readonly stackId: StackId; readonly ephemeral?: boolean; readonly signal?: AbortSignal },
    lastInputTokens: number,
    trigger: CompactionTrigger,
  ): TE.TaskEither<SessionCompactionError, CompactionOutcome> => {
    const at = clock();
    return pipe(
      TE.fromEither(checkInput(input.stackId, lastInputTokens)),
      TE.chain((stackId) => {
        if (input.ephemeral === true) return TE.right(skipped("ephemeral", "ephemeral sessions are never compacted", 0));
        return pipe(
          load(stackId),
          TE.mapLeft((e): SessionCompactionError => e),
          TE.chain((loaded) => {
            const decision = decideTrigger({
              lastInputTokens: trigger === "manual" ? 0 : lastInputTokens,
              ephemeral: false,
              thresholdTokens: trigger === "manual" ? 0 : config.thresholdTokens,
              estimate: () => estimate(loaded),
            });
            if (decision._tag === "Hold") {
              return TE.right(
                skipped(
                  decision.reason,
                  `${decision.effectiveTokens} ${decision.source} input tokens are below the threshold of ${config.thresholdTokens}`,
                  decision.effectiveTokens,
                ),
              );
            }
            return fold(stackId, loaded, trigger, decision.effectiveTokens, decision.source, at, input.signal);
          }),
          TE.mapLeft(fail(stackId, at)),
        );
      }),
    );
  };

  return {
    config,
    events,
    tryCompact: (input) => run(input, input.lastInputTokens, "threshold"),
    forceCompact: (input) => run(input, 0, "manual"),
  };
}
