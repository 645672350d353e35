/**
 * Typed warnings of a compaction result: why compaction did nothing, fell to truncation or missed
 * the budget, and alerts the sink could not take — each with a readable `message`.
 *
 * @module warnings
 */

/**
 * Something a compaction result should be read with. Every variant carries `message`, one
 * readable line; {@link describeWarnings} joins them.
 *
 * - `NothingCompacted`: the result is the input unchanged (`reason` says why).
 * - `FellToTruncation`: every summary level was rejected; `rejections` lists each as "level: why".
 * - `TailExceedsBudget`: the last step alone leaves less than the minimum summary budget.
 * - `AlertNotDelivered`: the alert sink failed or did not settle for an alert of `kind`.
 *
 * @example
 * const w: CompactionWarning = { _tag: "NothingCompacted", reason: "no_messages", message: "no messages to compact" };
 */
export type CompactionWarning =
  | {
      readonly _tag: "NothingCompacted";
      readonly reason: "no_messages" | "only_tail" | "too_small";
      readonly message: string;
    }
  | { readonly _tag: "FellToTruncation"; readonly rejections: readonly string[]; readonly message: string }
  | {
      readonly _tag: "TailExceedsBudget";
      readonly tailTokens: number;
      readonly maxTokens: number;
      readonly minSummaryTokens: number;
      readonly message: string;
    }
  | {
      readonly _tag: "AlertNotDelivered";
      readonly kind: "compaction_skip" | "budget_exceeded";
      readonly message: string;
    };

/**
 * One readable line for a list of warnings ("; "-joined messages), or `undefined` when there are none.
 *
 * @example describeWarnings(result.warnings) // "fell to truncation (detailed: empty summary; bullets: empty summary)"
 */
export function describeWarnings(warnings: readonly CompactionWarning[]): string | undefined {
  return warnings.length === 0 ? undefined : warnings.map((w) => w.message).join("; ");
}
