/**
 * Retention benchmark: does what the agent refers back to survive compaction?
 *
 * Replays two corpora — the SWE-agent trajectories (../shared/data/swe-agent-trajectories) and
 * the demo's generated sessions (`generateSession` from examples/agent-loop) — under each eviction
 * policy at budgets of 30%, 50% and 70% of the session's tokens (protocol: bench/retention/
 * evaluate.ts and bench/README.md), with an in-memory @cc/hierarchical index holding what was
 * evicted. Prints, per corpus (and combined), policy and budget, the share of re-accesses still in
 * the context and the share kept or recovered as a top-5 search hit; then the importance policy's
 * sensitivity to its cost weight and recency half-life. Writes bench/results/retention.json.
 */
import { memoryIndex } from "@cc/hierarchical";
import { tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { dataPath } from "../.ci/data.js";
import { printTable, quick, writeResults } from "./harness.js";
import { aggregate, percent, percentWithRange, type RetentionRow } from "./retention/aggregate.js";
import { COST_WEIGHTS, HALF_LIVES_MIN, headline, randomSeeds, sensitivity, type Configuration } from "./retention/configurations.js";
import { replay, type ReplayOutcome, type Session } from "./retention/evaluate.js";
import { generatedSessions, loadTrajectories, type GeneratedSpec } from "./retention/sessions.js";

const dataDir = dataPath("swe-agent-trajectories");
const fractions = [0.3, 0.5, 0.7];
const K = 5;
const T0 = 1_700_000_000_000;
const STEP_MS = 30_000;
const SIZES: readonly Omit<GeneratedSpec, "seed">[] = [
  { turns: 12, outputLines: 40 },
  { turns: 24, outputLines: 120 },
  { turns: 48, outputLines: 240 },
];
const GENERATED: readonly GeneratedSpec[] = (quick ? [1] : [1, 2, 3]).flatMap((seed) => (quick ? SIZES.slice(0, 2) : SIZES).map((s) => ({ seed, ...s })));
const RANDOM_SEEDS = randomSeeds(quick ? 2 : 10);

const loaded = loadTrajectories(dataDir);
for (const p of loaded.problems) console.error(`skipped: ${p}`);
if (loaded.sessions.length === 0) {
  console.error(`no trajectories readable under ${dataDir}`);
  process.exit(1);
}
const sessions: readonly Session[] = [...(quick ? loaded.sessions.slice(0, 3) : loaded.sessions), ...generatedSessions(GENERATED)];

// One counter, memoised per text: every policy and the budget see the same count for a message.
const counter = tiktokenCounter();
const counts = new Map<string, number>();
const count = (t: string): number => {
  const hit = counts.get(t);
  if (hit !== undefined) return hit;
  const n = counter.count(t);
  counts.set(t, n);
  return n;
};

async function run(configurations: readonly Configuration[]): Promise<ReplayOutcome[]> {
  const outcomes: ReplayOutcome[] = [];
  for (const session of sessions) {
    for (const c of configurations) {
      for (const seed of c.seeds) {
        for (const fraction of fractions) {
          const index = memoryIndex();
          const r = await replay(session, c.policy, index, { fraction, count, t0: T0, stepMs: STEP_MS, seed, k: K, importance: c.importance, label: c.label })();
          await index.close()();
          if (E.isLeft(r)) {
            console.error(`${session.name} ${c.label} seed ${seed} ${fraction}: ${JSON.stringify(r.left)}`);
            process.exit(1);
          }
          outcomes.push(r.right);
        }
      }
    }
  }
  return outcomes;
}

const headlineOutcomes = await run(headline(RANDOM_SEEDS));
const sensitivityOutcomes = await run(sensitivity());
counter.dispose();

const headlineRows = aggregate(headlineOutcomes);
const sensitivityRows = aggregate(sensitivityOutcomes);
const corpora = [...new Set(sessions.map((s) => s.source)), "all"];
const describe = (source: string): string => {
  const ss = sessions.filter((s) => source === "all" || s.source === source);
  return `${ss.length} sessions, ${ss.reduce((a, s) => a + s.messages.length, 0)} messages`;
};

for (const source of corpora) {
  printTable(
    `retention [${source}: ${describe(source)}]: re-accesses still in context / recoverable (top-${K} search); random: mean of ${RANDOM_SEEDS.length} seeds (min–max)`,
    ["policy", "budget", "re-accesses", "kept", "kept + index", "evicted msgs"],
    headlineRows
      .filter((r) => r.source === source)
      .map((r) => [r.policy, `${r.fraction * 100}%`, r.evaluated, percentWithRange(r.keptShare, r.keptRange), percentWithRange(r.withIndexShare, r.withIndexRange), r.evictedMessages]),
  );
}

const cell = (rows: readonly RetentionRow[], source: string, label: string, fraction: number, pick: (r: RetentionRow) => number): string => {
  const row = rows.find((r) => r.source === source && r.policy === label && r.fraction === fraction);
  return row === undefined ? "n/a" : percent(pick(row));
};
for (const source of corpora) {
  printTable(
    `sensitivity [${source}]: importance kept in context at 30/50/70% and kept + index at 50%; cw = costWeight, hl = recencyHalfLife (default cw=0.5 hl=30m)`,
    ["configuration", "kept 30%", "kept 50%", "kept 70%", "+ index 50%"],
    [...new Set(sensitivityRows.map((r) => r.policy))].map((label) => [
      label,
      ...fractions.map((f) => cell(sensitivityRows, source, label, f, (r) => r.keptShare)),
      cell(sensitivityRows, source, label, 0.5, (r) => r.withIndexShare),
    ]),
  );
}

const perSession = aggregate(headlineOutcomes.map((o) => ({ ...o, source: o.session })));
const path = writeResults("retention", {
  protocol: {
    fractions,
    k: K,
    clock: `synthetic unless every message has a timestamp: t0 + j * ${STEP_MS} ms`,
    index: "memory",
    tokenizer: "o200k_base",
    randomSeeds: RANDOM_SEEDS.length,
    trajectories: sessions.filter((s) => s.source === "swe-agent").length,
    generated: GENERATED.map((g) => `seed ${g.seed}, ${g.turns} turns, ${g.outputLines} lines`).join("; "),
    clocks: [...new Set(headlineOutcomes.map((o) => o.clock))].join(", "),
  },
  rows: headlineRows,
  sensitivity: { costWeights: COST_WEIGHTS, halfLivesMin: HALF_LIVES_MIN, rows: sensitivityRows },
  sessions: perSession
    .filter((r) => r.source !== "all")
    .map((r) => ({ session: r.source, policy: r.policy, fraction: r.fraction, evaluated: r.evaluated, keptShare: r.keptShare, withIndexShare: r.withIndexShare, evicted: r.evictedMessages })),
});
console.log(`\nwrote ${path}`);
