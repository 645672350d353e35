/**
 * The agent-loop demo: replays a session turn by turn and runs every turn through one context
 * manager (@cc/context) — pressure per turn, importance eviction of whole units into an index
 * (in memory, or a SQLite file) with a summary of each, the note that lists them in the prompt,
 * then search and expand.
 *
 * Run: npx tsx --conditions=development examples/agent-loop/main.ts [transcript]
 * Offline: summaries are extractive, written by the index.
 * Environment: CC_DEMO_BUDGET (tokens, default 8000), CC_DEMO_QUERY (the search at the end),
 * CC_DEMO_INDEX (a SQLite file to use and keep; needs better-sqlite3, which the full install
 * brings; default an in-memory index, gone at exit),
 * CC_DEMO_POLICY (threshold | hermes | cost: a compaction policy; every decision gets a line).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { formatTranscriptError, readTranscript } from "@cc/cli";
import { createContextManager, describeDecision } from "@cc/context";
import { memoryIndex, openSqliteIndex, type SegmentIndex } from "@cc/search";
import { reaccesses, references } from "@cc/hierarchical";
import { messageUnits, unitText, type Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { parseBudget, parsePolicy } from "./src/settings.js";
import { generateSession, type Turn } from "./src/session-generator.js";

const budget = parseBudget(process.env["CC_DEMO_BUDGET"]);
if (E.isLeft(budget)) {
  console.error(`agent-loop demo: ${budget.left}`);
  process.exit(2);
}
const BUDGET = budget.right;
const policy = parsePolicy(process.env["CC_DEMO_POLICY"]);
if (E.isLeft(policy)) {
  console.error(`agent-loop demo: ${policy.left}`);
  process.exit(2);
}
const POLICY = policy.right;
/** Compaction starts at this share of the budget and brings the prompt back down to it. */
const SOFT = 0.6;
/** Above this share of the budget the pressure is reported as hard. */
const HARD = 0.9;
/** The generated session runs the whole test suite here: one output big enough for hard pressure. */
const FULL_SUITE_TURN = 15;

/** "1 unit", "2 units". */
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** Units of the context (a tool call with its results is one) and how many later units referred back to. */
function unitStats(context: readonly Message[]): { readonly units: number; readonly reaccessed: number } {
  const units = messageUnits(context);
  const stats = reaccesses(units.map((u) => references(unitText(u))));
  return { units: units.length, reaccessed: stats.filter((s) => s.count > 0).length };
}

function loadTurns(path: string | undefined): readonly Turn[] {
  if (path === undefined) return generateSession({ turns: 24, outputLines: 40, fullSuiteAt: [FULL_SUITE_TURN] });
  const r = readTranscript(readFileSync(path, "utf8"), { source: path });
  if (E.isLeft(r)) {
    console.error(formatTranscriptError(r.left));
    process.exit(3);
  }
  // One turn per user or assistant message, with the tool results that follow it.
  const turns: Message[][] = [];
  for (const m of r.right.messages) {
    if (m.role === "tool" || (turns.length > 0 && m.role === "system")) turns[turns.length - 1]!.push(m);
    else turns.push([m]);
  }
  return turns;
}

async function main(): Promise<number> {
  const source = process.argv[2];
  const turns = loadTurns(source);
  const counter = tiktokenCounter();
  const kept = process.env["CC_DEMO_INDEX"];
  // The default index lives in memory: the demo-only install has no SQLite driver to compile.
  const indexPath = kept === undefined || kept === "" ? undefined : resolve(kept);
  let index: SegmentIndex = memoryIndex();
  if (indexPath !== undefined) {
    const opened = await openSqliteIndex({ path: indexPath })();
    if (E.isLeft(opened)) {
      console.error(
        `agent-loop demo: cannot open the index ${indexPath}: ${opened.left._tag}${"message" in opened.left ? `: ${String(opened.left.message)}` : ""}`,
      );
      counter.dispose();
      return 5;
    }
    index = opened.right;
  }
  const clock = { t: 1_700_000_000_000 };
  // One manager for the whole session: budget, strategy and every effect are given once.
  const manager = createContextManager({
    maxTokens: BUDGET,
    strategy: "hierarchical",
    threshold: SOFT,
    preserveLast: 4,
    counter,
    index,
    namespace: "demo",
    noteTokens: 300,
    now: () => clock.t,
    ...(POLICY === undefined ? {} : { policy: { kind: POLICY } }),
  });
  console.log(
    `agent-loop demo: ${source ?? "generated session"} — ${turns.length} turns, budget ${BUDGET} tokens, threshold ${SOFT * 100}%, index ${indexPath === undefined ? "in memory" : `${indexPath} (kept)`}${POLICY === undefined ? "" : `, policy ${POLICY}`}`,
  );
  const decisions = { compacted: 0, skipped: 0, waited: 0 };
  let context: readonly Message[] = [];
  // Everything the session has said so far: what the context would be without compaction.
  let uncompacted: readonly Message[] = [];
  let compactions = 0;
  try {
    for (let t = 0; t < turns.length; t++) {
      context = [...context, ...turns[t]!];
      uncompacted = [...uncompacted, ...turns[t]!];
      clock.t += 60_000;
      const turn = await manager.compact(context);
      const d = turn.decision;
      if (d !== undefined) {
        decisions[d._tag === "Compacted" ? "compacted" : d._tag === "Skipped" ? "skipped" : "waited"]++;
        if (!turn.compacted && !(d._tag === "Waited" && d.reason === "BelowTrigger"))
          console.log(`\nturn ${t}: decision ${describeDecision(d)}`);
      }
      if (!turn.compacted && turn.warnings.length === 0) {
        context = turn.messages;
        continue;
      }
      compactions++;
      const fraction = turn.tokensBefore / BUDGET;
      const pressure = fraction >= HARD ? "hard" : fraction >= SOFT ? "soft" : "none";
      // Access statistics come from the context as it stands at this turn: the loop cannot see later turns.
      const stats = unitStats(context);
      const full = manager.count(uncompacted);
      console.log(
        `\nturn ${t}: ${turn.tokensBefore} tokens (${(fraction * 100).toFixed(0)}%) → ${pressure} pressure; ${count(stats.units, "segment")}, ${stats.reaccessed} re-accessed so far`,
      );
      const top = [...turn.evicted].sort((a, b) => b.tokens - a.tokens)[0];
      console.log(
        `  evict    ${count(turn.evicted.length, "unit")} → index (${turn.tokensBefore} → ${turn.tokensAfter} tokens; uncompacted ${full})${top === undefined ? "" : `; largest ${top.id} ${top.kind} ${top.tokens} tok`}`,
      );
      if (top !== undefined) console.log(`  summary  ${top.id}: ${top.summary.replace(/\s+/g, " ").slice(0, 80)}`);
      if (d !== undefined) console.log(`  decision ${describeDecision(d)}`);
      for (const w of turn.warnings) console.log(`  warning  ${w._tag}`);
      context = turn.messages;
      console.log(
        `  next prompt: ${context.length} messages, ${turn.tokensAfter} tokens (uncompacted ${full}); note of ${count(turn.evicted.length, "evicted unit")} in the prompt; budget ${turn.budgetMet ? "met" : "NOT met"}`,
      );
    }
    if (POLICY !== undefined)
      console.log(
        `\ndecisions (${POLICY}): ${decisions.compacted} compacted, ${decisions.skipped} skipped, ${decisions.waited} waited`,
      );
    console.log(
      `\ndone: ${compactions} compactions; final context ${context.length} messages, ${manager.count(context)} tokens (uncompacted ${manager.count(uncompacted)}; budget ${BUDGET})`,
    );
    const chosen = process.env["CC_DEMO_QUERY"];
    const query =
      chosen !== undefined && chosen.trim() !== "" ? chosen : source === undefined ? "compute_total rounding" : "error";
    const hits = await manager.search(query, 3);
    console.log(`search "${query}": ${hits.length} hits`);
    for (const h of hits)
      console.log(`  ${h.id.padEnd(18)} ${h.kind.padEnd(15)} ${h.snippet.replace(/\s+/g, " ").slice(0, 60)}`);
    const best = hits[0];
    if (best !== undefined) {
      const original = await manager.expand(best.id);
      if (original === undefined) throw new Error(`expand ${best.id}: not in the index`);
      const recovered: Message = { role: "user", content: `Recovered from the journal (${best.id}):\n${original}` };
      context = [...context, recovered];
      console.log(
        `expand ${best.id}: restored ${original.length} chars / ${manager.count([recovered])} tokens; context now ${manager.count(context)} tokens`,
      );
    }
    return 0;
  } finally {
    await index.close()();
    counter.dispose();
  }
}

process.exitCode = await main();
