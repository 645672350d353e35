/**
 * The LCM compactor: measures context pressure and, when asked, condenses the older part of a
 * conversation by escalation while keeping leading system messages and the recent tail verbatim.
 *
 * @module compactor
 */
import { tiktokenCounter, type TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { deliverAlert, type AlertDeliveryFailure, type AlertSink } from "./alerts.js";
import { escalate, type Attempt, type CompactionAborted, type Level } from "./escalation.js";
import type { Message } from "@cc/messages";
import { chooseCompactionModel } from "./model-choice.js";
import { decodeCompactOptions, type CompactOptions, type InvalidOptions } from "./options.js";
import { describeWarnings, type CompactionWarning } from "./warnings.js";
import {
  callback,
  decodeOrThrow,
  decodeWith,
  numberIn,
  objectCodec,
  positiveInt,
  withMethods,
  type InvalidInput,
} from "@cc/validate";
import * as t from "io-ts";
import { pressureOf, type ContextUsage } from "./pressure.js";
import type { Provider } from "@cc/messages";
import { decodeMessages, leadingSystemCount, planTail, summaryMessage, type TaskPin } from "@cc/messages";
import { planTaskPin } from "@cc/messages/internal";

/**
 * The outcome of one compaction. The caller's `messages` array is never modified.
 *
 * @example
 * const r = await compactor.compact(history, { maxTokens: 8000 })();
 * if (r._tag === "Right" && r.right.warnings.length > 0) console.warn(describeWarnings(r.right.warnings));
 */
export interface CompactionResult {
  /** The summary of the compacted head ("" when nothing was compacted). */
  readonly summary: string;
  /**
   * The messages kept verbatim before the summary: the leading system messages, then the task
   * when it is pinned (see `task`).
   */
  readonly system: readonly Message[];
  /** The preserved tail, kept verbatim. */
  readonly messages: readonly Message[];
  readonly level: Level;
  /** Tokens of the whole input. */
  readonly originalTokens: number;
  /** Tokens of system + summary message + tail. */
  readonly compactedTokens: number;
  /** `compactedTokens / originalTokens` (1 when nothing was compacted or the input is empty). */
  readonly ratio: number;
  readonly messagesCompacted: number;
  readonly messagesPreserved: number;
  /** The summary model used or attempted ("" when none). */
  readonly model: string;
  /** Every level attempted and why it was rejected. */
  readonly attempts: readonly Attempt[];
  /** True when the next context fits the budget: `compactedTokens ≤ maxTokens`. */
  readonly budgetMet: boolean;
  /** How the verbatim tail was chosen against the budget. */
  readonly tail: TailDecision;
  /** What became of the task (the first user message) with `pinTask` on: pinned, too large to pin, or not pinned. */
  readonly task: TaskPin;
  /**
   * Why compaction did nothing, fell to truncation or missed the budget, and alerts the sink could
   * not take, in that order ([] when there is nothing to say). `describeWarnings` gives one line.
   */
  readonly warnings: readonly CompactionWarning[];
}

/**
 * How the verbatim tail was chosen. `requested` is the number of messages `preserveLast` keeps
 * after the safe-split adjustment; `preserved` the number kept.
 * - `TailKept`: the requested tail left the summary enough room (or the context already fit).
 * - `TailShortened`: the split moved forward over safe boundaries so the summary gets at least
 *   {@link minSummaryBudget} tokens (or all its source needs).
 * - `TailExceedsBudget`: even the last step alone (system + tail + summary overhead =
 *   `tailTokens`) leaves less than the minimum summary budget; the summary was given that minimum
 *   anyway and the result misses `maxTokens` (`budgetMet` is false).
 *
 * @example
 * if (result.tail._tag === "TailExceedsBudget") console.warn(`the last step alone takes ${result.tail.tailTokens} of ${result.tail.maxTokens} tokens`);
 */
export type TailDecision =
  | { readonly _tag: "TailKept"; readonly requested: number; readonly preserved: number }
  | { readonly _tag: "TailShortened"; readonly requested: number; readonly preserved: number }
  | {
      readonly _tag: "TailExceedsBudget";
      readonly requested: number;
      readonly preserved: number;
      readonly tailTokens: number;
      readonly maxTokens: number;
      readonly minSummaryTokens: number;
    };

/**
 * The least room a summary is guaranteed before the tail is shortened: `max(256, 10% of
 * maxTokens)`, but never more than half of `maxTokens` (at least 1).
 *
 * @example minSummaryBudget(8000) // 800; minSummaryBudget(1000) // 256; minSummaryBudget(300) // 150
 */
export function minSummaryBudget(maxTokens: number): number {
  return Math.max(1, Math.min(Math.max(256, Math.ceil(maxTokens / 10)), Math.floor(maxTokens / 2)));
}

/**
 * Why compaction returned no result: bad options (`InvalidOptions`), messages that are not a
 * message array (`InvalidInput`, subject "messages": null, a message without content, a hole in a
 * sparse array), or an abort.
 *
 * @example
 * const r = await compactor.compact(history, { maxTokns: 8000 } as never)();
 * if (r._tag === "Left" && r.left._tag === "InvalidOptions") console.error(r.left.message);
 */
export type CompactError = InvalidOptions | InvalidInput | CompactionAborted;

/**
 * Options of {@link createLcmCompactor}; only `provider` is commonly set. Decoded by a closed codec:
 * an unknown field, NaN, ±Infinity or an out-of-range value makes {@link createLcmCompactor}
 * throw a `CcError` (from @cc/validate) carrying `InvalidOptions` with subject "compactor options".
 *
 * @example
 * const options: LcmCompactorOptions = { provider: offlineProvider(), timeoutMs: 30_000 };
 */
export interface LcmCompactorOptions {
  /**
   * Summariser for levels 1–2 (e.g. `offlineProvider()` or `openAICompatibleProvider(...)`); none → truncation only.
   * @default none
   */
  readonly provider?: Provider;
  /**
   * Token counter. `budgetMet` is only as exact as this counter: with the default it means the
   * next context's exact count is within `maxTokens`.
   * @default `tiktokenCounter()` of `@cc/tokens` (the exact count, pure TypeScript)
   */
  readonly counter?: TokenCounter;
  /**
   * Clock (epoch ms), read once per compaction (alert times).
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * Timeout of one summary call in ms (integer ≥ 1).
   * @default 60000
   */
  readonly timeoutMs?: number;
  /**
   * Temperature of summary calls, in [0, 2].
   * @default 0.2
   */
  readonly temperature?: number;
  /**
   * Receives `compaction_skip` and `budget_exceeded` alerts.
   * @default none
   */
  readonly alertSink?: AlertSink;
  /**
   * Session the alerts are tagged with.
   * @default ""
   */
  readonly sessionId?: string;
}

/** Closed codec of {@link LcmCompactorOptions}. */
export const LcmCompactorOptionsCodec = objectCodec(
  "LcmCompactorOptions",
  {},
  {
    provider: withMethods<Provider>("Provider", ["complete", "listModels"], "a provider (complete, listModels)"),
    counter: withMethods<TokenCounter>(
      "TokenCounter",
      ["count", "countMessages"],
      "a token counter (count, countMessages)",
    ),
    now: callback<() => number>(),
    timeoutMs: positiveInt,
    temperature: numberIn(0, 2),
    alertSink: withMethods<AlertSink>("AlertSink", ["alert"], "an alert sink (alert)"),
    sessionId: t.string,
  },
  { expected: "an options object" },
);

const decodeCompactorOptions = decodeWith(LcmCompactorOptionsCodec, "InvalidOptions", "compactor options");

/**
 * The compactor's public surface.
 *
 * @example
 * const lcm: LcmCompactor = createLcmCompactor({ provider: offlineProvider() });
 * if (E.isRight(lcm.shouldCompact(history, { maxTokens: 8000 }))) await lcm.compact(history, { maxTokens: 8000 })();
 */
export interface LcmCompactor {
  /**
   * Compacts `messages` under `options` (partial, merged over the defaults and validated). The
   * messages are decoded first: anything that is not a message array resolves to
   * `Left(InvalidInput)` with subject "messages" (never a rejection).
   */
  compact(
    messages: readonly Message[],
    options?: Partial<CompactOptions>,
    signal?: AbortSignal,
  ): TaskEither<CompactError, CompactionResult>;
  /** Tokens `messages` occupy in context (the messages must be valid, e.g. from `decodeMessages`). */
  estimateUsage(messages: readonly Message[]): number;
  /** Usage as a fraction of `maxTokens` and the pressure it represents; invalid messages are `Left(InvalidInput)`. */
  shouldCompact(
    messages: readonly Message[],
    options?: Partial<CompactOptions>,
  ): E.Either<InvalidOptions | InvalidInput, ContextUsage>;
}

/**
 * The next prompt after `result`: system messages, the summary message (if any), the preserved tail.
 *
 * @example
 * const r = await compactor.compact(history, { maxTokens: 8000 })();
 * const next = r._tag === "Right" ? nextContext(r.right) : history;
 */
export function nextContext(result: CompactionResult): readonly Message[] {
  return result.summary === ""
    ? [...result.system, ...result.messages]
    : [...result.system, summaryMessage(result.summary), ...result.messages];
}

/**
 * Creates an LCM compactor. Invalid options throw a `CcError` (from @cc/validate) carrying the
 * `InvalidOptions`, naming every field at fault.
 *
 * @example
 * const compactor = createLcmCompactor({ provider: offlineProvider() });
 * const r = await compactor.compact(history, { maxTokens: 8000, preserveLast: 6 })();
 */
export function createLcmCompactor(options: LcmCompactorOptions = {}): LcmCompactor {
  decodeOrThrow(decodeCompactorOptions, options);
  const deps = options;
  const counter = deps.counter ?? tiktokenCounter();
  const now = deps.now ?? Date.now;
  const timeoutMs = deps.timeoutMs ?? 60_000;
  const temperature = deps.temperature ?? 0.2;
  const sink: AlertSink | undefined = deps.alertSink;
  const sessionId = deps.sessionId ?? "";
  const tokensOf = (messages: readonly Message[]): number =>
    messages.length === 0 ? 0 : counter.countMessages(messages);
  // Per-request overhead (reply priming) is counted once per request, not once per part.
  const partOf = (messages: readonly Message[]): number =>
    messages.length === 0 ? 0 : counter.countMessages(messages) - counter.countMessages([]);

  const compact =
    (
      raw: readonly Message[],
      input: Partial<CompactOptions> = {},
      signal?: AbortSignal,
    ): TaskEither<CompactError, CompactionResult> =>
    async () => {
      const decoded = decodeCompactOptions(input);
      if (E.isLeft(decoded)) return decoded;
      const valid = decodeMessages(raw);
      if (E.isLeft(valid)) return valid;
      const given = valid.right;
      const options = decoded.right;
      if (signal?.aborted === true) return E.left({ _tag: "CompactionAborted" });
      const at = now();
      const givenSys = leadingSystemCount(given);
      // A pinned task joins the verbatim prefix: it moves up to just after the system messages (over
      // any earlier summary, which is folded into the new one) and is counted like them.
      const task = planTaskPin(given, { enabled: options.pinTask, targetTokens: options.maxTokens }, (i) =>
        partOf([given[i]!]),
      );
      const messages =
        task._tag === "Pinned"
          ? [
              ...given.slice(0, givenSys),
              given[task.index]!,
              ...given.slice(givenSys, task.index),
              ...given.slice(task.index + 1),
            ]
          : given;
      const sys = task._tag === "Pinned" ? givenSys + 1 : givenSys;
      const system = messages.slice(0, sys);
      const originalTokens = tokensOf(messages);
      // The summary travels in a message of its own: its overhead is charged against the budget, so a
      // summary accepted as "smaller than its source" also makes the whole context smaller.
      const overhead = partOf([summaryMessage("")]);
      const minSummary = minSummaryBudget(options.maxTokens);
      const estimate = budgetEstimator(messages, sys, counter);
      // A split fits when its head is worth condensing and the summary gets its minimum room (or all
      // its source could need); a context already within budget keeps the requested tail.
      const fits = (split: number): boolean => {
        if (originalTokens <= options.maxTokens) return true;
        const source = estimate.head(split) - overhead;
        const room = options.maxTokens - estimate.rest(split) - overhead;
        return split > sys && source >= 2 && room >= Math.min(minSummary, source - 1);
      };
      const plan = planTail(messages, options.preserveLast, fits);
      const split = plan.split;
      const head = messages.slice(sys, split);
      const tail = messages.slice(split);
      const requested = messages.length - plan.requested;
      const restTokens = tokensOf([...system, ...tail]);
      const tailDecision: TailDecision = !plan.fits
        ? {
            _tag: "TailExceedsBudget",
            requested,
            preserved: tail.length,
            tailTokens: restTokens + overhead,
            maxTokens: options.maxTokens,
            minSummaryTokens: minSummary,
          }
        : split > plan.requested
          ? { _tag: "TailShortened", requested, preserved: tail.length }
          : { _tag: "TailKept", requested, preserved: tail.length };
      const overBudget: CompactionWarning | undefined =
        tailDecision._tag === "TailExceedsBudget"
          ? {
              _tag: "TailExceedsBudget",
              tailTokens: tailDecision.tailTokens,
              maxTokens: options.maxTokens,
              minSummaryTokens: minSummary,
              message: `the last step alone takes ${tailDecision.tailTokens} of ${options.maxTokens} tokens, leaving less than the minimum summary budget of ${minSummary}`,
            }
          : undefined;
      const withOverBudget = (w: CompactionWarning): readonly CompactionWarning[] =>
        overBudget === undefined ? [w] : [w, overBudget];
      // Nothing compacted: the input as given (the task is not moved).
      const unchanged = (reason: Extract<CompactionWarning, { _tag: "NothingCompacted" }>): CompactionResult => ({
        summary: "",
        system: given.slice(0, givenSys),
        messages: given.slice(givenSys),
        level: "none",
        originalTokens,
        compactedTokens: originalTokens,
        ratio: 1,
        messagesCompacted: 0,
        messagesPreserved: given.length - givenSys,
        model: "",
        attempts: [],
        budgetMet: originalTokens <= options.maxTokens,
        tail: { ...tailDecision, preserved: given.length - givenSys },
        task: { _tag: "NotPinned" },
        warnings: withOverBudget(reason),
      });
      // Every result that misses the budget is reported to the sink; a failing sink only adds a warning.
      const alertIfOverBudget = async (result: CompactionResult, reason: string): Promise<CompactionResult> => {
        if (result.budgetMet || sink === undefined) return result;
        const failure = await deliverAlert(sink, {
          kind: "budget_exceeded",
          sessionId,
          at,
          maxTokens: options.maxTokens,
          originalTokens: result.originalTokens,
          compactedTokens: result.compactedTokens,
          reason,
        });
        return failure === undefined
          ? result
          : { ...result, warnings: [...result.warnings, notDelivered("budget_exceeded", failure)] };
      };
      const unchangedBy = async (
        reason: Extract<CompactionWarning, { _tag: "NothingCompacted" }>,
      ): Promise<CompactionResult> => {
        const result = unchanged(reason);
        return alertIfOverBudget(result, describeWarnings(result.warnings) ?? reason.message);
      };
      if (head.length === 0) {
        return E.right(
          await unchangedBy(
            split === sys && messages.length > sys
              ? {
                  _tag: "NothingCompacted",
                  reason: "only_tail",
                  message: "nothing before the preserved tail can be compacted",
                }
              : { _tag: "NothingCompacted", reason: "no_messages", message: "no messages to compact" },
          ),
        );
      }
      const sourceTokens = partOf(head) - overhead;
      const room = options.maxTokens - restTokens - overhead;
      // Never a summary squeezed to a token: past the floor the summary keeps its minimum budget.
      const target = Math.min(sourceTokens - 1, plan.fits ? Math.max(1, room) : minSummary);
      if (target < 1)
        return E.right(
          await unchangedBy({
            _tag: "NothingCompacted",
            reason: "too_small",
            message: "the messages before the tail are too small to condense",
          }),
        );
      const model =
        deps.provider === undefined
          ? E.left("no provider")
          : await chooseCompactionModel(deps.provider, options.compactionModel, options.strength)().then((r) =>
              E.isLeft(r)
                ? E.left(
                    r.left._tag === "NoCompactionModel"
                      ? r.left.message
                      : `listing models failed: ${r.left.error._tag}`,
                  )
                : r,
            );
      const escalated = await escalate({
        source: head,
        sourceTokens,
        target,
        counter,
        provider: deps.provider,
        model,
        temperature,
        timeoutMs,
        ...(signal === undefined ? {} : { signal }),
      })();
      if (E.isLeft(escalated)) return escalated;
      const { level, summary, attempts } = escalated.right;
      const compactedTokens = tokensOf([...system, summaryMessage(summary), ...tail]);
      let warnings: readonly CompactionWarning[] = overBudget === undefined ? [] : [overBudget];
      let skipFailure: AlertDeliveryFailure | undefined;
      if (level === "truncate") {
        const rejections = attempts.filter((a) => !a.accepted).map((a) => `${a.level}: ${describeRejection(a)}`);
        warnings = withOverBudget({
          _tag: "FellToTruncation",
          rejections,
          message: `fell to truncation (${rejections.join("; ")})`,
        });
        if (sink !== undefined) {
          skipFailure = await deliverAlert(sink, {
            kind: "compaction_skip",
            sessionId,
            at,
            reason: describeWarnings(warnings) ?? "fell to truncation",
            attempts,
            originalTokens,
            compactedTokens,
          });
        }
      }
      const described = describeWarnings(warnings);
      const budgetReason =
        overBudget?.message ??
        `the compacted context takes ${compactedTokens} of ${options.maxTokens} tokens${described === undefined ? "" : ` (${described})`}`;
      if (skipFailure !== undefined) warnings = [...warnings, notDelivered("compaction_skip", skipFailure)];
      const result: CompactionResult = {
        summary,
        system,
        messages: tail,
        level,
        originalTokens,
        compactedTokens,
        ratio: originalTokens === 0 ? 1 : compactedTokens / originalTokens,
        messagesCompacted: head.length,
        messagesPreserved: tail.length,
        model: E.isRight(model) ? model.right : "",
        attempts,
        budgetMet: compactedTokens <= options.maxTokens,
        tail: tailDecision,
        task,
        warnings,
      };
      return E.right(await alertIfOverBudget(result, budgetReason));
    };

  return {
    compact,
    estimateUsage: tokensOf,
    shouldCompact: (messages, input = {}) => {
      const options = decodeCompactOptions(input);
      if (E.isLeft(options)) return options;
      const valid = decodeMessages(messages);
      return E.isLeft(valid) ? valid : E.right(pressureOf(tokensOf(valid.right), options.right));
    },
  };
}

/** The warning for an alert the sink could not take. */
function notDelivered(kind: "compaction_skip" | "budget_exceeded", failure: AlertDeliveryFailure): CompactionWarning {
  return { _tag: "AlertNotDelivered", kind, message: failure.message };
}

/**
 * Token estimates for candidate splits from per-message costs (exact for counters that add up
 * per message, like every `@cc/tokens` counter): `head(split)` is the compacted part as counted
 * in a request of its own, `rest(split)` the system prefix plus the tail. Linear setup, O(1) per query.
 */
function budgetEstimator(
  messages: readonly Message[],
  sys: number,
  counter: TokenCounter,
): { head(split: number): number; rest(split: number): number } {
  const probe: Message = { role: "user", content: "" };
  const perRequest = Math.max(0, 2 * counter.countMessages([probe]) - counter.countMessages([probe, probe]));
  const prefix: number[] = [0];
  for (const m of messages) prefix.push(prefix[prefix.length - 1]! + counter.countMessages([m]) - perRequest);
  const sum = (from: number, to: number): number => prefix[to]! - prefix[from]!;
  const n = messages.length;
  return {
    head: (split) => (split > sys ? perRequest + sum(sys, split) : 0),
    rest: (split) => (sys > 0 || split < n ? perRequest + sum(0, sys) + sum(split, n) : 0),
  };
}

/** One line describing why an attempt was rejected. */
export function describeRejection(attempt: Attempt): string {
  const r = attempt.rejection;
  if (r === undefined) return "accepted";
  switch (r._tag) {
    case "Empty":
      return "empty summary";
    case "OverTarget":
      return `${r.tokens} tokens over the target of ${r.target}`;
    case "NotSmaller":
      return `${r.tokens} tokens, not smaller than the source's ${r.sourceTokens}`;
    case "ProviderFailed":
      return `provider error ${r.error._tag}${"message" in r.error ? `: ${r.error.message}` : ""}`;
    case "Skipped":
      return `skipped (${r.reason})`;
  }
}
