/**
 * Retention benchmark v3: does what the agent is about to use survive in its context?
 *
 * Protocol, rules, corpora, split and the pre-registered rule: bench/README.md ("Retention
 * benchmark"). Steps: (1) choose the context manager's configuration on the development split of
 * the real transcripts (needed facts available, mean over the 10/20/30% budgets); (2) replay the
 * chosen manager and every simple rule on the evaluation split at 10/20/30/50% of each session's
 * peak running context; (3) print, per budget, contender × metric with session-clustered
 * bootstrap 95% intervals (real transcripts pooled, per corpus, and the generated sessions on
 * their own), and the paired difference manager minus the best simple rule; (4) write
 * bench/results/retention.json and bench/results/retention.svg.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_PRESET } from "@cc/importance";
import type { Message } from "@cc/messages";
import { memoCounter, tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { dataPath } from "../.ci/data.js";
import { printTable, quick, resultsDir, writeResults } from "./harness.js";
import { renderBars } from "./retention/chart.js";
import { BASE_SEED, GOAL_SHARES, SHARES, shareLabel, TOP_K } from "./retention/configurations.js";
import { dedupe, prepare, readCorpus, type RawSession } from "./retention/corpora.js";
import { contextText } from "./retention/evaluate.js";
import {
  managerContender,
  replaySession,
  ruleContender,
  type ContenderSpec,
  type PreparedSession,
  type ReplayScore,
  type Tokens,
} from "./retention/replay.js";
import {
  fifoRule,
  importanceRule,
  largestFirstRule,
  lruRule,
  observationMaskingRule,
  toolResultClearingRule,
} from "./retention/rules.js";
import { MANAGER_CANDIDATES, selectManager, type ManagerCandidate } from "./retention/selection.js";
import { generatedSessions } from "./retention/sessions.js";
import {
  cells,
  difference,
  estimate,
  formatEstimate,
  meanOverBudgets,
  METRICS,
  resamples,
  type Estimate,
  type MetricName,
} from "./retention/stats.js";

const T0 = 1_700_000_000_000;
const STEP_MS = 30_000;
const REPS = quick ? 200 : 1000;
/** Quick mode: the first sessions of each corpus and split. */
const QUICK_PER_CORPUS = 2;
const started = performance.now();

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
// The generated sessions of one seed share their prefix (one run cut at three lengths): one task.
for (const seed of [1, 2, 3]) {
  for (const g of generatedSessions([
    { seed, turns: 12, outputLines: 40 },
    { seed, turns: 24, outputLines: 120 },
    { seed, turns: 48, outputLines: 240 },
  ])) {
    raw.push({ name: g.name, task: `gen-s${seed}`, corpus: "generated", messages: g.messages, generated: true });
  }
}
for (const p of problems) console.error(`skipped: ${p}`);
const { kept, dropped } = dedupe(raw.filter((s) => !s.generated));
const sessionsIn = [...kept, ...raw.filter((s) => s.generated)];
if (kept.length === 0) {
  console.error("no sessions readable");
  process.exit(1);
}
// Every message is counted once, whatever the contender or budget asking.
const counter = memoCounter(tiktokenCounter(), { maxEntries: 1_000_000, maxBytes: 512 * 1024 * 1024 });
const tokens: Tokens = { counter, count: (m: Message) => counter.count(contextText(m)) };
const prepared = prepare(sessionsIn, tokens.count, T0, STEP_MS);
if (E.isLeft(prepared)) {
  console.error(prepared.left);
  process.exit(1);
}
const all = prepared.right;
const corpora = [...new Set(all.filter((s) => !s.generated).map((s) => s.corpus))];
const pick = (split: "dev" | "eval", generated: boolean): PreparedSession[] =>
  [...new Set(all.filter((s) => s.generated === generated).map((s) => s.corpus))].flatMap((c) => {
    const ss = all.filter((s) => s.corpus === c && s.split === split && s.generated === generated);
    return quick ? ss.slice(0, QUICK_PER_CORPUS) : ss;
  });
const dev = pick("dev", false);
const evalReal = pick("eval", false);
const evalGenerated = pick("eval", true);
const facts = (ss: readonly PreparedSession[]): number => ss.reduce((n, s) => n + s.needed.length, 0);
console.log(
  `sessions: ${kept.length} real after de-duplication (${dropped.length} replays dropped) + ${sessionsIn.length - kept.length} generated; dev ${dev.length} real, eval ${evalReal.length} real + ${evalGenerated.length} generated${quick ? " (quick subset)" : ""}; needed facts: dev ${facts(dev)}, eval ${facts(evalReal)} real, ${facts(evalGenerated)} generated`,
);

// ---- replays ----
async function run(
  sessions: readonly PreparedSession[],
  specs: readonly ContenderSpec[],
  shares: readonly number[],
): Promise<ReplayScore[]> {
  const out: ReplayScore[] = [];
  for (const s of sessions) {
    for (const spec of specs) {
      for (const share of shares) {
        const r = await replaySession(s, spec, share, tokens, TOP_K);
        if (E.isLeft(r)) {
          console.error(r.left);
          process.exit(1);
        }
        out.push(r.right);
      }
    }
  }
  return out;
}

const names = (ss: readonly PreparedSession[]): string[] => ss.map((s) => s.name);
const noDraws: ReadonlyMap<string, number>[] = [];
const of = (scores: readonly ReplayScore[], policy: string, share: number): ReplayScore[] =>
  scores.filter((r) => r.policy === policy && r.share === share);
const est = (
  scores: readonly ReplayScore[],
  policy: string,
  share: number,
  metric: MetricName,
  draws: readonly ReadonlyMap<string, number>[],
): Estimate => estimate(cells(of(scores, policy, share), metric), draws);
const pct = (x: number): string => (Number.isFinite(x) ? (100 * x).toFixed(1) : "n/a");

// ---- (1) the manager's configuration, on the development split ----
// CC_RETENTION_EXPLORE='[{"label":"…","options":{…}}]' scores other configurations on the
// development split only and stops after the selection table (exploration never sees eval).
const explore = process.env["CC_RETENTION_EXPLORE"];
const candidates: readonly ManagerCandidate[] =
  explore === undefined ? MANAGER_CANDIDATES : (JSON.parse(explore) as ManagerCandidate[]);
const devScores = await run(
  dev,
  candidates.map((c) => managerContender(c.label, c.options)),
  GOAL_SHARES,
);
const scoredCandidates = candidates.map((c) => {
  const mine = devScores.filter((r) => r.policy === c.label);
  const perShare = GOAL_SHARES.map((share) => est(mine, c.label, share, "needed.available", noDraws).value);
  return { label: c.label, objective: meanOverBudgets(cells(mine, "needed.available")), perShare };
});
const chosen = selectManager(scoredCandidates);
if (chosen === undefined) {
  console.error("selection: no finite objective on the development split");
  process.exit(1);
}
const chosenCandidate = candidates.find((c) => c.label === chosen.label)!;
printTable(
  `selection on the development split (${dev.length} real sessions, pooled): needed facts available, %`,
  ["candidate", ...GOAL_SHARES.map(shareLabel), "objective (mean)"],
  scoredCandidates.map((s) => [
    s.label + (s.label === chosen.label ? "  ← chosen" : ""),
    ...s.perShare.map(pct),
    pct(s.objective),
  ]),
);
if (explore !== undefined) process.exit(0);

// ---- (2) every contender on the evaluation split ----
const MANAGER = "manager";
const RIVALS = ["largest-first", "lru", "fifo", "observation-masking", "tool-result-clearing"];
const contenders: ContenderSpec[] = [
  managerContender(MANAGER, chosenCandidate.options),
  ...[
    largestFirstRule,
    lruRule,
    fifoRule,
    observationMaskingRule,
    toolResultClearingRule,
    importanceRule(AGENT_PRESET),
  ].map(ruleContender),
];
const evalScores = await run([...evalReal, ...evalGenerated], contenders, SHARES);

// ---- (3) tables ----
const HEADERS: Record<MetricName, string> = {
  "needed.kept": "needed kept",
  "needed.available": "available",
  "needed.recoverable": "recoverable",
  "distant.kept": "distant kept",
  "distant.available": "d. available",
  "distant.recoverable": "d. recoverable",
  reaccess: "re-access",
  grounding: "grounding",
};
interface Group {
  readonly name: string;
  readonly sessions: readonly PreparedSession[];
  readonly intervals: boolean;
}
const groups: Group[] = [
  { name: "real", sessions: evalReal, intervals: true },
  ...corpora.map((c) => ({ name: c, sessions: evalReal.filter((s) => s.corpus === c), intervals: true })),
  { name: "generated", sessions: evalGenerated, intervals: true },
];
type Table = Record<string, Record<string, Record<string, Estimate & { readonly n: number }>>>;
const table: Record<string, Table> = {};
const overBudget: Record<string, Record<string, Record<string, number>>> = {};
for (const g of groups) {
  if (g.sessions.length === 0) continue;
  const inGroup = new Set(names(g.sessions));
  const scores = evalScores.filter((r) => inGroup.has(r.session));
  const draws = resamples(names(g.sessions), REPS, BASE_SEED);
  table[g.name] = {};
  overBudget[g.name] = {};
  for (const share of SHARES) {
    const label = shareLabel(share);
    table[g.name]![label] = {};
    overBudget[g.name]![label] = {};
    const rows = contenders.map((c) => {
      const mine = of(scores, c.label, share);
      const byMetric: Record<string, Estimate & { readonly n: number }> = {};
      for (const m of METRICS)
        byMetric[m] = { ...est(scores, c.label, share, m, draws), n: cells(mine, m).reduce((a, x) => a + x.den, 0) };
      table[g.name]![label]![c.label] = byMetric;
      const steps = mine.reduce((a, r) => a + r.steps, 0);
      const over = steps === 0 ? Number.NaN : mine.reduce((a, r) => a + r.overBudget, 0) / steps;
      overBudget[g.name]![label]![c.label] = over;
      return [
        c.label,
        ...METRICS.map((m) => formatEstimate(byMetric[m]!)),
        Number.isFinite(over) ? `${(100 * over).toFixed(1)}%` : "n/a",
      ];
    });
    const first = table[g.name]![label]![MANAGER]!;
    printTable(
      `retention, evaluation split [${g.name}: ${g.sessions.length} sessions; ${first["needed.available"]!.n} needed facts (${first["distant.available"]!.n} distant), ${first["reaccess"]!.n} re-accesses, ${first["grounding"]!.n} grounding literals scored] at ${label} of the peak running context, % (95% CI)`,
      ["contender", ...METRICS.map((m) => HEADERS[m]), "over budget"],
      rows,
    );
  }
}

// ---- headline: manager − the best simple rule, per budget, real transcripts pooled ----
const realScores = evalScores.filter((r) => !r.generated);
const pairedDraws = resamples(names(evalReal), REPS, BASE_SEED + 1);
const HEADLINE: readonly MetricName[] = [
  "needed.available",
  "needed.kept",
  "distant.available",
  "reaccess",
  "grounding",
];
const headline = SHARES.map((share) => ({
  share,
  budget: shareLabel(share),
  metrics: HEADLINE.map((metric) => {
    const best = RIVALS.map((p) => ({ p, v: est(realScores, p, share, metric, noDraws).value })).sort(
      (a, b) => b.v - a.v,
    )[0]!;
    const d = difference(
      cells(of(realScores, MANAGER, share), metric),
      cells(of(realScores, best.p, share), metric),
      pairedDraws,
    );
    return {
      metric,
      rival: best.p,
      rivalValue: best.v,
      managerValue: est(realScores, MANAGER, share, metric, noDraws).value,
      difference: d,
    };
  }),
}));
printTable(
  `manager minus the best of {${RIVALS.join(", ")}} (chosen per budget on the point estimate), real transcripts of the evaluation split pooled, points (95% CI)`,
  ["budget", ...HEADLINE.map((m) => HEADERS[m])],
  headline.map((h) => [h.budget, ...h.metrics.map((m) => `${formatEstimate(m.difference)} vs ${m.rival}`)]),
);
const goal = GOAL_SHARES.map((share) => {
  const h = headline.find((x) => x.share === share)!;
  const at = (m: MetricName): (typeof h.metrics)[number] => h.metrics.find((x) => x.metric === m)!;
  const available = at("needed.available").difference;
  const availableMet = available.value >= 0.1 && available.lo > 0;
  const reaccessMet = at("reaccess").difference.value >= -0.01;
  const groundingMet = at("grounding").difference.value >= -0.01;
  return {
    budget: h.budget,
    availableMet,
    reaccessMet,
    groundingMet,
    met: availableMet && reaccessMet && groundingMet,
  };
});
printTable(
  "goal at 10/20/30%: needed facts available ≥ +10 points over the best rule with the interval above 0; re-access and grounding within 1 point of the best rule",
  ["budget", "available", "re-access", "grounding", "met"],
  goal.map((g) => [
    g.budget,
    g.availableMet ? "yes" : "no",
    g.reaccessMet ? "yes" : "no",
    g.groundingMet ? "yes" : "no",
    g.met ? "yes" : "no",
  ]),
);

// ---- (4) results ----
const real = table["real"];
if (!quick && real !== undefined) {
  const svg = renderBars(
    `needed facts available by budget, ${evalReal.length} real sessions (evaluation split), 95% CI`,
    SHARES.map(shareLabel),
    contenders.map((c) => ({
      policy: c.label,
      values: SHARES.map((share) => real[shareLabel(share)]![c.label]!["needed.available"]!),
    })),
  );
  writeFileSync(join(resultsDir, "retention.svg"), svg);
}
const path = writeResults("retention", {
  protocol: {
    version: 3,
    shares: SHARES,
    goalShares: GOAL_SHARES,
    k: TOP_K,
    bootstrap: REPS,
    clock: `recorded when every message has a timestamp, else t0 + j * ${STEP_MS} ms`,
    tokenizer: "o200k_base",
    quick,
  },
  sessions: { real: kept.length, dropped, dev: names(dev), eval: names(evalReal), generated: names(evalGenerated) },
  selection: { candidates: scoredCandidates, chosen: chosen.label, options: chosenCandidate.options },
  table,
  overBudget,
  headline,
  goal,
  seconds: Math.round((performance.now() - started) / 1000),
});
counter.dispose();
console.log(
  `\nwrote ${path}${quick ? "" : " and retention.svg"} in ${Math.round((performance.now() - started) / 1000)} s`,
);
