/**
 * The effectful shell of the report: read every `bench/results/*.json`, write `SUMMARY.md`,
 * `scaling.svg` (from the scaling benchmark) and one `<name>.svg` per other benchmark that has
 * throughput-against-n series.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import { describeResultError, parseResultDoc, type ResultDoc } from "./results.js";
import { seriesOf } from "./series.js";
import { renderSummary, type ChartLink } from "./summary.js";
import { renderLogLogChart } from "./svg.js";

/** What {@link writeReport} wrote, and the results files it could not read. */
export interface ReportFiles {
  readonly summary: string;
  readonly charts: readonly string[];
  readonly problems: readonly string[];
}

/** Why the report could not be written. */
export interface ReportError {
  readonly _tag: "ReportWriteFailed";
  readonly path: string;
  readonly message: string;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Reads and decodes every results file of `dir` (unreadable ones come back as problems). */
export function readResults(dir: string): {
  readonly docs: readonly ResultDoc[];
  readonly problems: readonly string[];
} {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort();
  } catch (e) {
    return { docs: [], problems: [`${dir}: cannot list (${message(e)})`] };
  }
  const docs: ResultDoc[] = [];
  const problems: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(join(dir, f), "utf8");
    } catch (e) {
      problems.push(describeResultError({ _tag: "ReadFailed", file: f, message: message(e) }));
      continue;
    }
    const r = parseResultDoc(f, text);
    if (E.isRight(r)) docs.push(r.right);
    else problems.push(describeResultError(r.left));
  }
  return { docs, problems };
}

/** In the title of every chart this report draws (and of no chart a benchmark draws itself). */
const REPORT_CHART_MARK = "throughput against n";

/** Writes the summary and the charts of the results in `dir`. */
export function writeReport(dir: string): TE.TaskEither<ReportError, ReportFiles> {
  return async () => {
    const { docs, problems } = readResults(dir);
    const charts: { link: ChartLink; svg: string }[] = [];
    const stale: string[] = [];
    for (const d of docs) {
      const series = seriesOf(d.data);
      if (series.length === 0) {
        stale.push(join(dir, `${d.name}.svg`));
        continue;
      }
      const scaling = d.name === "scaling";
      charts.push({
        link: { title: scaling ? "Throughput against n" : `${d.name}: throughput against n`, file: `${d.name}.svg` },
        svg: renderLogLogChart({
          title: scaling
            ? "Throughput against n (log–log; dashed = reference)"
            : `${d.name}: throughput against n (log–log)`,
          xLabel: "n (segments or entries)",
          yLabel: "throughput (items per second)",
          series,
        }),
      });
    }
    charts.sort((a, b) =>
      a.link.file === "scaling.svg" ? -1 : b.link.file === "scaling.svg" ? 1 : a.link.file.localeCompare(b.link.file),
    );
    const written: string[] = [];
    let current = "";
    try {
      for (const c of charts) {
        current = join(dir, c.link.file);
        writeFileSync(current, c.svg);
        written.push(current);
      }
      // A throughput chart this report wrote earlier that its results no longer support; charts
      // a benchmark writes itself (cost.svg, retention.svg) are not the report's to remove.
      for (const f of stale)
        if (existsSync(f) && readFileSync(f, "utf8").includes(REPORT_CHART_MARK)) rmSync(f, { force: true });
      current = join(dir, "SUMMARY.md");
      writeFileSync(
        current,
        renderSummary(
          docs,
          charts.map((c) => c.link),
          problems,
        ),
      );
    } catch (e) {
      return E.left({ _tag: "ReportWriteFailed", path: current, message: message(e) });
    }
    return E.right({ summary: current, charts: written, problems });
  };
}
