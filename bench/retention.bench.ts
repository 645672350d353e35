/**
 * Retention benchmark: does what the agent is about to use survive eviction?
 *
 * Protocol, rules, corpora, split and the pre-registered selection: bench/README.md
 * ("Retention benchmark"). Steps: (1) choose the importance configuration on the development
 * split (grid, no index); (2) replay every policy on the evaluation split with an in-memory index
 * of evicted messages; (3) print, per corpus and pooled, policy × metric with session-clustered
 * bootstrap 95% intervals, and importance minus the best of {LRU, task+LRU, observation
 * masking}; (4) write bench/results/retention.json and bench/results/retention.svg.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { memoryIndex } from "@cc/hierarchical";
import { AGENT_PRESET, type ImportanceOptions } from "@cc/importance";
import { memoCounter, tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { dataPath } from "../.ci/data.js";
import { printTable, quick, resultsDir, writeResults } from "./harness.js";
import { renderBars } from "./retention/chart.js";
import { BASE_SEED, randomSeeds } from "./retention/configurations.js";
import { dedupe, prepare, readCorpus, type RawSession } from "./retention/corpora.js";
import { fifoPolicy, goOriginalPolicy, importancePolicy, lruPolicy, observationMaskingPolicy, randomPolicy, taskLruPolicy, type Policy } from "./retention/policies.js";
import { replaySession, type PreparedSession, type ReplayScore } from "./retention/replay.js";
import { grid, gridLabel, gridOptions, select } from "./retention/selection.js";
import { generatedSessions } from "./retention/sessions.js";
import { cells, difference, estimate, formatEstimate, METRICS, resamples, type Estimate, type MetricName } from "./retention/stats.js";

const BUDGETS = [8_000, 16_000, 32_000];
const K = 5;
const T0 = 1_700_000_000_000;
const STEP_MS = 30_000;
const REPS = quick ? 200 : 1000;
const SEEDS = randomSeeds(quick ? 2 : 10);

// ---- data ----
const raw: RawSession[] = [];
const problems: string[] = [];
for (const [dir, suffix, corpus] of [
  [dataPath("swe-agent-trajectories"), ".traj", "swe-agent"],
  [join(dataPath("agent-trajectories"), "mini-swe-agent-gemini3pro"), ".traj.json", "mini-gemini"],
  [join(dataPath("agent-trajectories"), "mini-swe-agent-deepseek"), ".traj.json", "mini-deepseek"],
] as const) {
  const r = readCorpus(dir, suffix, corpus);
  raw.push(...r.sessions);
  problems.push(...r.problems);
}
for (const g of generatedSessions([1, 2, 3].flatMap((seed) => [{ seed, turns: 12, outputLines: 40 }, { seed, turns: 24, outputLines: 120 }, { seed, turns: 48, outputLines: 240 }]))) {
  raw.push({ name: g.name, task: g.name, corpus: "generated", messages: g.messages });
}
for (const p of problems) console.error(`skipped: ${p}`);
const { kept, dropped } = dedupe(raw);
if (kept.length === 0) {
  console.error("no sessions readable");
  process.exit(1);
}
// Every message is counted once, whatever the policy or budget asking.
const counter = memoCounter(tiktokenCounter(), { maxEntries: 1_000_000, maxBytes: 512 * 1024 * 1024 });
const count = (t: string): number => counter.count(t);
const all = prepare(kept, count, T0, STEP_MS);
counter.dispose();
const corpora = [...new Set(all.map((s) => s.corpus))];
/** Quick mode: the first 3 sessions of each corpus and split. */
const pick = (split: "dev" | "eval"): PreparedSession[] =>
  corpora.flatMap((c) => {
    const ss = all.filter((s) => s.corpus === c && s.split === split);
    return quick ? ss.slice(0, 3) : ss;
  });
const dev = pick("dev");
const evalSplit = pick("eval");
console.log(`sessions: ${kept.length} after de-duplication (${dropped.length} replays dropped), dev ${dev.length}, eval ${evalSplit.length}${quick ? " (quick subset)" : ""}`);

// ---- replays ----
interface Config {
  readonly label: string;
  readonly policy: Policy;
  readonly importance: ImportanceOptions;
  readonly seeds: readonly number[];
}

async function run(sessions: readonly PreparedSession[], configs: readonly Config[], withIndex: boolean): Promise<ReplayScore[]> {
  const out: ReplayScore[] = [];
  for (const s of sessions) {
    for (const c of configs) {
      for (const seed of c.seeds) {
        for (const budget of BUDGETS) {
          const index = withIndex ? memoryIndex() : undefined;
          const r = await replaySession(s, c.policy, { budget, seed, importance: c.importance, label: c.label, k: K, ...(index === undefined ? {} : { index }) });
          if (index !== undefined) await index.close()();
          if (E.isLeft(r)) {
            console.error(r.left);
            process.exit(1);
          }
          out.push(r.right);
        }
      }
    }
  }
  return out;
}

const names = (ss: readonly PreparedSession[]): string[] => ss.map((s) => s.name);
const est = (scores: readonly ReplayScore[], policy: string, metric: MetricName, draws: readonly ReadonlyMap<string, number>[]): Estimate =>
  estimate(
    cells(
      scores.filter((r) => r.policy === policy),
      metric,
    ),
    draws,
  );

// ---- (1) selection on the development split ----
const points = grid(quick);
const gridScores = await run(
  dev,
  points.map((p) => ({ label: gridLabel(p), policy: importancePolicy, importance: gridOptions(p), seeds: [BASE_SEED] })),
  false,
);
const noDraws: ReadonlyMap<string, number>[] = [];
const scored = points.map((point) => {
  const label = gridLabel(point);
  const a = est(gridScores, label, "reaccess", noDraws).value;
  const b = est(gridScores, label, "grounding", noDraws).value;
  return { point, objective: (a + b) / 2, reaccess: a, grounding: b };
});
const chosen = select(scored);
if (chosen === undefined) {
  console.error("selection: no finite objective on the development split");
  process.exit(1);
}
printTable(
  `selection on the development split (${dev.length} sessions, pooled): objective = mean of re-access kept and grounding`,
  ["configuration", "re-access kept", "grounding", "objective"],
  scored.map((s) => [gridLabel(s.point) + (s.point === chosen.point ? "  ← chosen" : ""), (100 * s.reaccess).toFixed(1), (100 * s.grounding).toFixed(1), (100 * s.objective).toFixed(1)]),
);

const chosenOptions = gridOptions(chosen.point);
const presetMatches =
  chosenOptions.age === AGENT_PRESET.age &&
  chosenOptions.keepNewest === AGENT_PRESET.keepNewest &&
  chosenOptions.recencyHalfLifeTurns === AGENT_PRESET.recencyHalfLifeTurns &&
  JSON.stringify(chosenOptions.kindWeights) === JSON.stringify(AGENT_PRESET.kindWeights);
console.log(`chosen: ${gridLabel(chosen.point)}; @cc/importance AGENT_PRESET ${presetMatches ? "matches it" : `differs from it (${JSON.stringify(AGENT_PRESET)})`}`);

// ---- (2) every policy on the evaluation split ----
const IMPORTANCE = "importance";
const configs: Config[] = [
  { label: IMPORTANCE, policy: importancePolicy, importance: gridOptions(chosen.point), seeds: [BASE_SEED] },
  { label: "importance (defaults)", policy: importancePolicy, importance: {}, seeds: [BASE_SEED] },
  { label: "fifo", policy: fifoPolicy, importance: {}, seeds: [BASE_SEED] },
  { label: "lru", policy: lruPolicy, importance: {}, seeds: [BASE_SEED] },
  { label: "task+lru", policy: taskLruPolicy, importance: {}, seeds: [BASE_SEED] },
  { label: "observation-masking", policy: observationMaskingPolicy, importance: {}, seeds: [BASE_SEED] },
  { label: "random", policy: randomPolicy, importance: {}, seeds: SEEDS },
  { label: "go-original", policy: goOriginalPolicy, importance: {}, seeds: [BASE_SEED] },
];
const evalScores = await run(evalSplit, configs, true);

// ---- (3) tables ----
const HEADERS: Record<MetricName, string> = {
  reaccess: "re-access kept",
  "reaccess+index": "+ index",
  "reaccess+grep": "+ grep",
  grounding: "grounding",
  "grounding+index": "grounding + index",
};
const groups = [...corpora.map((c) => ({ name: c, sessions: evalSplit.filter((s) => s.corpus === c) })), { name: "pooled", sessions: evalSplit }];
const table: Record<string, Record<string, Record<string, Estimate>>> = {};
for (const g of groups) {
  const draws = resamples(names(g.sessions), REPS, BASE_SEED);
  const inGroup = new Set(names(g.sessions));
  const scores = evalScores.filter((r) => inGroup.has(r.session));
  const uses = scores.filter((r) => r.policy === "fifo").reduce((a, r) => [a[0]! + r.reaccess.n, a[1]! + r.grounding.n], [0, 0]);
  table[g.name] = {};
  const rows = configs.map((c) => {
    const byMetric: Record<string, Estimate> = {};
    for (const m of METRICS) byMetric[m] = est(scores, c.label, m, draws);
    table[g.name]![c.label] = byMetric;
    const arrivals = scores.filter((r) => r.policy === c.label).reduce((a, r) => [a[0]! + r.arrivalEvictions, a[1]! + r.evictions], [0, 0]);
    return [c.label, ...METRICS.map((m) => formatEstimate(byMetric[m]!)), arrivals[1] === 0 ? "n/a" : `${((100 * arrivals[0]!) / arrivals[1]!).toFixed(0)}%`];
  });
  printTable(
    `retention, evaluation split [${g.name}: ${g.sessions.length} sessions; ${uses[0]} re-accesses, ${uses[1]} grounding literals scored under fifo]: mean over budgets ${BUDGETS.join("/")} tokens, % (95% CI)`,
    ["policy", ...METRICS.map((m) => HEADERS[m]), "evicted on arrival"],
    rows,
  );
}

// ---- per budget, pooled evaluation split (point values; the intervals are on the means above) ----
const perBudget = configs.map((c) => {
  const mine = evalScores.filter((r) => r.policy === c.label);
  const at = (m: MetricName, b: number): number => est(mine.filter((r) => r.budget === b), c.label, m, noDraws).value;
  return { policy: c.label, budgets: BUDGETS.map((b) => ({ budget: b, reaccess: at("reaccess", b), grounding: at("grounding", b) })) };
});
printTable(
  "per budget, pooled evaluation split: re-access kept / grounding, %",
  ["policy", ...BUDGETS.map((b) => `${b / 1000}k`)],
  perBudget.map((p) => [p.policy, ...p.budgets.map((x) => `${(100 * x.reaccess).toFixed(1)} / ${(100 * x.grounding).toFixed(1)}`)]),
);

// ---- goal: importance − best of {lru, task+lru, observation-masking}, pooled evaluation split ----
const pooledDraws = resamples(names(evalSplit), REPS, BASE_SEED + 1);
const rivals = ["lru", "task+lru", "observation-masking"];
const goal = (["reaccess", "grounding"] as const).map((m) => {
  const best = rivals.map((p) => ({ p, v: est(evalScores, p, m, noDraws).value })).sort((a, b) => b.v - a.v)[0]!;
  const d = difference(
    cells(
      evalScores.filter((r) => r.policy === IMPORTANCE),
      m,
    ),
    cells(
      evalScores.filter((r) => r.policy === best.p),
      m,
    ),
    pooledDraws,
  );
  return { metric: m, rival: best.p, difference: d, met: d.value >= 0.1 && d.lo > 0 };
});
printTable(
  "goal: importance (chosen) minus the best of {lru, task+lru, observation-masking}, pooled evaluation split, points (95% CI); target ≥ +10 with the interval above 0",
  ["metric", "best rival", "difference", "met"],
  goal.map((g) => [HEADERS[g.metric], g.rival, formatEstimate(g.difference), g.met ? "yes" : "no"]),
);

// ---- (4) results ----
const svg = renderBars(
  `retention, pooled evaluation split (${evalSplit.length} sessions): mean over ${BUDGETS.join("/")}-token budgets, 95% CI`,
  [HEADERS.reaccess, HEADERS.grounding, HEADERS["reaccess+index"]],
  configs.map((c) => ({ policy: c.label, values: [table["pooled"]![c.label]!["reaccess"]!, table["pooled"]![c.label]!["grounding"]!, table["pooled"]![c.label]!["reaccess+index"]!] })),
);
if (!quick) writeFileSync(join(resultsDir, "retention.svg"), svg);
const path = writeResults("retention", {
  protocol: { budgets: BUDGETS, k: K, bootstrap: REPS, randomSeeds: SEEDS.length, clock: `recorded when every message has a timestamp, else t0 + j * ${STEP_MS} ms`, tokenizer: "o200k_base", quick },
  sessions: { kept: kept.length, dropped, dev: names(dev), eval: names(evalSplit) },
  selection: { chosen: chosen.point, options: gridOptions(chosen.point), agentPresetMatches: presetMatches, grid: scored },
  table,
  perBudget,
  goal,
});
console.log(`\nwrote ${path}${quick ? "" : " and retention.svg"}`);
