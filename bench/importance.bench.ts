/**
 * @cc/importance on the shared eviction workload (../shared/WORKLOAD.md), both variants.
 *
 * For n = 1e3 … 1e6 (quick mode: 1e3, 1e4) it measures the bare score pass (one `score` per
 * segment into a Float64Array — the floor every eviction pays), `rank`, `compact`, and the
 * straightforward reference (full comparator sort + Set) in the same run. Prints segments/s and
 * the ratios compact/score and reference/compact; writes bench/results/importance.json.
 * Besides wall time it records process CPU time of the same runs: on a shared 2-core machine the
 * wall time inflates with the load of other processes, the CPU time much less.
 */
import { compact, rank, score, type ScoringOptions, type Segment } from "@cc/importance";
import { referenceCompact } from "../packages/importance/test/reference.js";
import { printTable, quick, writeResults, type Cell, type Timing } from "./harness.js";
import { generateWorkload, type WorkloadVariant } from "./workload.js";

const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000];
const variants: readonly WorkloadVariant[] = ["tokencost", "content"];

/** The floor: one score per segment, clock read once (as compact does). */
function scorePass(segments: readonly Segment[], options: ScoringOptions): Float64Array {
  const t = options.now === undefined ? Date.now() : options.now();
  const fixed: ScoringOptions = { ...options, now: () => t };
  const out = new Float64Array(segments.length);
  for (let i = 0; i < segments.length; i++) out[i] = score(segments[i]!, fixed);
  return out;
}

/** Wall and CPU time of the same runs (median/min/max each). */
interface Both {
  readonly wall: Timing;
  readonly cpu: Timing;
}

const stats = (xs: readonly number[]): Timing => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const medianMs = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { medianMs, minMs: sorted[0]!, maxMs: sorted[sorted.length - 1]!, runs: sorted.length };
};

/** Keeps measured results alive so the JIT cannot drop the work. */
export let sink: unknown;

/** Like harness `measure` (same quick-mode rules), recording wall and process CPU time per run. */
function measureBoth(fn: () => unknown, runs: number, warmup: number): Both {
  const r = quick ? 1 : runs;
  for (let i = 0; i < (quick ? 0 : warmup); i++) sink = fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < r; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    sink = fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: stats(wall), cpu: stats(cpu) };
}

interface Row {
  readonly variant: WorkloadVariant;
  readonly n: number;
  readonly score: Both;
  readonly rank: Both;
  readonly compact: Both;
  readonly reference: Both;
}

const rows: Row[] = [];
for (const variant of variants) {
  for (const n of sizes) {
    const w = generateWorkload(n, variant);
    const runs = n >= 1_000_000 ? 5 : n >= 100_000 ? 7 : 15;

    const fast = compact(w.segments, w.target, w.options);
    const ref = referenceCompact(w.segments, w.target, w.options);
    const same = fast.evict.length === ref.evict.length && fast.evict.every((s, i) => s === ref.evict[i]);
    if (!same) throw new Error(`compact and reference disagree at n=${n} (${variant})`);
    rows.push({
      variant,
      n,
      score: measureBoth(() => scorePass(w.segments, w.options), runs, 2),
      rank: measureBoth(() => rank(w.segments, w.options), runs, 2),
      compact: measureBoth(() => compact(w.segments, w.target, w.options), runs, 2),
      reference: measureBoth(() => referenceCompact(w.segments, w.target, w.options), Math.min(runs, 5), 1),
    });
  }
}

const perSecond = (n: number, t: Timing): number => n / (t.medianMs / 1000);
const table: Cell[][] = rows.map((r) => [
  r.variant,
  r.n,
  r.score.wall.medianMs,
  r.rank.wall.medianMs,
  r.compact.wall.medianMs,
  r.reference.wall.medianMs,
  perSecond(r.n, r.compact.wall),
  r.compact.wall.medianMs / r.score.wall.medianMs,
  r.reference.wall.medianMs / r.compact.wall.medianMs,
  r.score.cpu.medianMs,
  r.compact.cpu.medianMs,
  r.compact.cpu.medianMs / r.score.cpu.medianMs,
]);
printTable(
  "importance: median ms per call (wall; cpu = process CPU time of the same runs), segments/s, ratios",
  [
    "variant",
    "n",
    "score",
    "rank",
    "compact",
    "reference",
    "compact seg/s",
    "compact/score",
    "ref/compact",
    "score cpu",
    "compact cpu",
    "cpu compact/score",
  ],
  table,
);
const path = writeResults(
  "importance",
  rows.map((r) => ({
    variant: r.variant,
    n: r.n,
    wall: { score: r.score.wall, rank: r.rank.wall, compact: r.compact.wall, reference: r.reference.wall },
    cpu: { score: r.score.cpu, rank: r.rank.cpu, compact: r.compact.cpu, reference: r.reference.cpu },
    scoreSegmentsPerSecond: perSecond(r.n, r.score.wall),
    rankSegmentsPerSecond: perSecond(r.n, r.rank.wall),
    compactSegmentsPerSecond: perSecond(r.n, r.compact.wall),
    referenceSegmentsPerSecond: perSecond(r.n, r.reference.wall),
    compactOverScore: r.compact.wall.medianMs / r.score.wall.medianMs,
    referenceOverCompact: r.reference.wall.medianMs / r.compact.wall.medianMs,
    compactOverScoreCpu: r.compact.cpu.medianMs / r.score.cpu.medianMs,
  })),
);
console.log(`\nwrote ${path}`);
