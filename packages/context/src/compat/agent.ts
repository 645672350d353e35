/**
 * `AgentCompactor` of the Go original, kept as a thin compatibility layer over the context
 * manager (strategy `lcm`): the `HistoryStrategy` an agent loop calls, plus the original's
 * setters. New code passes everything to `createContextManager` at construction instead.
 *
 * @module compat/agent
 */
import type { AlertSink } from "@cc/lcm";
import type { Provider } from "@cc/messages";
import type { TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { decodeWith, objectCodec } from "@cc/validate";
import { decodeContextManager } from "../manager.js";
import { ContextManagerOptionsCodec } from "../options.js";
import { withoutSummary, type HistoryStrategy } from "./factory.js";

/** {@link HistoryStrategy} with the Go original's setters. */
export interface AgentCompactor extends HistoryStrategy {
  /** Routes `compaction_skip` and `budget_exceeded` alerts to `sink` (tagged with `sessionId`). */
  setAlertSink(sink: AlertSink | undefined, sessionId?: string): void;
  /** Overrides the summary model; "" restores automatic choice. */
  setCompactionModel(model: string): void;
}

/** Options of {@link createAgentCompactor}. */
export interface AgentCompactorOptions {
  /** Summariser (default: the offline summariser). */
  readonly provider?: Provider;
  /** Token counter (default: exact tiktoken counts). */
  readonly counter?: TokenCounter;
  readonly now?: () => number;
  /** Trailing messages kept verbatim. @default 20 */
  readonly preserveLast?: number;
  /** Summary model ("" picks the cheapest listed). @default "" */
  readonly compactionModel?: string;
}

const managerFields = ContextManagerOptionsCodec.optional;
/** Closed codec of {@link AgentCompactorOptions}: each field checked by the context manager's codec of the same field. */
export const AgentCompactorOptionsCodec = objectCodec(
  "AgentCompactorOptions",
  {},
  {
    provider: managerFields.provider,
    counter: managerFields.counter,
    now: managerFields.now,
    preserveLast: managerFields.preserveLast,
    compactionModel: managerFields.summaryModel,
  },
  { expected: "an options object" },
);
const decodeNames = decodeWith(AgentCompactorOptionsCodec, "InvalidOptions", "agent compactor options");

/**
 * Creates an {@link AgentCompactor}. Invalid options (an unknown key, a bad value) make every
 * `compact` return `Left(InvalidOptions)` naming the field.
 *
 * @example
 * const agent = createAgentCompactor({ provider: offlineProvider(), preserveLast: 6 });
 * const r = await agent.compact(history, "gpt-4o-mini", 8000)();
 */
export function createAgentCompactor(options: AgentCompactorOptions = {}): AgentCompactor {
  let summaryModel = options.compactionModel ?? "";
  let alertSink: AlertSink | undefined;
  let namespace = "default";
  return {
    compact: (messages, _model, maxTokens, signal) => async () => {
      const names = decodeNames(options);
      if (E.isLeft(names)) return names;
      const manager = decodeContextManager({
        maxTokens,
        strategy: "lcm",
        threshold: 1,
        preserveLast: options.preserveLast ?? 20,
        summaryModel,
        namespace,
        ...(options.provider === undefined ? {} : { provider: options.provider }),
        ...(options.counter === undefined ? {} : { counter: options.counter }),
        ...(options.now === undefined ? {} : { now: options.now }),
        ...(alertSink === undefined ? {} : { alertSink }),
      });
      if (E.isLeft(manager)) return manager;
      const r = await manager.right.compactTE(messages, { force: true, ...(signal === undefined ? {} : { signal }) })();
      return E.map((t: { messages: typeof messages; summary: string }) => ({
        messages: withoutSummary(t.messages, t.summary),
        summary: t.summary,
      }))(r);
    },
    setAlertSink: (sink, sessionId) => {
      alertSink = sink;
      namespace = sessionId === undefined || sessionId === "" ? "default" : sessionId;
    },
    setCompactionModel: (model) => {
      summaryModel = model;
    },
  };
}
