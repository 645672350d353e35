/**
 * Scaling: measured time against n for importance `compact` (with the straightforward reference —
 * full comparator sort + Set — and the Go original's stale-sort order beside it) and for index
 * writes (in-memory and SQLite FTS5, one batch of n entries). Fits `time = c · n^k` by least
 * squares on log–log axes and prints k (≈ 1 means linear). Writes bench/results/scaling.json,
 * which bench/run.ts draws as bench/results/scaling.svg.
 */
import { memoryIndex, openSqliteIndex, type IndexEntry, type SegmentIndex } from "@cc/search";
import { compact, score, type Segment } from "@cc/importance";
import * as E from "fp-ts/lib/Either.js";
import { referenceCompact } from "../packages/importance/test/reference.js";
import { measure, measureAsync, printTable, quick, writeResults, type Timing } from "./harness.js";
import { describeFitError, fitPowerLaw } from "./report/fit.js";
import { goStaleOrder } from "./retention/go-order.js";
import { evictInOrder, type Candidate } from "./retention/policies.js";
import { generateWorkload } from "./workload.js";

interface SeriesSpec {
  readonly label: string;
  readonly group: string;
  readonly reference: boolean;
  readonly sizes: readonly number[];
  readonly run: (n: number) => Promise<Timing>;
}

const compactSizes = quick ? [1_000, 4_000, 16_000] : [1_000, 10_000, 100_000, 1_000_000];
const goSizes = quick ? [1_000, 4_000] : [1_000, 10_000, 100_000];
const writeSizes = quick ? [500, 2_000] : [1_000, 10_000, 100_000];

/** The Go original's Compact: its stale-sort rank, then greedy eviction. */
function goCompact(segments: readonly Segment[], maxTokens: number, now: number): number[] {
  const candidates: Candidate[] = segments.map((s, i) => ({
    index: i,
    tokens: s.tokenCost ?? Math.ceil(s.content.length / 4),
    createdAt: s.createdAt ?? now,
    lastAccessed: s.lastAccessed ?? s.createdAt ?? now,
    accessCount: s.accessCount ?? 0,
    pinned: s.pinned === true,
    content: s.content,
  }));
  const scores = segments.map((s) => score(s, { now: () => now }));
  return evictInOrder(candidates, goStaleOrder(candidates, scores), maxTokens);
}

function entries(n: number): IndexEntry[] {
  const w = generateWorkload(n, "content");
  return w.segments.map((s, i) => ({
    id: `s${i}`,
    namespace: "bench",
    kind: s.kind ?? "message",
    summary: s.content.slice(0, 80),
    content: s.content,
    tokenCost: s.tokenCost ?? 0,
    createdAt: s.createdAt ?? 0,
    evictedAt: s.createdAt ?? 0,
    metadata: {},
  }));
}

async function timeWrites(n: number, open: () => Promise<SegmentIndex>): Promise<Timing> {
  const batch = entries(n);
  const runs = n >= 100_000 ? 3 : 5;
  return measureAsync(
    async () => {
      const index = await open();
      const r = await index.write(batch)();
      await index.close()();
      if (E.isLeft(r)) throw new Error(`index write failed: ${JSON.stringify(r.left)}`);
      return r.right;
    },
    { runs, warmup: 1 },
  );
}

const openSqlite = async (): Promise<SegmentIndex> => {
  const r = await openSqliteIndex({ path: ":memory:" })();
  if (E.isLeft(r)) throw new Error(`cannot open SQLite: ${JSON.stringify(r.left)}`);
  return r.right;
};

const compactTiming = (n: number, which: "ours" | "reference" | "go"): Timing => {
  const w = generateWorkload(n, "tokencost");
  const runs = n >= 1_000_000 ? 3 : n >= 100_000 ? 5 : 9;
  const now = w.options.now?.() ?? 0;
  if (which === "ours") return measure(() => compact(w.segments, w.target, w.options), { runs, warmup: 1 });
  if (which === "reference")
    return measure(() => referenceCompact(w.segments, w.target, w.options), { runs: Math.min(runs, 3), warmup: 1 });
  return measure(() => goCompact(w.segments, w.target.maxTokens, now), { runs: Math.min(runs, 3), warmup: 1 });
};

const specs: readonly SeriesSpec[] = [
  {
    label: "importance compact",
    group: "compact",
    reference: false,
    sizes: compactSizes,
    run: async (n) => compactTiming(n, "ours"),
  },
  {
    label: "reference compact (full sort + Set)",
    group: "compact",
    reference: true,
    sizes: compactSizes,
    run: async (n) => compactTiming(n, "reference"),
  },
  {
    label: "Go original's compact (stale sort)",
    group: "go",
    reference: true,
    sizes: goSizes,
    run: async (n) => compactTiming(n, "go"),
  },
  {
    label: "index write, in-memory",
    group: "memory",
    reference: false,
    sizes: writeSizes,
    run: (n) => timeWrites(n, async () => memoryIndex()),
  },
  {
    label: "index write, SQLite FTS5",
    group: "sqlite",
    reference: false,
    sizes: writeSizes,
    run: (n) => timeWrites(n, openSqlite),
  },
];

const series = [];
for (const s of specs) {
  const points = [];
  for (const n of s.sizes) {
    const t = await s.run(n);
    points.push({
      n,
      medianMs: t.medianMs,
      minMs: t.minMs,
      maxMs: t.maxMs,
      runs: t.runs,
      perSecond: n / (t.medianMs / 1000),
    });
    console.log(`  ${s.label} n=${n}: ${t.medianMs.toFixed(2)} ms`);
  }
  const fit = fitPowerLaw(points.map((p) => ({ x: p.n, y: p.medianMs })));
  series.push({
    label: s.label,
    group: s.group,
    reference: s.reference,
    points,
    exponent: E.isRight(fit) ? fit.right.exponent : null,
    r2: E.isRight(fit) ? fit.right.r2 : null,
    fitProblem: E.isLeft(fit) ? describeFitError(fit.left) : null,
  });
}

printTable(
  "scaling: median ms against n, fitted exponent k of time = c·n^k (≈ 1 is linear)",
  ["operation", ...[...new Set(specs.flatMap((s) => s.sizes))].sort((a, b) => a - b).map((n) => `n=${n}`), "k", "r²"],
  series.map((s) => {
    const all = [...new Set(specs.flatMap((x) => x.sizes))].sort((a, b) => a - b);
    return [
      s.label,
      ...all.map((n) => s.points.find((p) => p.n === n)?.medianMs ?? "—"),
      s.exponent ?? s.fitProblem ?? "—",
      s.r2 ?? "—",
    ];
  }),
);
console.log(`\nwrote ${writeResults("scaling", { series })}`);
