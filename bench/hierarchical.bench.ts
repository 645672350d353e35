/**
 * @cc/hierarchical search and writes, side by side with what a user could pick instead, in one
 * process and one run: our in-memory, SQLite and PostgreSQL indexes; raw FTS5 (`ORDER BY rank
 * LIMIT 10`) and FTS5 `count(*)` of the matches (the enumeration floor); a plain exhaustive
 * typed-array BM25 (the baseline: ratios are "× its median time"); MiniSearch, FlexSearch and
 * Orama. Sizes 1e4, 1e5 and 1e6 entries (quick mode, CC_BENCH_QUICK=1: 2,000; CC_BENCH_SIZES
 * overrides, e.g. "10000,100000"). Every contender answers the same queries — three shapes:
 * vocabulary words, `fileN.py` and `src/modM/fileN.py` (`py` and `src` are in every entry, so
 * these match all of them) — for the 10 best of namespace "main", in interleaved rounds (each
 * query runs on every contender, in rotating order) so a busy machine slows all alike.
 *
 * Columns: median and p95 ms per shape; "agreement": the share of a contender's top 10 that are
 * in the exhaustive BM25 top 10 (an entry tied with the 10th counts); writes: entries per second
 * (our backends in batches of 1,000) and the first search after them (our backends load their
 * postings cache there).
 *
 * PostgreSQL: CC_PG_URL (an admin URL; the benchmark creates its tables there and drops them), or
 * else a throwaway cluster started with .ci/postgres.sh and always stopped (also on Ctrl-C). When
 * neither works its rows say why. CC_BENCH_QUERIES overrides the queries per size (default 300; quick 30).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryIndex, openPostgresIndex, openSqliteIndex } from "@cc/search";
import pg from "pg";
import { printTable, quick, writeResults } from "./harness.js";
import { cleanupOnSignal, pgServer } from "./postgres.js";
import { makeEntries, makeQueries, SHAPES, type Shape } from "./search/corpus.js";
import {
  ExhaustiveBm25,
  flexsearch,
  fts5,
  minisearch,
  orama,
  ours,
  type SearchContender,
} from "./search/contenders.js";

const sizes = process.env["CC_BENCH_SIZES"]
  ? process.env["CC_BENCH_SIZES"].split(",").map(Number)
  : quick
    ? [2000]
    : [10_000, 100_000, 1_000_000];
const queryCount = Number(process.env["CC_BENCH_QUERIES"] ?? (quick ? 30 : 300));
/** Peers whose build takes minutes at 1e6 are measured up to this size. */
const PEER_MAX = Number(process.env["CC_BENCH_PEER_MAX"] ?? 100_000);

const pct = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};

interface SearchRow {
  readonly n: number;
  readonly contender: string;
  readonly role: string;
  readonly shape: Shape | "all";
  readonly medianMs: number;
  readonly p95Ms: number;
  /** Median time ÷ the baseline's median time, same size and shape. */
  readonly timesBaseline: number;
  /** Mean agreement of the top 10 with the exhaustive BM25 top 10. */
  readonly top10Agreement: number;
}

interface WriteRow {
  readonly n: number;
  readonly contender: string;
  readonly entriesPerSec: number;
  /** Per second of this process's CPU time (robust on a busy machine; excludes a database server's work). */
  readonly entriesPerCpuSec: number;
  readonly firstSearchMs: number | null;
  readonly note: string;
}

const dir = mkdtempSync(join(tmpdir(), "cc-bench-search-"));
const server = pgServer("hierarchical", 59000);
cleanupOnSignal(() => {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
});
const tables: string[] = [];
const searchRows: SearchRow[] = [];
const writeRows: WriteRow[] = [];
const notes: string[] = [];
let opened = 0;

async function dropTables(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    for (const t of tables) for (const s of ["", "_gen", "_log"]) await client.query(`DROP TABLE IF EXISTS ${t}${s}`);
  } finally {
    await client.end();
  }
}

async function runSize(n: number): Promise<void> {
  const entries = makeEntries(n);
  const queries = makeQueries(n, queryCount);
  const baseline = new ExhaustiveBm25();
  const contenders: SearchContender[] = [
    baseline,
    ours("ours: memory", async () => memoryIndex()),
    ours("ours: sqlite", async () => {
      const r = await openSqliteIndex({ path: join(dir, `ours-${opened++}.db`) })();
      if (r._tag === "Left") throw new Error(JSON.stringify(r.left));
      return r.right;
    }),
  ];
  if (server.url !== undefined) {
    const url = server.url;
    const table = `cc_bench_${process.pid}_${opened++}`;
    tables.push(table);
    contenders.push(
      ours("ours: postgres", async () => {
        const r = await openPostgresIndex({ connection: url, table })();
        if (r._tag === "Left") throw new Error(JSON.stringify(r.left));
        return r.right;
      }),
    );
  } else notes.push(`postgres at ${n}: ${server.why}`);
  contenders.push(fts5(dir, "rank"), fts5(dir, "count"));
  if (n <= PEER_MAX) contenders.push(minisearch(), flexsearch(), orama());
  else notes.push(`MiniSearch, FlexSearch and Orama not built at ${n} (above CC_BENCH_PEER_MAX=${PEER_MAX})`);

  for (const c of contenders) {
    const built = await c.build(entries);
    writeRows.push({
      n,
      contender: c.name,
      entriesPerSec: built.entriesPerSec,
      entriesPerCpuSec: built.entriesPerCpuSec,
      firstSearchMs: built.firstSearchMs ?? null,
      note: c.role === "ours" ? "batches of 1,000" : "one pass",
    });
  }
  // Warm-up: a few queries on every contender, unmeasured.
  for (const q of queries.slice(0, 10)) for (const c of contenders) await c.search(q.text);

  const times = new Map<string, Map<Shape, number[]>>(
    contenders.map((c) => [c.name, new Map(SHAPES.map((s) => [s, []]))]),
  );
  const agree = new Map<string, Map<Shape, number[]>>(
    contenders.map((c) => [c.name, new Map(SHAPES.map((s) => [s, []]))]),
  );
  for (const [j, q] of queries.entries()) {
    // The baseline first (its scores are the reference), then the others in rotating order.
    const order = [contenders[0]!, ...contenders.slice(1).map((_, i, all) => all[(i + j) % all.length]!)];
    let reference: readonly string[] = [];
    for (const c of order) {
      const t0 = performance.now();
      const ids = await c.search(q.text);
      times
        .get(c.name)!
        .get(q.shape)!
        .push(performance.now() - t0);
      if (c === baseline) reference = ids;
      else if (c.role !== "floor") agree.get(c.name)!.get(q.shape)!.push(baseline.agreement(ids, reference));
    }
  }
  const base = times.get(baseline.name)!;
  for (const c of contenders) {
    const byShape = times.get(c.name)!;
    for (const shape of [...SHAPES, "all"] as const) {
      const ts = shape === "all" ? [...byShape.values()].flat() : byShape.get(shape)!;
      const bs = shape === "all" ? [...base.values()].flat() : base.get(shape)!;
      const ag = shape === "all" ? [...agree.get(c.name)!.values()].flat() : agree.get(c.name)!.get(shape)!;
      searchRows.push({
        n,
        contender: c.name,
        role: c.role,
        shape,
        medianMs: pct(ts, 0.5),
        p95Ms: pct(ts, 0.95),
        timesBaseline: pct(ts, 0.5) / pct(bs, 0.5),
        top10Agreement:
          c.role === "floor" ? Number.NaN : c === baseline ? 1 : ag.reduce((a, b) => a + b, 0) / Math.max(1, ag.length),
      });
    }
  }
  for (const c of contenders) await c.close();
}

const cell = (x: number | null): string | number => (x === null || Number.isNaN(x) ? "-" : x);
const show = (rows: readonly SearchRow[], writes: readonly WriteRow[]): void => {
  printTable(
    `@cc/hierarchical search (${quick ? "quick" : "full"}; k=10 in namespace main; ${queryCount} queries per size, interleaved; ratio = median ÷ exhaustive BM25's median)`,
    ["n", "contender", "shape", "median ms", "p95 ms", "× baseline", "top-10 agreement"],
    rows.map((r) => [
      r.n,
      r.contender,
      r.shape,
      cell(r.medianMs),
      cell(r.p95Ms),
      cell(r.timesBaseline),
      cell(r.top10Agreement),
    ]),
  );
  printTable(
    "@cc/hierarchical writes",
    ["n", "contender", "entries/s", "entries per CPU-s", "first search ms", "note"],
    writes.map((r) => [r.n, r.contender, r.entriesPerSec, r.entriesPerCpuSec, cell(r.firstSearchMs), r.note]),
  );
};

try {
  for (const n of sizes) {
    await runSize(n);
    // Each size as soon as it is measured (a long run keeps what it has).
    if (sizes.length > 1)
      show(
        searchRows.filter((r) => r.n === n),
        writeRows.filter((r) => r.n === n),
      );
  }
} finally {
  if (server.url !== undefined && tables.length > 0)
    await dropTables(server.url).catch((e: unknown) =>
      console.error(`could not drop ${tables.join(", ")}: ${String(e)}`),
    );
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}

if (sizes.length === 1) show(searchRows, writeRows);

/** The targets: at 1e5 median ≤ 5 ms and p95 ≤ 20 ms for our backends on every shape; at 1e6 median ≤ 20 ms; SQLite writes ≥ 20k/s. */
const targets = searchRows
  .filter((r) => r.role === "ours" && r.shape !== "all" && r.n >= 100_000)
  .map((r) => {
    const ok = r.n >= 1_000_000 ? r.medianMs <= 20 : r.medianMs <= 5 && r.p95Ms <= 20;
    return {
      n: r.n,
      contender: r.contender,
      shape: r.shape,
      target: r.n >= 1_000_000 ? "median ≤ 20 ms" : "median ≤ 5 ms, p95 ≤ 20 ms",
      met: ok,
    };
  });
for (const w of writeRows.filter((r) => r.contender === "ours: sqlite")) {
  targets.push({
    n: w.n,
    contender: w.contender,
    shape: "words",
    target: "writes ≥ 20,000/s",
    met: w.entriesPerSec >= 20_000,
  });
  targets.push({
    n: w.n,
    contender: w.contender,
    shape: "words",
    target: "writes ≥ 20,000 per CPU-s",
    met: w.entriesPerCpuSec >= 20_000,
  });
}
if (targets.length > 0)
  printTable(
    "targets",
    ["n", "contender", "shape", "target", "met"],
    targets.map((t) => [
      t.n,
      t.contender,
      t.shape === "words" && t.target.startsWith("writes") ? "-" : t.shape,
      t.target,
      t.met ? "yes" : "NO",
    ]),
  );
for (const note of notes) console.log(`note: ${note}`);
console.log(`results: ${writeResults("hierarchical", { search: searchRows, writes: writeRows, targets, notes })}`);
