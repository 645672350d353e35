// The root README's generated figures agree with bench/results: a benchmark re-run without
// `npx tsx bench/report/readme.ts --write`, or a hand edit of a figure, fails here.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { END, renderResults, ROOT, START, withResults } from "../report/readme.js";

describe("README results block", () => {
  it("equals what bench/results renders to", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(START);
    expect(readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim()).toBe(renderResults().trim());
  });

  it("renders a missing results file as missing, a quick run as quick, and replaces only between the markers", () => {
    const root = mkdtempSync(join(tmpdir(), "cc-readme-"));
    mkdirSync(join(root, "bench", "results"), { recursive: true });
    writeFileSync(
      join(root, "bench", "results", "adapters.json"),
      JSON.stringify({
        name: "adapters",
        quick: true,
        date: "2026-01-02T00:00:00Z",
        data: {
          rows: [
            {
              framework: "ai-sdk",
              contender: "ours",
              budget: 100,
              prompts: 2,
              overBudget: 0,
              unitsSplit: 0,
              reaccesses: 4,
              reaccessKept: 3,
              grounding: 2,
              grounded: 2,
            },
          ],
        },
      }),
    );
    const cost = (split: string | undefined, policy: string, usd: number): Record<string, unknown> => ({
      ...(split === undefined ? {} : { split }),
      corpus: "all",
      sheet: "with caching",
      policy,
      sessions: split === "eval" ? 2 : 4,
      inputCostUsd: usd,
      compactions: 3,
      retentionPct: 70,
    });
    writeFileSync(
      join(root, "bench", "results", "cost.json"),
      JSON.stringify({
        name: "cost",
        quick: true,
        date: "2026-01-02T00:00:00Z",
        data: {
          rows: [
            cost("all", "cost", 9),
            cost("eval", "cost", 4),
            cost("dev", "cost", 5),
            { ...cost("eval", "cost", 1), corpus: "swe-agent" },
          ],
        },
      }),
    );
    const block = renderResults(root);
    // The cost rows of the evaluation split only, pooled over corpora.
    expect(block).toContain(
      "| input cost of replaying 2 transcripts (evaluation split), with prompt caching | cost $4.0 (3 compactions, retention 70.0%) — `bench/results/cost.json`, quick run 2026-01-02 |",
    );
    writeFileSync(
      join(root, "bench", "results", "cost.json"),
      JSON.stringify({
        name: "cost",
        quick: false,
        date: "2026-01-02T00:00:00Z",
        data: { rows: [cost(undefined, "cost", 9)] },
      }),
    );
    expect(renderResults(root)).toContain(
      "| input cost of replaying 4 transcripts, with prompt caching | cost $9.0 (3 compactions, retention 70.0%) — `bench/results/cost.json`, full run 2026-01-02 |",
    );
    // Fixed budgets: one row per budget and sheet, with the bootstrap differences.
    writeFileSync(
      join(root, "bench", "results", "cost.json"),
      JSON.stringify({
        name: "cost",
        quick: false,
        date: "2026-01-02T00:00:00Z",
        data: {
          rows: [
            { ...cost("eval", "cost", 4), budget: 8000 },
            { ...cost("eval", "hermes", 5), budget: 8000 },
          ],
          differences: [
            {
              split: "eval",
              budget: 8000,
              sheet: "with caching",
              rival: "hermes",
              differencePct: -20,
              lo: -30,
              hi: -10,
            },
            {
              split: "eval",
              budget: 8000,
              sheet: "with caching",
              rival: "threshold",
              differencePct: -1,
              lo: -2,
              hi: 0,
            },
          ],
        },
      }),
    );
    expect(renderResults(root)).toContain(
      "| input cost of replaying 2 transcripts (evaluation split) at a budget of 8000 tokens, with prompt caching | cost $4.0 (3 compactions, retention 70.0%), hermes $5.0 (3 compactions, retention 70.0%); cost model minus rival (session bootstrap 95% CI): vs hermes -20.0% [-30.0, -10.0] — `bench/results/cost.json`, full run 2026-01-02 |",
    );

    expect(block).toContain("`bench/results/tokens.json` missing");
    expect(block).toContain("| retention | `bench/results/retention.json` missing |");
    const e = (value: number): Record<string, number> => ({ value, lo: value - 0.05, hi: value + 0.05, n: 10 });
    const budget = (m: number, r: number): Record<string, unknown> => ({
      manager: { "needed.available": e(m) },
      lru: { "needed.available": e(r) },
    });
    const headline = (b: string, d: number): Record<string, unknown> => ({
      budget: b,
      metrics: ["needed.available", "reaccess", "grounding"].map((metric) => ({
        metric,
        rival: "lru",
        difference: { value: d, lo: d - 0.05, hi: d + 0.05 },
      })),
    });
    writeFileSync(
      join(root, "bench", "results", "retention.json"),
      JSON.stringify({
        name: "retention",
        quick: false,
        date: "2026-01-02T00:00:00Z",
        data: {
          sessions: { eval: ["a", "b"] },
          table: { real: { "10%": budget(0.5, 0.4), "20%": budget(0.7, 0.6) } },
          headline: [headline("10%", 0.1), headline("20%", 0.1)],
          goal: [
            { budget: "10%", met: true },
            { budget: "20%", met: false },
          ],
        },
      }),
    );
    const retention = renderResults(root);
    expect(retention).toContain(
      "| retention: needed facts available at 10% / 20% of each session's peak context, 2 real transcripts of the evaluation split, % (95% CI) | manager 50.0 (45.0–55.0) / 70.0 (65.0–75.0); lru 40.0 (35.0–45.0) / 60.0 (55.0–65.0) — `bench/results/retention.json`, full run 2026-01-02 |",
    );
    expect(retention).toContain(
      "| the manager minus the best simple rule, needed facts available, points (paired 95% CI) | 10%: 10.0 vs lru (5.0 to 15.0); 20%: 10.0 vs lru (5.0 to 15.0); goal (≥ +10 with the interval above 0, re-access and grounding within 1 point): 10% met, 20% not met |",
    );
    expect(block).toContain(
      "ours: 0/2 over budget, 0 units split, re-access 75%, grounding 100% — `bench/results/adapters.json`, quick run 2026-01-02",
    );
    // The namespaces rows: per backend, median with its interval and the memory ratios; an older file with medians only.
    writeFileSync(
      join(root, "bench", "results", "namespaces.json"),
      JSON.stringify({
        name: "namespaces",
        quick: false,
        date: "2026-01-02T00:00:00Z",
        data: {
          perNamespace: 1000,
          rows: [
            {
              backend: "postgres",
              n: 1_000_000,
              namespaces: 1000,
              rounds: 20,
              namespaceFirstMs: 42,
              namespaceFirst: { median: 42, lo: 40, hi: 50 },
              rssGrowthBytes: 3 * 2 ** 20,
              rssGrowth: { lo: 2 * 2 ** 20, hi: 4 * 2 ** 20 },
              cacheBytes: 2 ** 20,
              rssRatio: 3,
              retainedRatio: 1.5,
              wholeFirstMs: 12_000,
            },
          ],
        },
      }),
    );
    expect(renderResults(root)).toContain(
      "| first search in one namespace of 1,000 entries of a shared 1,000,000-entry index (1,000 namespaces), fresh process from rows, median of 20 processes [95% interval] (goal ≤ 100 ms, RSS growth ≤ 2×) | PostgreSQL: 42 ms [40, 50], RSS growth 3.0 MiB [2.0, 4.0] = 3.0× the 1.0 MiB its postings need by the cache's estimate (1.5× retained after a collection); whole-index first search 12.0 s — `bench/results/namespaces.json`, full run 2026-01-02 |",
    );
    // A row with the database store's view and the small-young-generation view.
    writeFileSync(
      join(root, "bench", "results", "namespaces.json"),
      JSON.stringify({
        name: "namespaces",
        quick: false,
        date: "2026-01-02T00:00:00Z",
        data: {
          perNamespace: 1000,
          loadAverage: { start: [7.24, 6, 5], end: [3.1, 5, 5] },
          rows: [
            {
              backend: "sqlite",
              n: 1_000_000,
              namespaces: 1000,
              rounds: 20,
              namespaceFirstMs: 42,
              wholeFirstMs: 12_000,
              dbSnapshotFirstMs: 9,
              dbSnapshotFirst: { median: 9, lo: 8, hi: 12 },
              dbSnapshotRssGrowth: { median: 2 ** 20, lo: 0.5 * 2 ** 20, hi: 1.5 * 2 ** 20 },
              dbSnapshotCacheBytes: 2 ** 20,
              dbSnapshotRssRatio: 1,
              smallYoungFirst: { median: 50 },
              smallYoungRssGrowth: { median: 4 * 2 ** 20 },
              smallYoungCacheBytes: 2 * 2 ** 20,
              smallYoungRssRatio: 2,
            },
          ],
        },
      }),
    );
    expect(renderResults(root)).toContain(
      "| SQLite: 42 ms; on a host with no snapshot, from the snapshot kept in the database 9 ms [8, 12], RSS growth 1.0 MiB [0.5, 1.5] = 1.0× its 1.0 MiB; from rows in a node run with `--max-semi-space-size=1` 50 ms, RSS growth 4.0 MiB = 2.0× its 2.0 MiB; whole-index first search 12.0 s — `bench/results/namespaces.json`, full run 2026-01-02, machine load average 3.1–7.2 |",
    );
    writeFileSync(
      join(root, "bench", "results", "namespaces.json"),
      JSON.stringify({
        name: "namespaces",
        quick: true,
        date: "2026-01-02T00:00:00Z",
        data: {
          perNamespace: 1000,
          rounds: 5,
          rows: [{ n: 100_000, namespaces: 100, namespaceFirstMs: 45, wholeFirstMs: 900 }],
        },
      }),
    );
    expect(renderResults(root)).toContain(
      "(100 namespaces), fresh process from rows, median of 5 processes [95% interval] (goal ≤ 100 ms, RSS growth ≤ 2×) | SQLite: 45 ms; whole-index first search 900 ms — `bench/results/namespaces.json`, quick run 2026-01-02 |",
    );
    expect(block).toContain(
      "| fleet of worker processes on one PostgreSQL index | `bench/results/fleet.json` missing |",
    );
    writeFileSync(
      join(root, "bench", "results", "fleet.json"),
      JSON.stringify({
        name: "fleet",
        quick: false,
        date: "2026-01-02T00:00:00Z",
        data: {
          workers: 2,
          namespaces: 4,
          durationMs: 60_000,
          kills: 3,
          serverDownMs: 2500,
          acknowledged: 1234,
          lost: 0,
          crossHitsDuringRun: 0,
          crossHitsAtEnd: 0,
          searches: 100,
          verifySearches: 20,
          perWorker: [{ entriesPerSec: 10 }, { entriesPerSec: 12.4 }],
          searchP50Ms: 3.21,
          searchP99Ms: 40,
          firstSearchP50Ms: 60,
          afterRestartSearchP50Ms: 30,
        },
      }),
    );
    expect(renderResults(root)).toContain(
      "| fleet: 2 worker processes, 4 namespaces on one PostgreSQL table, 60 s with 3 SIGKILLs of workers and a server crash/restart (2.5 s down) | 1,234 entries acknowledged, 0 lost, 0 cross-namespace hits in 120 searches; 10–12 entries/s per worker; search p50 3.2 ms, p99 40 ms; a fresh worker's first search p50 60 ms; first search after the restart p50 30 ms — `bench/results/fleet.json`, full run 2026-01-02 |",
    );
    expect(block).toContain(
      "| whole-index cold start with a postings snapshot | `bench/results/snapshot.json` missing |",
    );
    writeFileSync(
      join(root, "bench", "results", "snapshot.json"),
      JSON.stringify({
        name: "snapshot",
        quick: false,
        date: "2026-01-02T00:00:00Z",
        data: {
          rows: [
            {
              backend: "sqlite",
              n: 1000000,
              snapshotBytes: 250e6,
              withSnapshotMs: 900,
              withSnapshotFirstSearchMs: 700,
              withoutSnapshotMs: 19000,
              firstSearchTimesReadFile: 1.4,
            },
          ],
          skipped: [],
        },
      }),
    );
    expect(renderResults(root)).toContain(
      "| whole-index cold start (open + first search) in a fresh process, with a postings snapshot (goal ≤ 1 s at 1e6, ≤ 1.5× reading the file) | sqlite 1,000,000 entries: 900 ms (first search 700 ms; 1.4× reading the 250 MB file) against 19.0 s without — `bench/results/snapshot.json`, full run 2026-01-02 |",
    );
    // A row with the cold-start ratio and the per-round pairing.
    writeFileSync(
      join(root, "bench", "results", "snapshot.json"),
      JSON.stringify({
        name: "snapshot",
        quick: false,
        date: "2026-01-02T00:00:00Z",
        data: {
          rows: [
            {
              backend: "sqlite",
              n: 1000000,
              snapshotBytes: 250e6,
              withSnapshotMs: 300,
              withSnapshotFirstSearchMs: 290,
              withoutSnapshotMs: 19000,
              timesReadFile: 1.5,
              pairedTimesReadFile: 1.45,
              pairedMin: 1.2,
              pairedMax: 1.7,
              rounds: 5,
            },
          ],
          skipped: [],
        },
      }),
    );
    expect(renderResults(root)).toContain(
      "| sqlite 1,000,000 entries: 300 ms (1.50× reading the 250 MB file; per round 1.45× [1.20, 1.70] over 5 rounds; first search 290 ms) against 19.0 s without — ",
    );
    // A row with the preloaded view.
    writeFileSync(
      join(root, "bench", "results", "snapshot.json"),
      JSON.stringify({
        name: "snapshot",
        quick: false,
        date: "2026-01-02T00:00:00Z",
        data: {
          rows: [
            {
              backend: "postgres",
              n: 1000000,
              snapshotBytes: 250e6,
              withSnapshotMs: 400,
              withSnapshotFirstSearchMs: 330,
              withoutSnapshotMs: 28000,
              timesReadFile: 1.6,
              pairedTimesReadFile: 1.7,
              pairedMin: 1.2,
              pairedMax: 2.1,
              rounds: 5,
              preloadMs: 320,
              preloadTimesReadFile: 1.28,
              preloadPairedTimesReadFile: 1.3,
              preloadPairedMin: 1.1,
              preloadPairedMax: 1.45,
            },
          ],
          skipped: [],
        },
      }),
    );
    expect(renderResults(root)).toContain(
      "| postgres 1,000,000 entries: 400 ms (1.60× reading the 250 MB file; per round 1.70× [1.20, 2.10] over 5 rounds; first search 330 ms); with the snapshot preloaded (read while the driver loads and connects) 320 ms (1.28× reading the file; per round 1.30× [1.10, 1.45]) against 28.0 s without — ",
    );
    expect(withResults(`a\n${START}\nold\n${END}\nz`, "new")).toBe(`a\n${START}\nnew\n${END}\nz`);
    expect(withResults("no markers", "new")).toBe("no markers");
  });
});
