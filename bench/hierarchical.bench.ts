/**
 * @cc/hierarchical index backends: write throughput (batched and one entry per transaction) and
 * search latency (median, p95) at 1e4 and 1e5 entries (quick mode: 1e3), after a warm-up of each
 * backend. Baselines measured in the same run: writes relative to the in-memory backend, search
 * relative to a linear scan over the same entries (tokenised terms, no index). The "vs baseline"
 * column gives each speed as a multiple of its baseline's and says which way it goes: "2.2×
 * scan's speed (faster)", "0.4× scan's speed (slower)".
 *
 * Extra rows at the smallest size: the same entries with a NUL and a lone surrogate in the
 * content ("odd text": the lossless encoding path) and real agent transcripts (SWE-agent
 * messages from ../shared/data, repeated to 2 000 entries) for the distinct-term indexing.
 *
 * PostgreSQL: CC_PG_URL (an admin URL; the benchmark creates its tables there and drops them), or
 * else a throwaway cluster started with .ci/postgres.sh and always stopped (also on Ctrl-C). When
 * neither works its rows say "unavailable" and why.
 *
 * CC_BENCH_QUERIES overrides the number of search queries per size (default 300; quick 50).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexEntry, SegmentIndex } from "@cc/hierarchical";
import { entry } from "@cc/hierarchical";
import { queryTerms, tokenize } from "@cc/hierarchical/internal";
import { memoryIndex, openPostgresIndex, openSqliteIndex } from "@cc/hierarchical";
import pg from "pg";
import { dataPath } from "../.ci/data.js";
import { printTable, quick, writeResults } from "./harness.js";
import { cleanupOnSignal, pgServer } from "./postgres.js";

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const r = mulberry32(42);
const syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "za", "po", "qu", "xe", "di", "fa", "gu", "he"];
const vocab = Array.from({ length: 5000 }, () => Array.from({ length: 2 + (r() % 3) }, () => syllables[r() % syllables.length]!).join(""));
const words = (n: number): string => Array.from({ length: n }, () => vocab[Math.floor((r() % vocab.length) * ((r() % 1000) / 1000) ** 2)]!).join(" ");

function makeEntries(n: number): IndexEntry[] {
  return Array.from({ length: n }, (_, i) =>
    entry({ id: `s${i}`, namespace: i % 10 === 0 ? "other" : "main", kind: i % 3 === 0 ? "file" : "tool_result", summary: words(12), content: `src/mod${i % 97}/file${i}.py ${words(50)}`, tokenCost: 80, createdAt: i, evictedAt: i }),
  );
}

const pct = (xs: number[], p: number): number | null => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};

interface Row {
  readonly backend: string;
  readonly n: number;
  readonly batchedPerSec: number | null;
  /** Batched writes per second of this process's CPU time (robust on a shared machine; excludes the PostgreSQL server's work). */
  readonly batchedPerCpuSec: number | null;
  readonly singlePerSec: number | null;
  readonly searchMedianMs: number | null;
  readonly searchP95Ms: number | null;
  readonly note: string;
}

async function ok<A>(p: Promise<{ _tag: "Left"; left: unknown } | { _tag: "Right"; right: A }>): Promise<A> {
  const x = await p;
  if (x._tag === "Left") throw new Error(JSON.stringify(x.left));
  return x.right;
}

/** A short unmeasured run on a throwaway index, so the measured run does not pay the JIT warm-up. */
/** CPU time (user + system) of this process, in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function warmUp(open: () => Promise<SegmentIndex>, entries: readonly IndexEntry[], queries: readonly string[]): Promise<void> {
  const index = await open();
  const sample = entries.slice(0, 2000).map((e) => ({ ...e, id: `warm-${e.id}` }));
  for (let i = 0; i < sample.length; i += 500) await ok(index.write(sample.slice(i, i + 500))());
  for (const e of sample.slice(0, 50)) await ok(index.write([e])());
  for (const q of queries.slice(0, 20)) await ok(index.search(q, { k: 10, namespace: "main" })());
  for (const ns of ["main", "other"]) await ok(index.deleteNamespace(ns)());
  await ok(index.close()());
}

async function bench(backend: string, open: () => Promise<SegmentIndex>, entries: IndexEntry[], queries: string[], note = ""): Promise<Row> {
  const n = entries.length;
  await warmUp(open, entries, queries);
  const index = await open();
  const c0 = cpuMs();
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1000) await ok(index.write(entries.slice(i, i + 1000))());
  const batched = n / ((performance.now() - t0) / 1000);
  const batchedCpu = n / ((cpuMs() - c0) / 1000);
  const singles = Math.min(n, quick ? 200 : 2000);
  const extra = entries.slice(0, singles).map((e) => ({ ...e, id: `single-${e.id}` }));
  const t1 = performance.now();
  for (const e of extra) await ok(index.write([e])());
  const single = singles / ((performance.now() - t1) / 1000);
  const times: number[] = [];
  for (const q of queries) {
    const s = performance.now();
    await ok(index.search(q, { k: 10, namespace: "main" })());
    times.push(performance.now() - s);
  }
  for (const ns of ["main", "other"]) await ok(index.deleteNamespace(ns)());
  await ok(index.close()());
  const parts = [`${singles} single writes`, ...(note === "" ? [] : [note])];
  return { backend, n, batchedPerSec: batched, batchedPerCpuSec: batchedCpu, singlePerSec: single, searchMedianMs: pct(times, 0.5), searchP95Ms: times.length === 0 ? null : pct(times, 0.95), note: parts.join("; ") };
}

function scanBaseline(entries: IndexEntry[], queries: string[]): Row {
  const docs = entries.map((e) => ({ e, terms: new Set([...tokenize(e.summary), ...tokenize(e.content)]) }));
  const times: number[] = [];
  for (const q of queries) {
    const s = performance.now();
    const t = queryTerms(q);
    const hits = docs.filter((d) => d.e.namespace === "main" && t.some((x) => d.terms.has(x))).slice(0, 10);
    times.push(performance.now() - s + hits.length * 0);
  }
  return { backend: "linear scan (baseline)", n: entries.length, batchedPerSec: null, batchedPerCpuSec: null, singlePerSec: null, searchMedianMs: pct(times, 0.5), searchP95Ms: pct(times, 0.95), note: "pre-tokenised, no index" };
}


/** Drops the benchmark's tables (a table per size and kind of run) from the server. */
async function dropTables(url: string, tables: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  // A connection the server ends (a dropped database) is an error of the next query, not an uncaught event.
  client.on("error", () => undefined);
  await client.connect();
  try {
    for (const t of tables) await client.query(`DROP TABLE IF EXISTS ${t}`);
  } finally {
    await client.end();
  }
}

/** SWE-agent messages (content), repeated to `n` entries; empty when the data is not there. */
function transcriptEntries(n: number): IndexEntry[] {
  const dir = dataPath("swe-agent-trajectories");
  if (!existsSync(dir)) return [];
  const texts: string[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".traj")).sort()) {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, f), "utf8"));
    const history = typeof parsed === "object" && parsed !== null && "history" in parsed && Array.isArray(parsed.history) ? (parsed.history as unknown[]) : [];
    for (const m of history) {
      const content = typeof m === "object" && m !== null && "content" in m ? m.content : undefined;
      if (typeof content === "string" && content.length > 0) texts.push(content);
    }
  }
  if (texts.length === 0) return [];
  return Array.from({ length: n }, (_, i) => {
    const text = texts[i % texts.length]!;
    return entry({ id: `t${i}`, namespace: i % 10 === 0 ? "other" : "main", kind: "message", summary: text.split("\n", 1)[0]!.slice(0, 200), content: text, tokenCost: Math.ceil(text.length / 4) });
  });
}

/** The entries with a NUL and a lone surrogate in every content (the lossless-encoding path). */
const oddText = (entries: readonly IndexEntry[]): IndexEntry[] => entries.map((e) => ({ ...e, content: `${e.content} \u0000 binary \uD83D` }));

const sizes = quick ? [1000] : [10_000, 100_000];
const queryCount = Number(process.env["CC_BENCH_QUERIES"] ?? (quick ? 50 : 300));
const dir = mkdtempSync(join(tmpdir(), "cc-bench-sqlite-"));
const server = pgServer("hierarchical", 59000);
cleanupOnSignal(() => {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
});
const rows: Row[] = [];
const tables: string[] = [];
let runs = 0;
const sqlite = (): Promise<SegmentIndex> => ok(openSqliteIndex({ path: join(dir, `bench-${runs++}.db`) })());
const postgres = async (label: string, entries: IndexEntry[], queries: string[], note = ""): Promise<Row> => {
  if (server.url === undefined) return { backend: label, n: entries.length, batchedPerSec: null, batchedPerCpuSec: null, singlePerSec: null, searchMedianMs: null, searchP95Ms: null, note: server.why };
  const url = server.url;
  const table = `cc_bench_${process.pid}_${runs++}`;
  tables.push(table);
  return bench(label, () => ok(openPostgresIndex({ connection: url, table })()), entries, queries, note);
};
try {
  for (const [i, n] of sizes.entries()) {
    const entries = makeEntries(n);
    const queries = Array.from({ length: queryCount }, (_, j) => (j % 5 === 0 ? `file${r() % n}.py` : words(1 + (r() % 3))));
    rows.push(scanBaseline(entries, queries));
    rows.push(await bench("memory", async () => memoryIndex(), entries, queries));
    rows.push(await bench("sqlite file", sqlite, entries, queries));
    rows.push(await postgres("postgres", entries, queries));
    if (i > 0) continue;
    const odd = oddText(entries);
    rows.push(await bench("memory (odd text)", async () => memoryIndex(), odd, []));
    rows.push(await bench("sqlite file (odd text)", sqlite, odd, [], "NUL + lone surrogate in every content"));
    rows.push(await postgres("postgres (odd text)", odd, [], "NUL + lone surrogate in every content"));
    const real = transcriptEntries(2000);
    if (real.length > 0) {
      rows.push(await bench("memory (transcripts)", async () => memoryIndex(), real, [], "SWE-agent messages"));
      rows.push(await bench("sqlite file (transcripts)", sqlite, real, [], "SWE-agent messages"));
      rows.push(await postgres("postgres (transcripts)", real, [], "SWE-agent messages"));
    }
  }
} finally {
  if (server.url !== undefined && tables.length > 0) await dropTables(server.url, tables).catch((e: unknown) => console.error(`could not drop ${tables.join(", ")}: ${String(e)}`));
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A speed ratio that reads right in both directions: "2.2× scan's speed (faster)",
 * "0.4× scan's speed (slower)"; "(same)" when it rounds to 1.
 */
const relative = (r: number, digits: number, baseline: string): string => {
  const shown = r.toFixed(digits);
  const direction = shown === (1).toFixed(digits) ? "same" : r > 1 ? "faster" : "slower";
  return `${shown}× ${baseline}'s speed (${direction})`;
};
const ratio = (row: Row): string => {
  const family = row.backend.includes("(") ? row.backend.slice(row.backend.indexOf("(")) : "";
  const mem = rows.find((x) => x.n === row.n && x.backend === (family === "" ? "memory" : `memory ${family}`));
  const scan = rows.find((x) => x.n === row.n && x.backend.startsWith("linear"));
  if (row === scan) return "search baseline";
  const w = row === mem ? "writes baseline" : row.batchedPerSec !== null && mem?.batchedPerSec ? `writes ${relative(row.batchedPerSec / mem.batchedPerSec, 2, "memory")}` : "";
  const s = row.searchMedianMs !== null && scan?.searchMedianMs ? `search ${relative(scan.searchMedianMs / row.searchMedianMs, 1, "scan")}` : "";
  return [w, s].filter((x) => x !== "").join(", ");
};
const cell = (x: number | null): string | number => (x === null ? "-" : x);
printTable(
  `@cc/hierarchical index backends (${quick ? "quick" : "full"}; search k=10 in one namespace, ${queryCount} queries per size)`,
  ["backend", "n", "batched entries/s", "batched per CPU-s", "single entries/s", "search median ms", "search p95 ms", "vs baseline", "note"],
  rows.map((x) => [x.backend, x.n, cell(x.batchedPerSec), cell(x.batchedPerCpuSec), cell(x.singlePerSec), cell(x.searchMedianMs), cell(x.searchP95Ms), ratio(x), x.note]),
);
console.log(`results: ${writeResults("hierarchical", rows.map((x) => ({ ...x, vsBaseline: ratio(x) })))}`);
