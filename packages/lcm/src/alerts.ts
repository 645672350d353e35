/**
 * Alerts the compactor raises. A `compaction_skip` alert says compaction fell to truncation (no
 * LLM summary was accepted, so context was cut rather than condensed). A `budget_exceeded` alert
 * says the next context is still larger than `maxTokens` (the result's `budgetMet` is false), e.g.
 * because even the last step of the conversation does not fit. Sinks are user code:
 * a sink that throws or rejects is caught and reported, never allowed to break compaction.
 *
 * @module alerts
 */
import type { Attempt } from "./escalation.js";
import { createRedactor } from "./providers/redact.js";

const redact = createRedactor();

/**
 * Raised when compaction falls to level-3 truncation.
 *
 * @example
 * const sink = memoryAlertSink();
 * // after a compaction that fell to truncation:
 * sink.alerts.filter((a) => a.kind === "compaction_skip");
 */
export interface CompactionSkipAlert {
  readonly kind: "compaction_skip";
  /** The session the compactor was created with (`sessionId`) ("" when none). */
  readonly sessionId: string;
  /** Epoch milliseconds, read once per compaction from the injected clock. */
  readonly at: number;
  /** Why the LLM levels were not used, one line. */
  readonly reason: string;
  /** Every level attempted, in order. */
  readonly attempts: readonly Attempt[];
  readonly originalTokens: number;
  readonly compactedTokens: number;
}

/**
 * Raised whenever a compaction result has `budgetMet: false` (`compactedTokens > maxTokens`),
 * whatever the level; after any `compaction_skip` alert of the same compaction.
 *
 * @example sink.alerts.filter((a): a is BudgetExceededAlert => a.kind === "budget_exceeded").map((a) => a.reason)
 */
export interface BudgetExceededAlert {
  readonly kind: "budget_exceeded";
  /** The session the compactor was created with (`sessionId`) ("" when none). */
  readonly sessionId: string;
  /** Epoch milliseconds, read once per compaction from the injected clock. */
  readonly at: number;
  /** The budget that was missed. */
  readonly maxTokens: number;
  /** Tokens of the input. */
  readonly originalTokens: number;
  /** Tokens of the next context after compaction (greater than `maxTokens`). */
  readonly compactedTokens: number;
  /** Why the budget was missed, one line. */
  readonly reason: string;
}

/**
 * Any alert the compactor raises; switch on `kind`.
 *
 * @example const sink: AlertSink = { alert: (a: CompactionAlert) => console.warn(a.kind, a.sessionId) };
 */
export type CompactionAlert = CompactionSkipAlert | BudgetExceededAlert;

/**
 * Receives compaction alerts (e.g. writes them to a journal or a metrics system).
 *
 * @example
 * const counts = new Map<string, number>();
 * createLcmCompactor({ alertSink: { alert: (a) => void counts.set(a.kind, (counts.get(a.kind) ?? 0) + 1) }, sessionId: "s1" })
 */
export interface AlertSink {
  alert(alert: CompactionAlert): void | Promise<void>;
}

/** A sink failed; compaction went on. */
export interface AlertDeliveryFailure {
  readonly _tag: "AlertDeliveryFailure";
  readonly message: string;
}

/** How long compaction waits for a sink's promise before going on without it (ms). */
export const ALERT_TIMEOUT_MS = 1000;

/**
 * Delivers `alert` to `sink`, catching a throw or a rejection, and waiting at most `timeoutMs` for
 * a sink that returns a promise (a promise that never settles cannot hang compaction). Resolves
 * to the failure, if any.
 */
export async function deliverAlert(
  sink: AlertSink,
  alert: CompactionAlert,
  timeoutMs: number = ALERT_TIMEOUT_MS,
): Promise<AlertDeliveryFailure | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const pending = sink.alert(alert);
    if (pending === undefined || typeof (pending as { then?: unknown }).then !== "function") return undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const outcome = await Promise.race([Promise.resolve(pending).then(() => "done" as const), timedOut]);
    return outcome === "timeout"
      ? { _tag: "AlertDeliveryFailure", message: `alert sink did not settle within ${timeoutMs} ms` }
      : undefined;
  } catch (e) {
    return {
      _tag: "AlertDeliveryFailure",
      message: redact(`alert sink failed: ${e instanceof Error ? e.message : String(e)}`).slice(0, 2000),
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/**
 * An in-memory sink that records every alert (for tests and dashboards).
 *
 * @example const sink: MemoryAlertSink = memoryAlertSink(); sink.alerts.length // 0
 */
export interface MemoryAlertSink extends AlertSink {
  readonly alerts: readonly CompactionAlert[];
}

/**
 * Creates a {@link MemoryAlertSink}.
 *
 * @example const sink = memoryAlertSink(); const compactor = createLcmCompactor({ alertSink: sink, sessionId: "s1" }); sink.alerts.length
 */
export function memoryAlertSink(): MemoryAlertSink {
  const alerts: CompactionAlert[] = [];
  return {
    alerts,
    alert: (a) => {
      alerts.push(a);
    },
  };
}
