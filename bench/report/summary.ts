/**
 * The markdown summary of every results file: one section per benchmark with its environment
 * and its tables, plus links to the charts.
 */
import type { ResultDoc } from "./results.js";
import { tablesOf, type Table } from "./tables.js";

/** A chart written next to the summary. */
export interface ChartLink {
  readonly title: string;
  /** Path relative to the summary file. */
  readonly file: string;
}

/** Escapes a markdown table cell (pipes, line breaks). */
export function escapeCell(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** Tables longer than this are cut in the summary (the JSON file keeps every row). */
export const MAX_SUMMARY_ROWS = 40;

/** Renders one table as GitHub markdown. */
export function markdownTable(table: Table): string {
  if (table.headers.length === 0) return "";
  const numeric = (i: number): boolean => table.rows.every((r) => /^-?[\d,.]+(e[+-]?\d+)?%?$|^$/.test(r[i] ?? ""));
  const head = `| ${table.headers.map(escapeCell).join(" | ")} |`;
  const rule = `|${table.headers.map((_, i) => (numeric(i) ? " ---: " : " --- ")).join("|")}|`;
  const body = table.rows.map((r) => `| ${table.headers.map((_, i) => escapeCell(r[i] ?? "")).join(" | ")} |`);
  return [head, rule, ...body].join("\n");
}

/**
 * The whole summary. `problems` lists results files that could not be read (they are reported,
 * not dropped silently).
 *
 * @example renderSummary([doc], [{ title: "Scaling", file: "scaling.svg" }], [])
 */
export function renderSummary(
  docs: readonly ResultDoc[],
  charts: readonly ChartLink[],
  problems: readonly string[],
): string {
  const out: string[] = ["# Benchmark results", ""];
  const sorted = [...docs].sort((a, b) => a.name.localeCompare(b.name));
  if (sorted.length === 0) out.push("No results yet: run `pnpm bench`.", "");
  const modes = [...new Set(sorted.map((d) => (d.quick ? "quick" : "full")))];
  if (sorted.length > 0) {
    out.push(
      `Mode: ${modes.join(" and ")}. Environment: ${[...new Set(sorted.map((d) => `node ${d.node}, ${d.platform}`))].join("; ")}.`,
      "",
    );
  }
  for (const c of charts) out.push(`![${c.title}](${c.file})`, "");
  if (problems.length > 0) {
    out.push("## Unreadable results", "", ...problems.map((p) => `- ${p}`), "");
  }
  for (const d of sorted) {
    out.push(`## ${d.name}`, "", `${d.quick ? "quick mode" : "full run"}, ${d.date}`, "");
    for (const t of tablesOf(d.data)) {
      if (t.title !== "") out.push(`### ${d.name}: ${t.title}`, "");
      const cut = t.rows.length > MAX_SUMMARY_ROWS;
      out.push(markdownTable(cut ? { ...t, rows: t.rows.slice(0, MAX_SUMMARY_ROWS) } : t), "");
      if (cut) out.push(`… ${t.rows.length - MAX_SUMMARY_ROWS} more rows in \`${d.name}.json\`.`, "");
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}
