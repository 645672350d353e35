/**
 * Retention benchmark: does what the agent refers back to survive compaction?
 *
 * Replays every SWE-agent trajectory (../shared/data/swe-agent-trajectories) under each eviction
 * policy at budgets of 30%, 50% and 70% of the session's tokens (protocol: bench/retention/
 * evaluate.ts and bench/README.md), with an in-memory @cc/hierarchical index holding what was
 * evicted. Prints, per policy and budget, the share of re-accesses still in the context and the
 * share kept or recovered as a top-5 search hit; writes bench/results/retention.json.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { memoryIndex } from "@cc/hierarchical";
import { tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/Either";
import { printTable, quick, writeResults } from "./harness.js";
import { aggregate, percent } from "./retention/aggregate.js";
import { replay, type ReplayOutcome, type Session } from "./retention/evaluate.js";
import { POLICIES } from "./retention/policies.js";
import { loadTrajectories } from "./retention/sessions.js";

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = join(here, "..", "..", "shared", "data", "swe-agent-trajectories");
const fractions = [0.3, 0.5, 0.7];
const K = 5;
const STEP_MS = 30_000;
const SEED = 20_240_601;

const loaded = loadTrajectories(dataDir);
for (const p of loaded.problems) console.error(`skipped: ${p}`);
if (loaded.sessions.length === 0) {
  console.error(`no trajectories readable under ${dataDir}`);
  process.exit(1);
}
const sessions: readonly Session[] = quick ? loaded.sessions.slice(0, 3) : loaded.sessions;

const counter = tiktokenCounter();
const outcomes: ReplayOutcome[] = [];
for (const session of sessions) {
  for (const policy of POLICIES) {
    for (const fraction of fractions) {
      const index = memoryIndex();
      const r = await replay(session, policy, index, {
        fraction,
        count: (t) => counter.count(t),
        t0: 1_700_000_000_000,
        stepMs: STEP_MS,
        seed: SEED,
        k: K,
        importance: {},
      })();
      await index.close()();
      if (E.isLeft(r)) {
        console.error(`${session.name} ${policy.name} ${fraction}: ${JSON.stringify(r.left)}`);
        process.exit(1);
      }
      outcomes.push(r.right);
    }
  }
}
counter.dispose();

const rows = aggregate(outcomes);
printTable(
  `retention: re-accesses still in context / recoverable (top-${K} search), ${sessions.length} sessions`,
  ["source", "policy", "budget", "re-accesses", "kept", "kept + index", "evicted msgs"],
  rows.map((r) => [r.source, r.policy, `${r.fraction * 100}%`, r.evaluated, percent(r.keptShare), percent(r.withIndexShare), r.evictedMessages]),
);
const path = writeResults("retention", {
  protocol: { fractions, k: K, stepMs: STEP_MS, seed: SEED, index: "memory", tokenizer: "o200k_base", sessions: sessions.length },
  rows,
  sessions: outcomes.map((o) => ({
    session: o.session,
    policy: o.policy,
    fraction: o.fraction,
    evaluated: o.evaluated,
    kept: o.kept,
    recovered: o.recovered,
    lost: o.lost.length,
    compactions: o.compactions,
  })),
});
console.log(`\nwrote ${path}`);
