/**
 * @cc/hierarchical index backends: write throughput (batched and one entry per transaction) and
 * search latency (median, p95) at 1e4 and 1e5 entries (quick mode: 1e3).
 * Baselines measured in the same run: writes relative to the in-memory backend, search relative
 * to a linear scan over the same entries (tokenised terms, no index).
 *
 * PostgreSQL uses CC_PG_URL, or starts a throwaway cluster with .ci/postgres.sh; when neither
 * works its rows say "unavailable".
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IndexEntry, SegmentIndex } from "@cc/hierarchical";
import { entry, memoryIndex, openPostgresIndex, openSqliteIndex, queryTerms, tokenize } from "@cc/hierarchical";
import { printTable, quick, writeResults } from "./harness.js";

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

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};

interface Row {
  readonly backend: string;
  readonly n: number;
  readonly batchedPerSec: number | null;
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

async function bench(backend: string, open: () => Promise<SegmentIndex>, entries: IndexEntry[], queries: string[]): Promise<Row> {
  const n = entries.length;
  const index = await open();
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1000) await ok(index.write(entries.slice(i, i + 1000))());
  const batched = n / ((performance.now() - t0) / 1000);
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
  return { backend, n, batchedPerSec: batched, singlePerSec: single, searchMedianMs: pct(times, 0.5), searchP95Ms: pct(times, 0.95), note: `${singles} single writes` };
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
  return { backend: "linear scan (baseline)", n: entries.length, batchedPerSec: null, singlePerSec: null, searchMedianMs: pct(times, 0.5), searchP95Ms: pct(times, 0.95), note: "pre-tokenised, no index" };
}

function pgUrl(): { url: string; stop: () => void } | undefined {
  const given = process.env["CC_PG_URL"];
  if (given !== undefined && given !== "") return { url: given, stop: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), "cc-bench-pg-"));
  const script = fileURLToPath(new URL("../.ci/postgres.sh", import.meta.url));
  try {
    const url = execFileSync("bash", [script, "start", dir, String(59000 + Math.floor(Math.random() * 500))], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return { url, stop: () => (execFileSync("bash", [script, "stop", dir], { stdio: "ignore" }), rmSync(dir, { recursive: true, force: true })) };
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

const sizes = quick ? [1000] : [10_000, 100_000];
const queryCount = quick ? 50 : 300;
const dir = mkdtempSync(join(tmpdir(), "cc-bench-sqlite-"));
const server = pgUrl();
const rows: Row[] = [];
try {
  for (const n of sizes) {
    const entries = makeEntries(n);
    const queries = Array.from({ length: queryCount }, (_, i) => (i % 5 === 0 ? `file${r() % n}.py` : words(1 + (r() % 3))));
    rows.push(scanBaseline(entries, queries));
    rows.push(await bench("memory", async () => memoryIndex(), entries, queries));
    rows.push(await bench("sqlite file", () => ok(openSqliteIndex({ path: join(dir, `bench-${n}.db`) })()), entries, queries));
    if (server === undefined) rows.push({ backend: "postgres", n, batchedPerSec: null, singlePerSec: null, searchMedianMs: null, searchP95Ms: null, note: "unavailable" });
    else {
      const table = `bench_${n}_${process.pid}`;
      rows.push(await bench("postgres", () => ok(openPostgresIndex({ connection: server.url, table })()), entries, queries));
    }
  }
} finally {
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
}

const ratio = (row: Row): string => {
  const mem = rows.find((x) => x.n === row.n && x.backend === "memory");
  const scan = rows.find((x) => x.n === row.n && x.backend.startsWith("linear"));
  const w = row.batchedPerSec !== null && mem?.batchedPerSec ? `${(row.batchedPerSec / mem.batchedPerSec).toFixed(2)}× mem writes` : "";
  const s = row.searchMedianMs !== null && scan?.searchMedianMs ? `${(scan.searchMedianMs / row.searchMedianMs).toFixed(1)}× faster than scan` : "";
  return [w, s].filter((x) => x !== "").join(", ");
};
const cell = (x: number | null): string | number => (x === null ? "-" : x);
printTable(
  `@cc/hierarchical index backends (${quick ? "quick" : "full"}; search k=10 in one namespace, ${queryCount} queries)`,
  ["backend", "n", "batched entries/s", "single entries/s", "search median ms", "search p95 ms", "vs baseline", "note"],
  rows.map((x) => [x.backend, x.n, cell(x.batchedPerSec), cell(x.singlePerSec), cell(x.searchMedianMs), cell(x.searchP95Ms), ratio(x), x.note]),
);
console.log(`results: ${writeResults("hierarchical", rows.map((x) => ({ ...x, vsBaseline: ratio(x) })))}`);
