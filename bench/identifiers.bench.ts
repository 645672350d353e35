/**
 * Identifier search after eviction: can the agent find the one file it read, by the name it
 * remembers? A held-in scenario (the shape of a real coding run): an agent reads 20 files
 * `src/module_N.py` (each `# src/module_N.py`, `SECRET_N = 300N`, functions `handler_N_i`), one
 * `read_file` call per step (120 handlers each, ~2,400 tokens), through one context manager (`hierarchical`, 8,000-token budget, the
 * exact counter), so the older results are evicted into the index with their summaries. Then every
 * evicted module is searched for in four shapes — `module_N`, `src/module_N.py`, `SECRET_N`,
 * `handler_N_7` — whose single right answer is that module's entry. Single-digit N are the hard
 * case: `module_1` is a prefix of `module_10` … `module_19`.
 *
 * Contenders, on the same written entries: the manager's own `search` (memory and SQLite index,
 * the path the agent's tool takes); the exhaustive BM25 baseline, MiniSearch, FlexSearch, Orama
 * and raw FTS5 of the search benchmark; and the rule a user could write in one line, "the newest
 * entry whose text contains the query" (substring, newest first). Reported: hit@1 and hit@5 per
 * shape and overall, with 95 % Wilson intervals; results in bench/results/identifiers.json.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createContextManager } from "@cc/context";
import { memoryIndex, openSqliteIndex, type IndexEntry, type SegmentIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import { printTable, writeResults } from "./harness.js";
import { ExhaustiveBm25, flexsearch, fts5, minisearch, orama, type SearchContender } from "./search/contenders.js";

const MODULES = 20;
const BUDGET = 8000;
const SHAPES = ["module_N", "src/module_N.py", "SECRET_N", "handler_N_7"] as const;
type Shape = (typeof SHAPES)[number];

/** The `read_file` result of module `n`: a header, a secret and 120 handlers (~2,400 tokens). */
const moduleText = (n: number): string =>
  [
    `# src/module_${n}.py`,
    `SECRET_${n} = ${3000 + n}`,
    ...Array.from({ length: 120 }, (_, i) => `def handler_${n}_${i}(request): return dispatch(request, ${i})`),
  ].join("\n");

const query = (shape: Shape, n: number): string => shape.replace("N", String(n));

/** 95 % Wilson interval of `hits` out of `n`. */
function wilson(hits: number, n: number): readonly [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.96;
  const p = hits / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}

async function ok<A>(p: Promise<{ _tag: "Left"; left: unknown } | { _tag: "Right"; right: A }>): Promise<A> {
  const x = await p;
  if (x._tag === "Left") throw new Error(JSON.stringify(x.left));
  return x.right;
}

/**
 * Runs the agent's session through a manager writing to `index`; returns the evicted entries
 * (as the index holds them), the module each belongs to, and the manager's search.
 */
async function session(index: SegmentIndex): Promise<{
  readonly entries: readonly IndexEntry[];
  readonly moduleOf: ReadonlyMap<string, number>;
  readonly search: (q: string, k: number) => Promise<readonly string[]>;
}> {
  const counter = tiktokenCounter();
  // One step a minute: entries evicted later carry a later evictedAt (what "newest first" sorts by).
  const clock = { t: 1_750_000_000_000 };
  const manager = createContextManager({
    maxTokens: BUDGET,
    strategy: "hierarchical",
    counter,
    index,
    namespace: "main",
    now: () => clock.t,
  });
  let context: Message[] = [
    { role: "system", content: "You are a coding agent. Read the modules, then fix the failing handler." },
    { role: "user", content: "The test tests/test_dispatch.py fails: one handler returns the wrong value. Find it." },
  ];
  const evicted = new Set<string>();
  for (let n = 1; n <= MODULES; n++) {
    clock.t += 60_000;
    context.push({
      role: "assistant",
      content: `Reading module ${n}.`,
      toolCalls: [{ id: `call_${n}`, name: "read_file", arguments: JSON.stringify({ path: `src/module_${n}.py` }) }],
    });
    context.push({ role: "tool", toolCallId: `call_${n}`, content: moduleText(n) });
    const turn = await manager.compact(context);
    for (const e of turn.evicted) evicted.add(e.id);
    context = [...turn.messages];
  }
  const entries: IndexEntry[] = [];
  const moduleOf = new Map<string, number>();
  for (const id of evicted) {
    const e = await ok(index.expand(id, "main")());
    if (e === undefined) continue;
    entries.push(e);
    const m = /# src\/module_(\d+)\.py/.exec(e.content);
    if (m !== null) moduleOf.set(id, Number(m[1]));
  }
  counter.dispose();
  return { entries, moduleOf, search: async (q, k) => (await manager.search(q, k)).map((h) => h.id) };
}

/** The one-line rule: entries whose summary or content contains the query, newest first. */
function substringNewestFirst(): SearchContender {
  let all: readonly IndexEntry[] = [];
  return {
    name: "substring, newest first (one-line rule)",
    role: "baseline",
    build: async (entries) => {
      all = [...entries].sort((a, b) => b.evictedAt - a.evictedAt || b.createdAt - a.createdAt);
      return { entriesPerSec: Number.NaN, entriesPerCpuSec: Number.NaN };
    },
    search: async (q) =>
      all
        .filter((e) => e.content.includes(q) || e.summary.includes(q))
        .slice(0, 10)
        .map((e) => e.id),
    close: async () => undefined,
  };
}

interface Row {
  readonly contender: string;
  readonly shape: Shape | "all";
  readonly queries: number;
  readonly hit1: number;
  readonly hit1Interval: readonly [number, number];
  readonly hit5: number;
  readonly hit5Interval: readonly [number, number];
}

function score(
  contender: string,
  ranked: ReadonlyMap<string, readonly string[]>,
  targets: readonly { readonly shape: Shape; readonly q: string; readonly id: string }[],
): Row[] {
  const rows: Row[] = [];
  for (const shape of [...SHAPES, "all"] as const) {
    const qs = targets.filter((t) => shape === "all" || t.shape === shape);
    const h1 = qs.filter((t) => ranked.get(t.q)?.[0] === t.id).length;
    const h5 = qs.filter((t) => (ranked.get(t.q) ?? []).slice(0, 5).includes(t.id)).length;
    rows.push({
      contender,
      shape,
      queries: qs.length,
      hit1: h1 / Math.max(1, qs.length),
      hit1Interval: wilson(h1, qs.length),
      hit5: h5 / Math.max(1, qs.length),
      hit5Interval: wilson(h5, qs.length),
    });
  }
  return rows;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "cc-bench-identifiers-"));
  const rows: Row[] = [];
  let evictedModules: readonly number[] = [];
  try {
    const sqlite = await ok(openSqliteIndex({ path: join(dir, "journal.db") })());
    const runs = [
      { name: "ours: manager.search, memory index", index: memoryIndex() },
      { name: "ours: manager.search, SQLite index", index: sqlite },
    ];
    let written: readonly IndexEntry[] = [];
    let targets: { readonly shape: Shape; readonly q: string; readonly id: string }[] = [];
    for (const [i, r] of runs.entries()) {
      const s = await session(r.index);
      const byModule = new Map([...s.moduleOf].map(([id, n]) => [n, id] as const));
      if (i === 0) {
        written = s.entries;
        evictedModules = [...byModule.keys()].sort((a, b) => a - b);
      }
      const here = SHAPES.flatMap((shape) => [...byModule].map(([n, id]) => ({ shape, q: query(shape, n), id })));
      if (i === 0) targets = here;
      const ranked = new Map<string, readonly string[]>();
      for (const t of here) ranked.set(t.q, await s.search(t.q, 10));
      rows.push(...score(r.name, ranked, here));
      await ok(r.index.close()());
    }
    // The same entries, the same queries, for everything a user could pick instead.
    const others: SearchContender[] = [
      new ExhaustiveBm25(),
      substringNewestFirst(),
      minisearch(),
      flexsearch(),
      orama(),
      fts5(dir, "rank"),
    ];
    for (const c of others) {
      await c.build(written);
      const ranked = new Map<string, readonly string[]>();
      for (const t of targets) ranked.set(t.q, await c.search(t.q));
      rows.push(...score(c.name, ranked, targets));
      await c.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const iv = (x: readonly [number, number]): string => `[${pct(x[0])}, ${pct(x[1])}]`;
  printTable(
    `Identifier search after eviction (${evictedModules.length} of ${MODULES} modules evicted at ${BUDGET} tokens; modules ${evictedModules.join(", ")})`,
    ["contender", "shape", "queries", "hit@1", "95% CI", "hit@5", "95% CI"],
    rows.map((r) => [
      r.contender,
      r.shape,
      r.queries,
      pct(r.hit1),
      iv(r.hit1Interval),
      pct(r.hit5),
      iv(r.hit5Interval),
    ]),
  );
  console.log(
    `results: ${writeResults("identifiers", { budget: BUDGET, modules: MODULES, evictedModules, shapes: SHAPES, rows })}`,
  );
}

await main();
