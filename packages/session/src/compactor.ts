/**
 * The session compactor: `tryCompact` at the start of a turn (triggered by the previous turn's
 * input tokens) and `forceCompact` on demand. It reads the active summary and the messages past
 * its watermark, folds the older ones into an updated summary with one summariser call, saves
 * it as a new summary that supersedes the old one, and announces `CompactionDone`. A pass is
 * three named steps: {@link planSummary} (pure: which messages, which prompt),
 * {@link summarise} (the model call and the fallback) and {@link saveSummary} (the store write
 * and the events). When the
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
import { guardProvider } from "@cc/lcm";
import type { Provider } from "@cc/messages";
import { defaultTranscriptLimits } from "@cc/lcm/internal";
import { type TranscriptLimits } from "@cc/lcm";
import {
  decodeSessionConfig,
  triggerTokens,
  type InvalidSessionConfig,
  type SessionCompactionConfig,
} from "./config.js";
import * as t from "io-ts";
import { CcError, callback, decodeWith, type InvalidInput, isRecord, leaf, objectCodec } from "@cc/validate";
import { CounterShape, EventBusShape, ProviderShape, StoreShape, TranscriptLimitsCodec } from "./shape.js";
import { createEventBus, type CompactionTrigger, type EventBus, type SessionEvent } from "./events.js";
import { decideTrigger } from "./plan.js";
import type { StackId, StoreError, SummaryStore } from "./store/store.js";
import { checkStackId } from "./store/validate.js";
import type { SessionCompactionError } from "./errors.js";
import {
  planSummary,
  saveSummary,
  skipped,
  summarise,
  type CompactionOutcome,
  type Loaded,
  type Pass,
  type SummariseDeps,
} from "./pass.js";

export {
  planSummary,
  saveSummary,
  summarise,
  type CompactionOutcome,
  type Loaded,
  type Pass,
  type Skipped,
  type SummariseDeps,
  type SummaryDecision,
  type SummaryJob,
} from "./pass.js";

/**
 * What the session compactor needs.
 *
 * @example createSessionCompactor({ store: memoryStore(), provider: offlineProvider(), config: { maxTokens: 32000 }, now: () => 0 })
 */
export interface SessionCompactorOptions {
  readonly store: SummaryStore;
  readonly provider: Provider;
  /** Raw configuration; validated by {@link createSessionCompactor}. */
  readonly config: unknown;
  /**
   * Where events go.
   * @default a private bus (see `SessionCompactor.events`)
   */
  readonly events?: EventBus<SessionEvent>;
  /**
   * Token estimator for the trigger when no usage was reported, and for the truncation fallback.
   * @default estimateCounter() — the weighted estimate
   */
  readonly counter?: TokenCounter;
  /**
   * The clock, read once per pass.
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * Transcript clipping limits.
   * @default 6000+1500 / 4000+1500 / 1200 characters (`defaultTranscriptLimits`)
   */
  readonly transcriptLimits?: TranscriptLimits;
}

/** One turn's request to {@link SessionCompactor.tryCompact}. */
export interface TryCompactInput {
  readonly stackId: StackId;
  /** Input tokens the provider reported for the previous turn (0 when unknown). */
  readonly lastInputTokens: number;
  /**
   * Short-lived sessions are never compacted.
   * @default false
   */
  readonly ephemeral?: boolean;
  /** Cancels the summary call; no fallback runs then. */
  readonly signal?: AbortSignal;
}

/** A request to {@link SessionCompactor.forceCompact}. */
export interface ForceCompactInput {
  readonly stackId: StackId;
  readonly ephemeral?: boolean;
  readonly signal?: AbortSignal;
}

/**
 * Compaction inside a running session.
 *
 * @example await compactor.forceCompact({ stackId: "chat-1" })(); // a user's /compact
 */
export interface SessionCompactor {
  readonly config: SessionCompactionConfig;
  /** The bus `CompactionDone` / `CompactionWarning` / `CompactionFailed` are published on. */
  readonly events: EventBus<SessionEvent>;
  /** Compacts when the previous turn's input tokens (or the estimate, when 0) reach the threshold. */
  tryCompact(input: TryCompactInput): TE.TaskEither<SessionCompactionError, CompactionOutcome>;
  /** Compacts now, whatever the token count (still never for ephemeral sessions). */
  forceCompact(input: ForceCompactInput): TE.TaskEither<SessionCompactionError, CompactionOutcome>;
}

/**
 * Creates the compactor. `deps` are validated (closed: a typo'd key, a store or provider without
 * its methods, a bad transcript limit are refused), and `deps.config`: invalid ones throw a
 * `CcError` (from @cc/validate) carrying the `InvalidOptions` — {@link decodeSessionCompactor}
 * returns it as a `Left` instead.
 *
 * @example
 * const compactor = createSessionCompactor({ store, provider: offlineProvider(), config: { maxTokens: 32000 } });
 * await compactor.tryCompact({ stackId: "chat-1", lastInputTokens: 26000 })();
 */
export function createSessionCompactor(deps: SessionCompactorOptions): SessionCompactor {
  const made = decodeSessionCompactor(deps);
  if (E.isLeft(made)) throw new CcError(made.left);
  return made.right;
}

/**
 * Validates `deps` and `deps.config` like {@link createSessionCompactor}, returning the compactor
 * or the `InvalidOptions` as a `Left` (for options that come from configuration).
 *
 * @example
 * const compactor = decodeSessionCompactor({ store, provider: offlineProvider(), config: { maxTokens: 32000 } });
 * if (E.isRight(compactor)) await compactor.right.tryCompact({ stackId: "chat-1", lastInputTokens: 26000 })();
 */
export function decodeSessionCompactor(
  deps: SessionCompactorOptions,
): E.Either<InvalidSessionConfig, SessionCompactor> {
  return pipe(
    decodeDeps(deps),
    E.chain(() => decodeSessionConfig(deps.config)),
    E.map((config: SessionCompactionConfig) => build(deps, config)),
  );
}

/** io-ts codec of {@link SessionCompactorOptions} (closed; `config` is decoded by {@link decodeSessionConfig}). */
export const SessionCompactorOptionsCodec = objectCodec(
  "SessionCompactorOptions",
  { store: StoreShape, provider: ProviderShape, config: t.unknown },
  {
    events: EventBusShape,
    counter: CounterShape,
    now: callback<() => number>(),
    transcriptLimits: TranscriptLimitsCodec,
  },
);

const decodeDeps = decodeWith(SessionCompactorOptionsCodec, "InvalidOptions", "session compactor deps");

const callFields = {
  ephemeral: leaf("Ephemeral", "true or false", (u): u is boolean => typeof u === "boolean"),
  signal: leaf(
    "AbortSignal",
    "an AbortSignal",
    (u): u is AbortSignal => isRecord(u) && typeof u["aborted"] === "boolean",
  ),
};

/** io-ts codec of {@link TryCompactInput} (closed: `ephemral: true` is refused, not ignored). */
export const TryCompactInputCodec = objectCodec(
  "TryCompactInput",
  {
    stackId: t.unknown,
    lastInputTokens: leaf(
      "LastInputTokens",
      "a finite number ≥ 0 (0 when the provider reported no usage)",
      (u): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0,
    ),
  },
  callFields,
);

/** io-ts codec of {@link ForceCompactInput} (closed). */
export const ForceCompactInputCodec = objectCodec("ForceCompactInput", { stackId: t.unknown }, callFields);

const decodeTryInput = decodeWith(TryCompactInputCodec, "InvalidInput", "compaction input");
const decodeForceInput = decodeWith(ForceCompactInputCodec, "InvalidInput", "compaction input");

/** Checks the arguments of a compaction call: known keys, a finite non-negative token count, a valid stack id. */
function checkInput(input: unknown, trigger: CompactionTrigger): E.Either<SessionCompactionError, StackId> {
  const checked: E.Either<InvalidInput, { readonly stackId: unknown }> =
    trigger === "manual" ? decodeForceInput(input) : decodeTryInput(input);
  return E.isLeft(checked) ? checked : checkStackId(checked.right.stackId);
}

function build(deps: SessionCompactorOptions, config: SessionCompactionConfig): SessionCompactor {
  const { store } = deps;
  const events = deps.events ?? createEventBus<SessionEvent>();
  const counter = deps.counter ?? estimateCounter();
  const clock = deps.now ?? Date.now;
  const limits = deps.transcriptLimits ?? defaultTranscriptLimits;
  const summariseDeps: SummariseDeps = {
    provider: deps.provider,
    guarded: guardProvider(deps.provider, config.timeoutMs),
    config,
    counter,
  };

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
    counter.countMessages(loaded.after.map((m) => m.message)) +
    (O.isSome(loaded.latest) ? counter.count(loaded.latest.value.content) : 0);

  const fail =
    (stackId: StackId, at: number) =>
    (error: SessionCompactionError): SessionCompactionError => {
      events.publish({ _tag: "CompactionFailed", stackId, error, at });
      return error;
    };

  const fold = (loaded: Loaded, pass: Pass): TE.TaskEither<SessionCompactionError, CompactionOutcome> => {
    const job = planSummary(loaded, config, limits, pass.effectiveTokens);
    if (job._tag === "Skipped") return TE.right(job);
    return pipe(
      TE.fromTask(summarise(summariseDeps, job, pass)),
      TE.chain((decision) => saveSummary(store, events, job, decision, pass)),
    );
  };

  const run = (
    input: { readonly stackId: StackId; readonly ephemeral?: boolean; readonly signal?: AbortSignal },
    lastInputTokens: number,
    trigger: CompactionTrigger,
  ): TE.TaskEither<SessionCompactionError, CompactionOutcome> => {
    const at = clock();
    return pipe(
      TE.fromEither(checkInput(input, trigger)),
      TE.chain((stackId) => {
        if (input.ephemeral === true)
          return TE.right(skipped("Ephemeral", "ephemeral sessions are never compacted", 0));
        return pipe(
          load(stackId),
          TE.mapLeft((e): SessionCompactionError => e),
          TE.chain((loaded) => {
            const decision = decideTrigger({
              lastInputTokens: trigger === "manual" ? 0 : lastInputTokens,
              ephemeral: false,
              maxTokens: config.maxTokens,
              threshold: trigger === "manual" ? 0 : config.threshold,
              estimate: () => estimate(loaded),
            });
            if (decision._tag === "Hold") {
              return TE.right(
                skipped(
                  decision.reason,
                  `${decision.effectiveTokens} ${decision.source} input tokens are below the trigger of ${triggerTokens(config)} (threshold ${config.threshold} × maxTokens ${config.maxTokens})`,
                  decision.effectiveTokens,
                ),
              );
            }
            const pass: Pass = {
              stackId,
              trigger,
              effectiveTokens: decision.effectiveTokens,
              tokenSource: decision.source,
              at,
              ...(input.signal === undefined ? {} : { signal: input.signal }),
            };
            return fold(loaded, pass);
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
