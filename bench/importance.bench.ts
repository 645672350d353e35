/**
 * @cc/importance on the shared eviction workload (../shared/WORKLOAD.md), both variants.
 *
 * For n = 1e3 … 1e6 (quick mode: 1e3, 1e4) it measures the bare score pass (one `score` per
 * segment into a Float64Array — the floor every eviction pays), `rank`, `compact`, and the
 * straightforward reference (full comparator sort + Set) in the same run. Prints segments/s and
 * the ratios compact/score and reference/compact; writes bench/results/importance.json.
 */
import { compact, rank, score, type ImportanceOptions, type Segment } from "@cc/importance";
import { referenceCompact } from "../packages/importance/test/reference.js";
import { measure, printTable, quick, writeResults, type Cell, type Timing } from "./harness.js";
import { generateWorkload, type WorkloadVariant } from "./workload.js";

const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000];
const variants: readonly WorkloadVariant[] = ["tokencost", "content"];

/** The floor: one score per segment, clock read once (as compact does). */
function scorePass(segments: readonly Segment[], options: ImportanceOptions): Float64Array {
  const t = options.now === undefined ? Date.now() : options.now();
  const fixed: ImportanceOptions = { ...options, now: () => t };
  const out = new Float64Array(segments.length);
  for (let i = 0; i < segments.length; i++) out[i] = score(segments[i]!, fixed);
  return out;
}

interface Row {
  readonly variant: WorkloadVariant;
  readonly n: number;
  readonly scoreMs: Timing;
  readonly rankMs: Timing;
  readonly compactMs: Timing;
  readonly referenceMs: Timing;
}

const rows: Row[] = [];
for (const variant of variants) {
  for (const n of sizes) {
    const w = generateWorkload(n, variant);
    const runs = n >= 1_000_000 ? 5 : n >= 100_000 ? 7 : 15;
    const opts = { runs, warmup: 2 };
    const fast = compact(w.segments, w.target, w.options);
    const ref = referenceCompact(w.segments, w.target, w.options);
    const same = fast.evict.length === ref.evict.length && fast.evict.every((s, i) => s === ref.evict[i]);
    if (!same) throw new Error(`compact and reference disagree at n=${n} (${variant})`);
    rows.push({
      variant,
      n,
      scoreMs: measure(() => scorePass(w.segments, w.options), opts),
      rankMs: measure(() => rank(w.segments, w.options), opts),
      compactMs: measure(() => compact(w.segments, w.target, w.options), opts),
      referenceMs: measure(() => referenceCompact(w.segments, w.target, w.options), { runs: Math.min(runs, 5), warmup: 1 }),
    });
  }
}

const perSecond = (n: number, t: Timing): number => n / (t.medianMs / 1000);
const table: Cell[][] = rows.map((r) => [
  r.variant,
  r.n,
  r.scoreMs.medianMs,
  r.rankMs.medianMs,
  r.compactMs.medianMs,
  r.referenceMs.medianMs,
  perSecond(r.n, r.scoreMs),
  perSecond(r.n, r.compactMs),
  r.compactMs.medianMs / r.scoreMs.medianMs,
  r.referenceMs.medianMs / r.compactMs.medianMs,
]);
printTable(
  "importance: median ms per call, segments/s, ratios (same run)",
  ["variant", "n", "score ms", "rank ms", "compact ms", "reference ms", "score seg/s", "compact seg/s", "compact/score", "reference/compact"],
  table,
);
const path = writeResults(
  "importance",
  rows.map((r) => ({
    variant: r.variant,
    n: r.n,
    score: r.scoreMs,
    rank: r.rankMs,
    compact: r.compactMs,
    reference: r.referenceMs,
    scoreSegmentsPerSecond: perSecond(r.n, r.scoreMs),
    rankSegmentsPerSecond: perSecond(r.n, r.rankMs),
    compactSegmentsPerSecond: perSecond(r.n, r.compactMs),
    compactOverScore: r.compactMs.medianMs / r.scoreMs.medianMs,
    referenceOverCompact: r.referenceMs.medianMs / r.compactMs.medianMs,
  })),
);
console.log(`\nwrote ${path}`);
