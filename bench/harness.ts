/**
 * Shared benchmark plumbing: timing with warm-up and median, quick mode, a printed table and
 * JSON results under `bench/results/`.
 *
 * Every benchmark is a standalone script `bench/<name>.bench.ts` that `bench/run.ts` executes in
 * its own process. Quick mode (`CC_BENCH_QUICK=1`, used by CI) shrinks sizes and iterations so
 * benchmarks never rot without costing CI minutes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** True when benchmarks must run in quick mode (small n, one iteration). */
export const quick: boolean = process.env["CC_BENCH_QUICK"] === "1";

/** Directory the JSON results are written to. */
export const resultsDir: string = join(dirname(fileURLToPath(import.meta.url)), "results");

/** Timing of one measured operation, in milliseconds. */
export interface Timing {
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly runs: number;
}

/** Options of {@link measure}. */
export interface MeasureOptions {
  /** Measured runs (quick mode: 1). Default 5. */
  readonly runs?: number;
  /** Unmeasured warm-up runs (quick mode: 0). Default 1. */
  readonly warmup?: number;
}

/** A sink that keeps results alive so the JIT cannot drop the measured work. */
export let blackhole: unknown;

/** Runs `fn` `warmup` times unmeasured, then `runs` times, and returns median/min/max wall time. */
export function measure(fn: () => unknown, options: MeasureOptions = {}): Timing {
  const runs = quick ? 1 : (options.runs ?? 5);
  const warmup = quick ? 0 : (options.warmup ?? 1);
  for (let i = 0; i < warmup; i++) blackhole = fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    blackhole = fn();
    times.push(performance.now() - t0);
  }
  return summarize(times);
}

/** Async variant of {@link measure}. */
export async function measureAsync(fn: () => Promise<unknown>, options: MeasureOptions = {}): Promise<Timing> {
  const runs = quick ? 1 : (options.runs ?? 5);
  const warmup = quick ? 0 : (options.warmup ?? 1);
  for (let i = 0; i < warmup; i++) blackhole = await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    blackhole = await fn();
    times.push(performance.now() - t0);
  }
  return summarize(times);
}

function summarize(times: readonly number[]): Timing {
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { medianMs: median, minMs: sorted[0]!, maxMs: sorted[sorted.length - 1]!, runs: sorted.length };
}

/** A printable cell. */
export type Cell = string | number;

/** Prints `rows` as an aligned text table with `headers`. Numbers are right-aligned. */
export function printTable(title: string, headers: readonly string[], rows: readonly (readonly Cell[])[]): void {
  const text = rows.map((r) => r.map((c) => (typeof c === "number" ? formatNumber(c) : c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[], raw?: readonly Cell[]): string =>
    cells.map((c, i) => (typeof raw?.[i] === "number" ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  console.log(`\n${title}`);
  console.log(line(headers));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  text.forEach((r, i) => console.log(line(r, rows[i])));
}

/** Formats a number with 3 significant digits and thousands separators. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString("en-US");
  return Number(n.toPrecision(3)).toString();
}

/** Writes `bench/results/<name>.json` with the environment and `data`; returns its path. */
export function writeResults(name: string, data: unknown): string {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, `${name}.json`);
  const doc = {
    name,
    quick,
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    data,
  };
  writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
  return path;
}
