/**
 * The human report `cc-compact` writes to stderr (pure).
 *
 * @module command/report
 */
import type { RunResult } from "../compaction/run.js";

/** Formats the report of one compaction run; `input` names the source and its format. */
export function formatReport(r: RunResult, input: { readonly source: string; readonly format: string; readonly messagesIn: number; readonly warnings: readonly string[] }, maxTokens: number): string {
  const pct = (n: number): string => `${((n / maxTokens) * 100).toFixed(1)}%`;
  const lines = [
    `cc-compact: ${input.source} (${input.format}, ${input.messagesIn} messages)`,
    `  usage     ${r.tokensBefore} tokens = ${pct(r.tokensBefore)} of ${maxTokens} → pressure ${r.usage.pressure}`,
    `  strategy  ${r.strategy}${r.level === undefined ? "" : ` (level ${r.level})`}`,
    `  result    ${r.messages.length} messages, ${r.tokensAfter} tokens (${pct(r.tokensAfter)}); ${r.compacted ? `saved ${r.tokensBefore - r.tokensAfter}` : "unchanged"}; budget ${r.budgetMet ? "met" : "NOT met"}`,
  ];
  for (const a of r.attempts) lines.push(`  attempt   ${a}`);
  if (r.evicted.length > 0) {
    lines.push(`  evicted   ${r.evicted.length} units to the index:`);
    for (const e of r.evicted.slice(0, 8)) lines.push(`    ${e.id} ${e.kind} ${e.tokens} tok — ${e.summary.slice(0, 90)}`);
    if (r.evicted.length > 8) lines.push(`    … ${r.evicted.length - 8} more`);
  }
  for (const f of r.failures) lines.push(`  failed    ${f}`);
  for (const n of r.notes) lines.push(`  note      ${n}`);
  for (const w of input.warnings.slice(0, 10)) lines.push(`  warning   ${w}`);
  if (input.warnings.length > 10) lines.push(`  warning   … ${input.warnings.length - 10} more`);
  return `${lines.join("\n")}\n`;
}
