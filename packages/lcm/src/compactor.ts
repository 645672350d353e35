/**
 * The LCM compactor: measures context pressure and, when asked, condenses the older part of a
 * conversation by escalation while keeping leading system messages and the recent tail verbatim.
 *
 * @module compactor
 */
import { estimateCounter, type TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { deliverAlert, type AlertDeliveryFailure, type AlertSink } from "./alerts.js";
import { escalate, type Attempt, type CompactionAborted, type Level } from "./escalation.js";
import type { Message } from "./message.js";
import { chooseCompactionModel } from "./model-choice.js";
import { decodeCompactOptions, type CompactOptions, type InvalidOptions } from "./options.js";
import { pressureOf, type ContextUsage } from "./pressure.js";
import type { Provider } from "./providers/provider.js";
import { leadingSystemCount, safeSplit } from "./split.js";

/** The outcome of one compaction. The caller's `messages` array is never modified. */
export interface CompactionResult {
  /** The summary of the compacted head ("" when nothing was compacted). */
  readonly summary: string;
  /** Leading system messages, kept verbatim. */
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
  /** Why compaction did nothing or fell to truncation, or why the alert sink failed. */
  readonly error?: string;
}

/** Why compaction returned no result. */
export type CompactError = InvalidOptions | CompactionAborted;

/** Dependencies of {@link createLcmCompactor}; only `provider` is commonly set. */
export interface LcmCompactorDeps {
  /** Summariser for levels 1–2 (e.g. `offlineProvider()` or `openAICompatibleProvider(...)`); none → truncation only. */
  readonly provider?: Provider;
  /** Token counter. Default: the weighted estimate of `@cc/tokens` (fast, no WASM). */
  readonly counter?: TokenCounter;
  /** Clock (epoch ms), read once per compaction. Default `Date.now`. */
  readonly now?: () => number;
  /** Timeout of one summary call in ms. Default 60000. */
  readonly timeoutMs?: number;
  /** Temperature of summary calls. Default 0.2. */
  readonly temperature?: number;
}

/** The compactor's public surface. */
export interface LcmCompactor {
  /** Compacts `messages` under `options` (partial, merged over the defaults and validated). */
  compact(messages: readonly Message[], options?: Partial<CompactOptions>, signal?: AbortSignal): TaskEither<CompactError, CompactionResult>;
  /** Tokens `messages` occupy in context. */
  estimateUsage(messages: readonly Message[]): number;
  /** Usage as a fraction of `maxTokens` and the pressure it represents. */
  shouldCompact(messages: readonly Message[], options?: Partial<CompactOptions>): E.Either<InvalidOptions, ContextUsage>;
  /** Routes `compaction_skip` alerts to `sink`, tagged with `sessionId`. */
  setAlertSink(sink: AlertSink | undefined, sessionId?: string): void;
}

/** Prefix of the message that carries a summary into the next prompt. */
export const SUMMARY_PREFIX = "Summary of the earlier conversation (reference only):\n";

/** The message that carries `summary` into the next prompt. */
export function summaryMessage(summary: string): Message {
  return { role: "user", content: `${SUMMARY_PREFIX}${summary}` };
}

/** The next prompt after `result`: system messages, the summary message (if any), the preserved tail. */
export function nextContext(result: CompactionResult): readonly Message[] {
  return result.summary === "" ? [...result.system, ...result.messages] : [...result.system, summaryMessage(result.summary), ...result.messages];
}

/**
 * Creates an LCM compactor.
 *
 * @example
 * const compactor = createLcmCompactor({ provider: offlineProvider() });
 * const r = await compactor.compact(messages, { maxTokens: 8000, preserveLast: 6 })();
 */
export function createLcmCompactor(deps: LcmCompactorDeps = {}): LcmCompactor {
  const counter = deps.counter ?? estimateCounter();
  const now = deps.now ?? Date.now;
  const timeoutMs = deps.timeoutMs ?? 60_000;
  const temperature = deps.temperature ?? 0.2;
  let sink: AlertSink | undefined;
  let sessionId = "";
  const tokensOf = (messages: readonly Message[]): number => (messages.length === 0 ? 0 : counter.countMessages(messages));
  // Per-request overhead (reply priming) is counted once per request, not once per part.
  const partOf = (messages: readonly Message[]): number => (messages.length === 0 ? 0 : counter.countMessages(messages) - counter.countMessages([]));

  const compact = (messages: readonly Message[], input: Partial<CompactOptions> = {}, signal?: AbortSignal): TaskEither<CompactError, CompactionResult> => async () => {
    const decoded = decodeCompactOptions(input);
    if (E.isLeft(decoded)) return decoded;
    const options = decoded.right;
    if (signal?.aborted === true) return E.left({ _tag: "CompactionAborted" });
    const at = now();
    const sys = leadingSystemCount(messages);
    const split = safeSplit(messages, options.preserveLast);
    const system = messages.slice(0, sys);
    const head = messages.slice(sys, split);
    const tail = messages.slice(split);
    const originalTokens = tokensOf(messages);
    const unchanged = (error: string): CompactionResult => ({
      summary: "", system, messages: messages.slice(sys), level: "none", originalTokens,
      compactedTokens: originalTokens, ratio: 1, messagesCompacted: 0, messagesPreserved: messages.length - sys, model: "", attempts: [], error,
    });
    if (head.length === 0) return E.right(unchanged(split === sys && messages.length > sys ? "nothing before the preserved tail can be compacted" : "no messages to compact"));
    // The summary travels in a message of its own: its overhead is charged against the budget, so a
    // summary accepted as "smaller than its source" also makes the whole context smaller.
    const overhead = partOf([summaryMessage("")]);
    const sourceTokens = partOf(head) - overhead;
    const room = options.maxTokens - tokensOf([...system, ...tail]) - overhead;
    const target = Math.min(sourceTokens - 1, Math.max(1, room));
    if (target < 1) return E.right(unchanged("the messages before the tail are too small to condense"));
    const model = deps.provider === undefined
      ? E.left("no provider")
      : await chooseCompactionModel(deps.provider, options.compactionModel, options.strength)().then((r) =>
          E.isLeft(r) ? E.left(r.left._tag === "NoCompactionModel" ? r.left.message : `listing models failed: ${r.left.error._tag}`) : r,
        );
    const escalated = await escalate({
      source: head, sourceTokens, target, counter, provider: deps.provider, model, temperature, timeoutMs, ...(signal === undefined ? {} : { signal }),
    })();
    if (E.isLeft(escalated)) return escalated;
    const { level, summary, attempts } = escalated.right;
    const compactedTokens = tokensOf([...system, summaryMessage(summary), ...tail]);
    let error: string | undefined;
    if (level === "truncate") {
      const reasons = attempts.filter((a) => !a.accepted).map((a) => `${a.level}: ${describeRejection(a)}`);
      error = `fell to truncation (${reasons.join("; ")})`;
      if (sink !== undefined) {
        const failure: AlertDeliveryFailure | undefined = await deliverAlert(sink, {
          kind: "compaction_skip", sessionId, at, reason: error, attempts, originalTokens, compactedTokens,
        });
        if (failure !== undefined) error = `${error}; ${failure.message}`;
      }
    }
    const result: CompactionResult = {
      summary, system, messages: tail, level, originalTokens, compactedTokens,
      ratio: originalTokens === 0 ? 1 : compactedTokens / originalTokens,
      messagesCompacted: head.length, messagesPreserved: tail.length,
      model: E.isRight(model) ? model.right : "", attempts,
      ...(error === undefined ? {} : { error }),
    };
    return E.right(result);
  };

  return {
    compact,
    estimateUsage: tokensOf,
    shouldCompact: (messages, input = {}) => E.map((o: CompactOptions) => pressureOf(tokensOf(messages), o))(decodeCompactOptions(input)),
    setAlertSink: (s, id = "") => {
      sink = s;
      sessionId = id;
    },
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
