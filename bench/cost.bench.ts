/**
 * Cost benchmark: replays every real transcript (CC_DATA_DIR, see .ci/data.ts) turn by turn
 * through the context manager under three policies — compact at threshold (the manager without a
 * policy, as the demo runs it), Hermes-style skip + back-off (`hermes`), the prompt-cache cost
 * model (`cost` with its defaults, and `cost@<centre>` for each centre of CC_COST_CENTRES) — and bills every request under two price sheets (Claude Sonnet 4 with prompt
 * caching, and the same prices with caching off). Reports total input cost, compactions, cache-hit
 * share, tokens sent and retention (share of re-accesses whose origin is in the prompt when
 * referenced; the re-access rule of bench/retention/reaccess.ts).
 *
 * Budget per transcript: 50% of its tokens (at least 2,000). Quick mode: 2 files per corpus;
 * CC_BENCH_LIMIT=N: the first N files per corpus. CC_COST_CENTRES: comma-separated `cycleCentre`
 * values to sweep (default "0.8,0.75,0.65,0.6"; empty for none).
 * Writes bench/results/cost.json and bench/results/cost.svg.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRICE_SHEETS, type PriceSheet } from "@cc/context";
import { withoutCaching } from "@cc/context/internal";
import { memoCounter, tiktokenCounter } from "@cc/tokens";
import { dataDir } from "../.ci/data.js";
import { printTable, quick, resultsDir, writeResults } from "./harness.js";
import { renderBarChart } from "./cost/chart.js";
import { loadCorpus } from "./cost/corpus.js";
import { replay, type ReplayFigures, type ReplayPolicy } from "./cost/replay.js";

const BUDGET_SHARE = 0.5;
const sonnet = PRICE_SHEETS["anthropic/claude-sonnet-4"];
const SHEETS: Readonly<Record<string, PriceSheet>> = { "with caching": sonnet, "without caching": withoutCaching(sonnet) };
/** Sweep of the cost model's `cycleCentre` (the cost/retention trade-off): `cost@<centre>`. */
const CENTRES: readonly number[] = (process.env["CC_COST_CENTRES"] ?? "0.8,0.75,0.65,0.6")
  .split(",")
  .filter((x) => x.trim() !== "")
  .map((x) => {
    const v = Number(x);
    if (!(v > 0 && v <= 1)) throw new Error(`CC_COST_CENTRES: expected shares in (0, 1], got ${x}`);
    return v;
  });
const LIMIT = ((): number => {
  const raw = process.env["CC_BENCH_LIMIT"];
  if (raw === undefined || raw === "") return quick ? 2 : Number.POSITIVE_INFINITY;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`CC_BENCH_LIMIT: expected a positive integer, got ${raw}`);
  return n;
})();
const POLICIES: readonly string[] = ["threshold", "hermes", "cost", ...CENTRES.map((c) => `cost@${c}`)];

/** The replays of one policy: the sheet-independent ones run once, the cost model once per sheet. */
function runsFor(policy: string): readonly { readonly sheets: readonly string[]; readonly p: ReplayPolicy }[] {
  if (policy === "threshold") return [{ sheets: Object.keys(SHEETS), p: { name: policy } }];
  if (policy === "hermes") return [{ sheets: Object.keys(SHEETS), p: { name: policy, policy: { kind: "hermes" } } }];
  const centre = policy.startsWith("cost@") ? { cycleCentre: Number(policy.slice(5)) } : {};
  return Object.entries(SHEETS).map(([sheet, prices]) => ({ sheets: [sheet], p: { name: policy, policy: { kind: "cost", prices, ...centre } } }));
}

interface Totals {
  cost: number;
  compactions: number;
  tokensSent: number;
  cachedTokens: number;
  kept: number;
  reaccesses: number;
  budgetMisses: number;
  turns: number;
  sessions: number;
  decisions: Record<string, number>;
}
const empty = (): Totals => ({ cost: 0, compactions: 0, tokensSent: 0, cachedTokens: 0, kept: 0, reaccesses: 0, budgetMisses: 0, turns: 0, sessions: 0, decisions: {} });
const add = (t: Totals, f: ReplayFigures, sheet: string): void => {
  t.cost += f.cost[sheet] ?? 0;
  t.compactions += f.compactions;
  t.tokensSent += f.tokensSent;
  t.cachedTokens += f.cachedTokens;
  t.kept += f.reaccessKept;
  t.reaccesses += f.reaccessTotal;
  t.budgetMisses += f.budgetMisses;
  t.turns += f.turns;
  t.sessions++;
  for (const [k, v] of Object.entries(f.decisions)) t.decisions[k] = (t.decisions[k] ?? 0) + v;
};

async function main(): Promise<void> {
  const t0 = performance.now();
  const { sessions, notes } = loadCorpus(dataDir(), LIMIT);
  if (sessions.length === 0) throw new Error(`no transcripts read from ${dataDir()}: ${notes.join("; ")}`);
  for (const n of notes) console.log(`note: ${n}`);
  const counter = memoCounter(tiktokenCounter(), { maxEntries: 200_000, maxBytes: 64 * 1024 * 1024 });
  const totals = new Map<string, Totals>();
  const cell = (corpus: string, policy: string, sheet: string): Totals => {
    const k = `${corpus}|${policy}|${sheet}`;
    if (!totals.has(k)) totals.set(k, empty());
    return totals.get(k)!;
  };
  try {
    for (const [i, s] of sessions.entries()) {
      for (const policy of POLICIES) {
        for (const run of runsFor(policy)) {
          const f = await replay(s.messages, run.p, counter, BUDGET_SHARE, SHEETS);
          for (const sheet of run.sheets) {
            add(cell(s.corpus, policy, sheet), f, sheet);
            add(cell("all", policy, sheet), f, sheet);
          }
        }
      }
      if ((i + 1) % 10 === 0) console.log(`  … ${i + 1}/${sessions.length} transcripts (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
  } finally {
    counter.dispose();
  }
  const corpora = ["all", ...new Set(sessions.map((s) => s.corpus))];
  const rows = corpora.flatMap((corpus) =>
    Object.keys(SHEETS).flatMap((sheet) => {
      const base = cell(corpus, "threshold", sheet).cost;
      return POLICIES.map((policy) => {
        const t = cell(corpus, policy, sheet);
        return {
          corpus, sheet, policy, sessions: t.sessions, turns: t.turns,
          inputCostUsd: Number(t.cost.toFixed(4)),
          cutVsThresholdPct: base > 0 ? Number((100 * (1 - t.cost / base)).toFixed(1)) : 0,
          compactions: t.compactions,
          cacheHitPct: t.tokensSent > 0 ? Number(((100 * t.cachedTokens) / t.tokensSent).toFixed(1)) : 0,
          tokensSent: t.tokensSent,
          retentionPct: t.reaccesses > 0 ? Number(((100 * t.kept) / t.reaccesses).toFixed(2)) : 0,
          reaccesses: t.reaccesses,
          budgetMisses: t.budgetMisses,
          decisions: t.decisions,
        };
      });
    }),
  );
  printTable(
    `input cost by policy (budget ${BUDGET_SHARE * 100}% of each transcript; ${sessions.length} transcripts)`,
    ["corpus", "sheet", "policy", "input $", "cut vs threshold %", "compactions", "cache hit %", "tokens sent", "retention %", "budget misses"],
    rows.map((r) => [r.corpus, r.sheet, r.policy, r.inputCostUsd, r.cutVsThresholdPct, r.compactions, r.cacheHitPct, r.tokensSent, r.retentionPct, r.budgetMisses]),
  );
  const pooled = rows.filter((r) => r.corpus === "all");
  const goals = Object.keys(SHEETS).map((sheet) => {
    const here = pooled.filter((r) => r.sheet === sheet && !r.policy.startsWith("cost@"));
    const cost = here.find((r) => r.policy === "cost")!;
    const cheapest = Math.min(...here.map((r) => r.inputCostUsd));
    const bestRetention = Math.max(...here.map((r) => r.retentionPct));
    const cheapestRow = here.find((r) => r.inputCostUsd === cheapest)!;
    return {
      sheet, costModelCheapest: cost.inputCostUsd <= cheapest, cheapestPolicy: cheapestRow.policy, cheapestRetentionPct: cheapestRow.retentionPct,
      retentionGapPts: Number((bestRetention - cost.retentionPct).toFixed(2)), cutVsThresholdPct: cost.cutVsThresholdPct,
    };
  });
  printTable(
    "goals (pooled corpus; cost model = `cost`; ties count as cheapest)",
    ["sheet", "cost model cheapest", "cheapest policy (retention %)", "cost model retention gap to best (pts)", "cut vs threshold %"],
    goals.map((g) => [g.sheet, g.costModelCheapest ? "yes" : "no", `${g.cheapestPolicy} (${g.cheapestRetentionPct})`, g.retentionGapPts, g.cutVsThresholdPct]),
  );
  const path = writeResults("cost", { budgetShare: BUDGET_SHARE, priceSheets: SHEETS, filesPerCorpus: Number.isFinite(LIMIT) ? LIMIT : "all", centres: CENTRES, sessions: sessions.length, notes, goals, rows });
  console.log(`wrote ${path}`);
  const svg = renderBarChart(
    `Input cost of ${sessions.length} replayed transcripts by compaction policy (above each bar: retention)`,
    "total input cost (USD)",
    Object.keys(SHEETS).map((sheet) => ({ label: sheet, bars: pooled.filter((r) => r.sheet === sheet).map((r) => ({ policy: r.policy, value: r.inputCostUsd, note: `${r.retentionPct.toFixed(1)}%` })) })),
  );
  writeFileSync(join(resultsDir, "cost.svg"), svg);
  console.log(`wrote ${join(resultsDir, "cost.svg")} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

await main();
