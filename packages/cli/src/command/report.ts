/**
 * The human report `cc-compact` writes to stderr (pure).
 *
 * @module command/report
 */
import { describeDecision, type TurnResult, type TurnWarning } from "@cc/context";
import type { Pressure } from "@cc/lcm";

/** What the report says about the input, besides the turn itself. */
export interface ReportInput {
  /** The input's name (a path, or `stdin`). */
  readonly source: string;
  /** The format it was read as. */
  readonly format: string;
  /** Messages read. */
  readonly messagesIn: number;
  /** What the reader tolerated or repaired. */
  readonly warnings: readonly string[];
  /** Pressure of the input against the soft and hard thresholds. */
  readonly pressure: Pressure;
  /** True when the input was below the threshold and `--force` was not given. */
  readonly belowThreshold: boolean;
}

/** One report line per turn warning; `attempt` lines for the levels an `lcm` turn tried. */
function warningLines(w: TurnWarning): readonly string[] {
  switch (w._tag) {
    case "SummaryFellToTruncation":
      return [
        ...w.attempts.map((a) => `  attempt   ${a}`),
        `  note      no summary was accepted: the older part was truncated${w.providerFailed ? " (the provider failed)" : ""}`,
      ];
    case "UnitKept":
      return [`  failed    ${w.id}: ${w.reason}`];
    case "UnitIdDisambiguated":
      return [`  note      ${w.id} already holds another original in the index: evicted as ${w.writtenAs}`];
    case "BudgetNotMet":
      // Reported with the result (from `budgetMet` and the counts), never on its own.
      return [];
    case "NoteDoesNotFit":
      return [
        `  note      the budget (${w.targetTokens} tokens) cannot hold the eviction note (${w.reservedTokens} reserved): nothing was evicted`,
      ];
    case "AlertSinkFailed":
      return [`  note      ${w.message}`];
    case "SummariserDisabled":
      return [`  alert     LLM summaries disabled for this session (${w.error}); truncation keeps the budget`];
    case "EventPublishFailed":
      return [`  note      the ${w.event} event could not be delivered: ${w.message}`];
    case "RecallFailed":
      return [`  note      no recall: ${w.message}`];
    case "TaskNotPinned":
      return [
        `  note      the task (${w.tokens} tokens) is more than half the target (${w.limit} is half): it was compacted like the rest`,
      ];
    case "TaskExcerpted":
      return [
        `  note      the task (${w.tokens} tokens) is more than half the target: an excerpt of ${w.excerptTokens} tokens is pinned, the whole task is ${w.id}`,
      ];
  }
}

/**
 * The budget verdict: from `budgetMet`, `tokensAfter` and `maxTokens` of the turn (its truth), with
 * the reason of a `BudgetNotMet` warning only when the budget was in fact not met.
 */
function budgetLines(r: TurnResult): { readonly verdict: string; readonly note: readonly string[] } {
  if (r.budgetMet) return { verdict: "budget met", note: [] };
  const why = r.warnings.find((w) => w._tag === "BudgetNotMet");
  const over = r.tokensAfter - r.maxTokens;
  return {
    verdict: "budget NOT met",
    note: [
      `  note      ${r.tokensAfter} tokens exceed the budget of ${r.maxTokens} by ${over}${why === undefined ? "" : `: ${why.reason}`}`,
    ],
  };
}

/**
 * Formats the report of one compaction turn; `input` names the source, its format and its pressure.
 * Every claim comes from the turn result: "budget met" or "NOT met" from `budgetMet`, so the
 * report never says both.
 */
export function formatReport(r: TurnResult, input: ReportInput): string {
  const budget = budgetLines(r);
  const pct = (n: number): string => `${((n / r.maxTokens) * 100).toFixed(1)}%`;
  const lines = [
    `cc-compact: ${input.source} (${input.format}, ${input.messagesIn} messages)`,
    `  usage     ${r.tokensBefore} tokens = ${pct(r.tokensBefore)} of ${r.maxTokens} → pressure ${input.pressure}`,
    `  strategy  ${r.strategy}${r.level === undefined ? "" : ` (level ${r.level})`}`,
    `  result    ${r.messages.length} messages, ${r.tokensAfter} tokens (${pct(r.tokensAfter)}); ${r.compacted ? `saved ${r.tokensBefore - r.tokensAfter}` : "unchanged"}; ${budget.verdict}`,
    ...budget.note,
  ];
  if (r.masked.length > 0) {
    const freed = r.masked.reduce((n, m) => n + m.tokens - m.stubTokens, 0);
    lines.push(
      `  masked    ${r.masked.length} outputs to stubs with their key facts (${freed} tokens freed; originals in the index):`,
    );
    for (const m of r.masked.slice(0, 8)) lines.push(`    ${m.id} ${m.tokens} → ${m.stubTokens} tok`);
    if (r.masked.length > 8) lines.push(`    … ${r.masked.length - 8} more`);
  }
  if (r.evicted.length > 0) {
    lines.push(`  evicted   ${r.evicted.length} units to the index:`);
    for (const e of r.evicted.slice(0, 8))
      lines.push(`    ${e.id} ${e.kind} ${e.tokens} tok — ${e.summary.slice(0, 90)}`);
    if (r.evicted.length > 8) lines.push(`    … ${r.evicted.length - 8} more`);
  }
  if (r.decision !== undefined) lines.push(`  decision  ${describeDecision(r.decision)}`);
  for (const w of r.warnings) lines.push(...warningLines(w));
  if (input.belowThreshold) lines.push("  note      below the soft threshold: no compaction needed");
  for (const w of input.warnings.slice(0, 10)) lines.push(`  warning   ${w}`);
  if (input.warnings.length > 10) lines.push(`  warning   … ${input.warnings.length - 10} more`);
  return `${lines.join("\n")}\n`;
}
