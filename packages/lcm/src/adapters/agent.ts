/**
 * Agent-facing adapters of the compactor: `HistoryStrategy` (the shape agent loops call) and
 * `AgentCompactor`, which implements it with the LCM escalation.
 *
 * @module adapters/agent
 */
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import type { AlertSink } from "../alerts.js";
import type { CompactError, LcmCompactor } from "../compactor.js";
import type { Message } from "../message.js";
import type { CompactOptions } from "../options.js";

/** What a history strategy returns: the messages to keep (system + tail) and the summary of the rest. */
export interface HistoryCompaction {
  readonly messages: readonly Message[];
  readonly summary: string;
}

/** A way to shrink an agent's history to fit `maxTokens` for `model`. */
export interface HistoryStrategy {
  compact(messages: readonly Message[], model: string, maxTokens: number, signal?: AbortSignal): TaskEither<CompactError, HistoryCompaction>;
}

/** {@link HistoryStrategy} backed by an {@link LcmCompactor}. */
export interface AgentCompactor extends HistoryStrategy {
  /** Routes `compaction_skip` and `budget_exceeded` alerts to `sink`. */
  setAlertSink(sink: AlertSink | undefined, sessionId?: string): void;
  /** Overrides the summary model; "" restores automatic choice. */
  setCompactionModel(model: string): void;
}

/**
 * Creates an {@link AgentCompactor}. `defaults` fill the options other than model and maxTokens.
 *
 * @example
 * const agent = createAgentCompactor(createLcmCompactor({ provider: offlineProvider() }), { preserveLast: 6 });
 * const r = await agent.compact(history, "gpt-4o-mini", 8000)();
 */
export function createAgentCompactor(compactor: LcmCompactor, defaults: Partial<CompactOptions> = {}): AgentCompactor {
  let compactionModel = defaults.compactionModel ?? "";
  return {
    compact: (messages, model, maxTokens, signal) => async () => {
      const result = await compactor.compact(messages, { ...defaults, model, maxTokens, compactionModel }, signal)();
      return E.map((r: { system: readonly Message[]; messages: readonly Message[]; summary: string }) => ({
        messages: [...r.system, ...r.messages],
        summary: r.summary,
      }))(result);
    },
    setAlertSink: (sink, sessionId) => compactor.setAlertSink(sink, sessionId),
    setCompactionModel: (model) => {
      compactionModel = model;
    },
  };
}
