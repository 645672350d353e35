/**
 * Cost benchmark: replays real transcripts (CC_DATA_DIR, see .ci/data.ts) turn by turn under five
 * policies — compact at threshold (`threshold`: at the trigger, down to the same target as the
 * others, no skip, no back-off), Hermes-style skip + back-off (`hermes`), tool-result clearing as
 * Claude's `clear_tool_uses` / LangChain's `ClearToolUsesEdit` (`tool-result-clearing`,
 * bench/cost/clearing.ts), the prompt-cache cost model (`cost` with its defaults, and
 * `cost@<centre>` for each centre of CC_COST_CENTRES) — the manager's policies fed the full
 * history every turn — and bills every
 * request under two price sheets (Claude Sonnet 4 with prompt caching, and the same prices with
 * caching off). Reports total input cost, compactions, cache-hit share, tokens sent and retention
 * (share of re-accesses whose origin is in the prompt when referenced; the re-access rule of
 * bench/retention/reaccess.ts).
 *
 * Transcripts fall in the retention benchmark's development / evaluation split (bench/cost/corpus.ts).
 * CC_COST_SPLIT=dev: the `cycleCentre` sweep on the development split and the choice of the rule
 * of bench/README.md ("Cost benchmark"; bench/cost/selection.ts), written to
 * bench/results/cost-selection.json. Otherwise (CC_COST_SPLIT=eval, the default): every transcript,
 * reported on the evaluation split with the pooled and development figures for reference, written
 * to bench/results/cost.json and cost.svg (the evaluation split).
 *
 * Budgets: a fixed list of token budgets (CC_COST_BUDGETS, default 4,000 / 8,000 / 16,000; quick
 * mode 8,000), each reported on its own — no budget is derived from a transcript's final length or
 * peak (future information). Differences `cost` − `hermes` and `cost` − `tool-result-clearing`
 * (share of the rival's input cost) carry a session-bootstrap 95% interval (2,000 resamples).
 * Quick mode: the first transcript of each corpus and split; CC_BENCH_LIMIT=N: the first N. CC_COST_CENTRES: comma-separated
 * `cycleCentre` values to sweep (default: the grid below with CC_COST_SPLIT=dev, none otherwise;
 * empty for none).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRICE_SHEETS, type PriceSheet } from "@cc/context";
import { decodePolicy, withoutCaching } from "@cc/test-support/context";
import { memoCounter, tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { dataDir } from "../.ci/data.js";
import { printTable, quick, resultsDir, writeResults } from "./harness.js";
import { renderBarChart } from "./cost/chart.js";
import { loadCorpus } from "./cost/corpus.js";
import { replay, type ReplayPolicy } from "./cost/replay.js";
import { relativeDifference } from "./cost/intervals.js";
import { chooseCentre } from "./cost/selection.js";
import { resamples } from "./retention/stats.js";
import { addReplay, emptyTotals, goalOf, rowOf, type CostRow, type RowSplit, type Totals } from "./cost/totals.js";

const TRIGGER = 0.8;
/** The share of the budget every compacting policy cuts down to (the policies' default `target`). */
const TARGET = 0.5;
/** Fixed token budgets, each reported on its own. */
const BUDGETS: readonly number[] = (process.env["CC_COST_BUDGETS"] ?? (quick ? "8000" : "4000,8000,16000"))
  .split(",")
  .filter((x) => x.trim() !== "")
  .map((x) => {
    const v = Number(x);
    if (!Number.isInteger(v) || v < 1000)
      throw new Error(`CC_COST_BUDGETS: expected integers of at least 1000, got ${x}`);
    return v;
  });
/** Tool-result clearing: trigger at the manager's trigger, the 3 most recent results kept, none excluded, at least 10% of the budget cleared at a time (fewer cache breaks), "[cleared]". */
const CLEARING = { trigger: TRIGGER, keep: 3, excludeTools: [], clearAtLeast: 0.1, placeholder: "[cleared]" } as const;
const REPS = 2000;
/** The policies the development rule compares the sweep against. */
const RIVALS: readonly string[] = ["threshold", "hermes", "tool-result-clearing"];
const sonnet = PRICE_SHEETS["anthropic/claude-sonnet-4"];
const SHEETS: Readonly<Record<string, PriceSheet>> = {
  "with caching": sonnet,
  "without caching": withoutCaching(sonnet),
};
const MODE = ((): "dev" | "eval" => {
  const raw = process.env["CC_COST_SPLIT"] ?? "eval";
  if (raw !== "dev" && raw !== "eval") throw new Error(`CC_COST_SPLIT: expected dev or eval, got ${raw}`);
  return raw;
})();
/** The sweep grid of the development run. */
const GRID = "0.6,0.62,0.64,0.65,0.66,0.68,0.7,0.75,0.8";
/** Sweep of the cost model's `cycleCentre` (the cost/retention trade-off): `cost@<centre>`. */
const CENTRES: readonly number[] = (process.env["CC_COST_CENTRES"] ?? (MODE === "dev" ? GRID : ""))
  .split(",")
  .filter((x) => x.trim() !== "")
  .map((x) => {
    const v = Number(x);
    if (!(v > 0 && v <= 1)) throw new Error(`CC_COST_CENTRES: expected shares in (0, 1], got ${x}`);
    return v;
  });
const LIMIT = ((): number => {
  const raw = process.env["CC_BENCH_LIMIT"];
  if (raw === undefined || raw === "") return quick ? 1 : Number.POSITIVE_INFINITY;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`CC_BENCH_LIMIT: expected a positive integer, got ${raw}`);
  return n;
})();
const POLICIES: readonly string[] = [
  "threshold",
  "hermes",
  "tool-result-clearing",
  "cost",
  ...CENTRES.map((c) => `cost@${c}`),
];
/** The splits reported: the development sweep, or the evaluation split first then the others for reference. */
const SPLITS: readonly RowSplit[] = MODE === "dev" ? ["dev"] : ["eval", "all", "dev"];

/** The replays of one policy: the sheet-independent ones run once, the cost model once per sheet. */
function runsFor(policy: string): readonly { readonly sheets: readonly string[]; readonly p: ReplayPolicy }[] {
  if (policy === "threshold")
    return [
      {
        sheets: Object.keys(SHEETS),
        p: {
          name: policy,
          policy: {
            kind: "hermes",
            target: TARGET,
            minSavedTokens: 0,
            minSavedShare: 0,
            backoffStep: 0,
            minTurnsBetween: 0,
          },
        },
      },
    ];
  if (policy === "tool-result-clearing")
    return [{ sheets: Object.keys(SHEETS), p: { name: policy, clearing: CLEARING } }];
  if (policy === "hermes")
    return [{ sheets: Object.keys(SHEETS), p: { name: policy, policy: { kind: "hermes", target: TARGET } } }];
  const centre = policy.startsWith("cost@") ? { cycleCentre: Number(policy.slice(5)) } : {};
  return Object.entries(SHEETS).map(([sheet, prices]) => ({
    sheets: [sheet],
    p: { name: policy, policy: { kind: "cost", prices, ...centre } },
  }));
}

/** The `cycleCentre` the cost model's defaults give under each sheet (the manager's trigger 0.8). */
function defaultCentres(): Readonly<Record<string, number>> {
  return Object.fromEntries(
    Object.entries(SHEETS).map(([sheet, prices]) => {
      const d = decodePolicy({ kind: "cost", prices }, TRIGGER);
      if (E.isLeft(d)) throw new Error(d.left.message);
      return [sheet, d.right.cycleCentre];
    }),
  );
}

const fmt = (r: CostRow & { readonly budget: number }): readonly (string | number)[] => [
  r.budget,
  r.split,
  r.corpus,
  r.sheet,
  r.policy,
  r.sessions,
  r.inputCostUsd,
  r.cutVsThresholdPct,
  r.compactions,
  r.cacheHitPct,
  r.tokensSent,
  r.retentionPct,
  r.neededKeptPct,
  r.budgetMisses,
];
const HEADERS = [
  "budget",
  "split",
  "corpus",
  "sheet",
  "policy",
  "transcripts",
  "input $",
  "cut vs threshold %",
  "compactions",
  "cache hit %",
  "tokens sent",
  "retention %",
  "needed facts kept %",
  "budget misses",
];

/** The development run: the sweep table and the rule's choice per sheet. */
function reportSelection(
  totals: (split: RowSplit, corpus: string, policy: string, sheet: string) => Totals,
): Record<string, unknown>[] {
  return Object.keys(SHEETS).map((sheet) => {
    const points = POLICIES.map((policy) => {
      const t = totals("dev", "all", policy, sheet);
      return { policy, cost: t.cost, retentionPct: t.reaccesses > 0 ? (100 * t.kept) / t.reaccesses : 0 };
    });
    const choice = chooseCentre(points, RIVALS);
    const best = Math.min(...points.filter((p) => RIVALS.includes(p.policy)).map((p) => p.cost));
    printTable(
      `selection on the development split, ${sheet}: is cost@<c> the cheapest (no dearer than threshold, hermes and tool-result clearing)?`,
      ["policy", "input $", "retention %", "cheapest"],
      points.map((p) => [
        p.policy,
        Number(p.cost.toFixed(4)),
        Number(p.retentionPct.toFixed(2)),
        p.policy.startsWith("cost@") ? (p.cost <= best ? "yes" : "no") : "",
      ]),
    );
    console.log(
      choice === undefined
        ? `${sheet}: no choice (no sweep)`
        : `${sheet}: the rule chooses cycleCentre ${choice.centre} (${choice.cheapest ? "the highest cheapest centre" : "no centre is cheapest; the cheapest centre"}, ${(100 * choice.vsBestRival).toFixed(2)}% vs the cheapest rival, retention ${choice.retentionPct.toFixed(2)}%)`,
    );
    return { sheet, choice: choice ?? null };
  });
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const { sessions, notes } = loadCorpus(dataDir(), {
    splits: MODE === "dev" ? ["dev"] : ["dev", "eval"],
    limit: LIMIT,
  });
  if (sessions.length === 0) throw new Error(`no transcripts read from ${dataDir()}: ${notes.join("; ")}`);
  for (const n of notes) console.log(`note: ${n}`);
  const counter = memoCounter(tiktokenCounter(), { maxEntries: 200_000, maxBytes: 64 * 1024 * 1024 });
  const cells = new Map<string, Totals>();
  /** `budget` "all": every budget summed (the development selection). */
  const cell = (budget: number | "all", split: RowSplit, corpus: string, policy: string, sheet: string): Totals => {
    const k = `${budget}|${split}|${corpus}|${policy}|${sheet}`;
    if (!cells.has(k)) cells.set(k, emptyTotals());
    return cells.get(k)!;
  };
  /** Input cost per session (`corpus/name`) of each budget, policy and sheet. */
  const perSession = new Map<string, Map<string, number>>();
  const costs = (budget: number, policy: string, sheet: string): Map<string, number> => {
    const k = `${budget}|${policy}|${sheet}`;
    if (!perSession.has(k)) perSession.set(k, new Map());
    return perSession.get(k)!;
  };
  try {
    for (const [i, s] of sessions.entries()) {
      for (const budget of BUDGETS) {
        for (const policy of POLICIES) {
          for (const run of runsFor(policy)) {
            const f = await replay(s.messages, run.p, counter, budget, SHEETS);
            for (const sheet of run.sheets) {
              costs(budget, policy, sheet).set(`${s.corpus}/${s.name}`, f.cost[sheet] ?? 0);
              for (const b of [budget, "all"] as const) {
                for (const split of [s.split, "all"] as const) {
                  addReplay(cell(b, split, s.corpus, policy, sheet), f, sheet);
                  addReplay(cell(b, split, "all", policy, sheet), f, sheet);
                }
              }
            }
          }
        }
      }
      if ((i + 1) % 10 === 0)
        console.log(`  … ${i + 1}/${sessions.length} transcripts (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
  } finally {
    counter.dispose();
  }
  const corpora = ["all", ...new Set(sessions.map((s) => s.corpus))];
  const rows = BUDGETS.flatMap((budget) =>
    SPLITS.flatMap((split) =>
      corpora.flatMap((corpus) =>
        Object.keys(SHEETS).flatMap((sheet) => {
          const base = cell(budget, split, corpus, "threshold", sheet).cost;
          return POLICIES.map((policy) => ({
            budget,
            ...rowOf(cell(budget, split, corpus, policy, sheet), split, corpus, sheet, policy, base),
          }));
        }),
      ),
    ).filter((r) => r.sessions > 0),
  );
  const bySplit = (split: RowSplit): number => sessions.filter((s) => split === "all" || s.split === split).length;
  const counts = Object.fromEntries(SPLITS.map((split) => [split, bySplit(split)]));
  const common = {
    budgets: BUDGETS,
    trigger: TRIGGER,
    target: TARGET,
    clearing: CLEARING,
    priceSheets: SHEETS,
    defaultCycleCentres: defaultCentres(),
    perCorpusAndSplit: Number.isFinite(LIMIT) ? LIMIT : "all",
    centres: CENTRES,
    sessions: counts,
    notes,
  };
  if (MODE === "dev") {
    printTable(
      `input cost by policy, development split (${counts["dev"]} transcripts; budgets ${BUDGETS.join(" / ")} tokens)`,
      HEADERS,
      rows.map(fmt),
    );
    const selection = reportSelection((split, corpus, policy, sheet) => cell("all", split, corpus, policy, sheet));
    console.log(
      `wrote ${writeResults("cost-selection", { split: "dev", grid: CENTRES, ...common, selection, rows })} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    return;
  }
  printTable(
    `input cost by policy (budgets ${BUDGETS.join(" / ")} tokens; evaluation split ${counts["eval"]} transcripts, per corpus; pooled ${counts["all"]} and development ${counts["dev"]} for reference)`,
    HEADERS,
    rows.filter((r) => r.split === "eval" || r.corpus === "all").map(fmt),
  );
  const inSplit = (split: RowSplit): string[] =>
    sessions.filter((s) => split === "all" || s.split === split).map((s) => `${s.corpus}/${s.name}`);
  const differences = SPLITS.flatMap((split) => {
    const names = inSplit(split);
    const draws = resamples(names, REPS, 7);
    const only = (m: ReadonlyMap<string, number>): Map<string, number> =>
      new Map(names.map((n) => [n, m.get(n) ?? Number.NaN]));
    return BUDGETS.flatMap((budget) =>
      Object.keys(SHEETS).flatMap((sheet) =>
        ["hermes", "tool-result-clearing", "threshold"].map((rival) => {
          const e = relativeDifference(only(costs(budget, "cost", sheet)), only(costs(budget, rival, sheet)), draws);
          const pct = (x: number): number => Number((100 * x).toFixed(2));
          return {
            split,
            budget,
            sheet,
            policy: "cost",
            rival,
            sessions: names.length,
            differencePct: pct(e.value),
            lo: pct(e.lo),
            hi: pct(e.hi),
          };
        }),
      ),
    );
  });
  printTable(
    `cost model minus each rival, input cost as % of the rival's (session bootstrap 95% interval, ${REPS} resamples)`,
    ["split", "budget", "sheet", "rival", "transcripts", "difference %", "95% interval"],
    differences.map((d) => [d.split, d.budget, d.sheet, d.rival, d.sessions, d.differencePct, `${d.lo} – ${d.hi}`]),
  );
  const goals = SPLITS.flatMap((split) =>
    BUDGETS.flatMap((budget) =>
      Object.keys(SHEETS).flatMap((sheet) => {
        const g = goalOf(
          rows.filter((r) => r.budget === budget),
          split,
          sheet,
        );
        return g === undefined ? [] : [{ budget, ...g }];
      }),
    ),
  );
  printTable(
    "goals (cost model = `cost` with its defaults; ties count as cheapest; the evaluation split is the report)",
    [
      "budget",
      "split",
      "sheet",
      "cost model cheapest",
      "cheapest policy (retention %)",
      "best retention",
      "cost model retention gap (pts)",
      "cut vs threshold %",
    ],
    goals.map((g) => [
      g.budget,
      g.split,
      g.sheet,
      g.costModelCheapest ? "yes" : "no",
      `${g.cheapestPolicy} (${g.cheapestRetentionPct})`,
      g.bestRetentionPolicy,
      g.retentionGapPts,
      g.cutVsThresholdPct,
    ]),
  );
  console.log(`wrote ${writeResults("cost", { reportedSplit: "eval", ...common, goals, differences, rows })}`);
  const evaluation = rows.filter((r) => r.split === "eval" && r.corpus === "all");
  const svg = renderBarChart(
    `Input cost of the ${counts["eval"]} evaluation-split transcripts by compaction policy and budget (above each bar: retention)`,
    "total input cost (USD)",
    BUDGETS.flatMap((budget) =>
      Object.keys(SHEETS).map((sheet) => ({
        label: `${budget} tokens, ${sheet}`,
        bars: evaluation
          .filter((r) => r.sheet === sheet && r.budget === budget)
          .map((r) => ({ policy: r.policy, value: r.inputCostUsd, note: `${r.retentionPct.toFixed(1)}%` })),
      })),
    ),
  );
  writeFileSync(join(resultsDir, "cost.svg"), svg);
  console.log(`wrote ${join(resultsDir, "cost.svg")} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

await main();
