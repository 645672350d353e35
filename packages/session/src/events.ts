/**
 * The session event bus: compaction announces itself so other parts of an agent (external memory,
 * embeddings, UIs) can react. Subscribers that throw or reject are caught and reported; they
 * never break compaction or starve other subscribers.
 *
 * @module session/events
 */
import type { SessionCompactionError, SummariserError } from "./errors.js";
import type { SummaryFallback, SummaryLevel } from "./fallback.js";
import type { StackId } from "./store/store.js";
import { callback, decodeOrThrow, decodeWith, objectCodec } from "@cc/validate";

/** How a compaction was started. */
export type CompactionTrigger = "threshold" | "manual";

/**
 * A new summary was saved and now covers the stack up to `coversUpTo`.
 *
 * @example bus.subscribe((e) => { if (e._tag === "CompactionDone") console.log(e.summaryId, e.coversUpTo, e.level); });
 */
export interface CompactionDone {
  readonly _tag: "CompactionDone";
  readonly stackId: StackId;
  readonly trigger: CompactionTrigger;
  readonly summaryId: number;
  /** The summary it supersedes (`null` on the first compaction). */
  readonly previousSummaryId: number | null;
  readonly coversUpTo: number;
  /** Messages folded into the summary by this compaction. */
  readonly messagesSummarised: number;
  /** Messages left verbatim after the new watermark. */
  readonly messagesKept: number;
  /** Input tokens that triggered it (reported or estimated). */
  readonly effectiveTokens: number;
  readonly summaryChars: number;
  /** `detailed` = written by the summariser; `truncate` = the deterministic fallback (see `CompactionWarning`). */
  readonly level: SummaryLevel;
  /** The summary model, or `null` when the summary was produced by truncation. */
  readonly model: string | null;
  /** Clock reading of the pass (epoch ms). */
  readonly at: number;
}

/**
 * The summariser did not deliver: it failed (`SummariserFailed`, with its error) or returned an
 * empty summary (`EmptySummary`). `fallback` says what followed: `truncate` = a truncated summary was saved
 * (a `CompactionDone` with `level: "truncate"` follows), `none` = nothing was saved.
 *
 * @example
 * bus.subscribe((e) => { if (e._tag === "CompactionWarning") console.warn(e.reason, e.message); });
 */
export interface CompactionWarning {
  readonly _tag: "CompactionWarning";
  readonly stackId: StackId;
  readonly reason: "EmptySummary" | "SummariserFailed";
  /**
   * The earlier snake_case spelling of `reason` (`EmptySummary` → `empty_summary`,
   * `SummariserFailed` → `summariser_failed`).
   * @deprecated Switch on `reason` (PascalCase, like every tag of @cc); kept one release.
   */
  readonly legacyReason: "empty_summary" | "summariser_failed";
  /** The summariser's error; `null` for an empty summary. */
  readonly error: SummariserError | null;
  readonly fallback: SummaryFallback;
  readonly message: string;
  readonly at: number;
}

/** Compaction failed; the store is unchanged. */
export interface CompactionFailed {
  readonly _tag: "CompactionFailed";
  readonly stackId: StackId;
  readonly error: SessionCompactionError;
  readonly at: number;
}

/**
 * Everything the session layer announces.
 *
 * @example const bus = createEventBus<SessionEvent>();
 */
export type SessionEvent = CompactionDone | CompactionWarning | CompactionFailed;

/**
 * A subscriber; it may return a promise (its rejection is reported, not awaited by publishers).
 *
 * @example
 * import { appendFile } from "node:fs/promises";
 * const log: Subscriber<SessionEvent> = async (e) => { await appendFile("audit.jsonl", JSON.stringify(e) + "\n"); };
 */
export type Subscriber<Ev> = (event: Ev) => void | Promise<void>;

/**
 * A subscriber threw or rejected while handling `event`.
 *
 * @example const failures = bus.publish(event); // [{ _tag: "SubscriberFailed", event, error }] when one threw
 */
export interface SubscriberFailure {
  readonly _tag: "SubscriberFailed";
  readonly event: { readonly _tag: string };
  readonly error: unknown;
}

/**
 * A small synchronous broadcast bus.
 *
 * @example
 * const off = bus.subscribe((e) => console.log(e._tag)); bus.publish(event); off();
 */
export interface EventBus<Ev extends { readonly _tag: string }> {
  /** Adds `handler`; returns a function that removes exactly this subscription (idempotent). */
  subscribe(handler: Subscriber<Ev>): () => void;
  /**
   * Delivers `event` to every current subscriber in subscription order. Returns the subscribers
   * that threw synchronously; later rejections go to `onSubscriberError`.
   */
  publish(event: Ev): readonly SubscriberFailure[];
  /** Number of live subscriptions. */
  readonly size: number;
}

/** Options of {@link createEventBus}. */
export interface EventBusOptions {
  /**
   * Receives every subscriber failure (sync throws and async rejections).
   * @default console.warn
   */
  readonly onSubscriberError?: (failure: SubscriberFailure) => void;
}

/** io-ts codec of {@link EventBusOptions} (closed). */
export const EventBusOptionsCodec = objectCodec(
  "EventBusOptions",
  {},
  { onSubscriberError: callback<(failure: SubscriberFailure) => void>() },
  { expected: "an options object" },
);

const decodeBusOptions = decodeWith(EventBusOptionsCodec, "InvalidOptions", "event bus options");

const reportToConsole = (failure: SubscriberFailure): void => {
  console.warn(`[@cc/session] a ${failure.event._tag} subscriber failed:`, failure.error);
};

/**
 * Creates a bus. Invalid options (an unknown field, a reporter that is not a function) throw a
 * `CcError` of @cc/validate naming the field.
 *
 * @example
 * const bus = createEventBus<SessionEvent>();
 * const off = bus.subscribe((e) => { if (e._tag === "CompactionDone") console.log(e.coversUpTo); });
 * off();
 */
export function createEventBus<Ev extends { readonly _tag: string }>(options: EventBusOptions = {}): EventBus<Ev> {
  decodeOrThrow(decodeBusOptions, options);
  const report = options.onSubscriberError ?? reportToConsole;
  const safeReport = (failure: SubscriberFailure): void => {
    try {
      report(failure);
    } catch {
      // The reporter itself failed; the failure is still returned to the publisher when synchronous.
    }
  };
  let subscriptions: readonly { readonly handler: Subscriber<Ev> }[] = [];
  return {
    subscribe(handler) {
      const subscription = { handler };
      subscriptions = [...subscriptions, subscription];
      return () => {
        subscriptions = subscriptions.filter((s) => s !== subscription);
      };
    },
    publish(event) {
      const failures: SubscriberFailure[] = [];
      for (const { handler } of subscriptions) {
        try {
          const result = handler(event);
          if (result !== undefined && typeof (result as Promise<void>).then === "function") {
            (result as Promise<void>).then(undefined, (error: unknown) =>
              safeReport({ _tag: "SubscriberFailed", event, error }),
            );
          }
        } catch (error) {
          const failure: SubscriberFailure = { _tag: "SubscriberFailed", event, error };
          failures.push(failure);
          safeReport(failure);
        }
      }
      return failures;
    },
    get size() {
      return subscriptions.length;
    },
  };
}
