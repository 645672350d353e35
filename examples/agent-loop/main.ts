/**
 * The agent-loop demo: replays a session turn by turn and shows the whole engine at work —
 * segments with token counts and re-access statistics, soft/hard pressure, importance eviction
 * into a SQLite index, lcm summary of the older prefix, then search and expand.
 *
 * Run: npx tsx --conditions=development examples/agent-loop/main.ts [transcript]
 * Offline by default; an OpenAI-compatible endpoint when CC_PROVIDER_URL and CC_PROVIDER_KEY are set.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTranscriptError, readTranscript, runCompaction, type RunConfig } from "@cc/cli";
import { buildSegments, openSqliteIndex } from "@cc/hierarchical";
import { decodeCompactOptions, offlineProvider, openAICompatibleProvider, pressureOf, type Message, type Provider } from "@cc/lcm";
import { tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { generateSession, type Turn } from "./src/session-generator.js";

const BUDGET = Number(process.env["CC_DEMO_BUDGET"] ?? 8000);
/** The generated session runs the whole test suite here: one output big enough for hard pressure. */
const FULL_SUITE_TURN = 15;

/** "1 unit", "2 units". */
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

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
  const url = process.env["CC_PROVIDER_URL"];
  const key = process.env["CC_PROVIDER_KEY"];
  const remote = url !== undefined && key !== undefined ? openAICompatibleProvider({ baseUrl: url, apiKey: key }) : undefined;
  if (remote !== undefined && E.isLeft(remote)) throw new Error(remote.left.problems.join("; "));
  const provider: Provider = remote === undefined ? offlineProvider({ counter }) : remote.right;
  const options = decodeCompactOptions({ maxTokens: BUDGET, preserveLast: 4, softThreshold: 0.6, hardThreshold: 0.9 });
  if (E.isLeft(options)) throw new Error(options.left.problems.join("; "));
  const dir = mkdtempSync(join(tmpdir(), "cc-demo-"));
  const opened = await openSqliteIndex({ path: join(dir, "journal.db") })();
  if (E.isLeft(opened)) throw new Error(opened.left._tag);
  const index = opened.right;
  console.log(`agent-loop demo: ${source ?? "generated session"} — ${turns.length} turns, budget ${BUDGET} tokens, summariser ${provider.name}, index ${join(dir, "journal.db")}`);
  let context: Message[] = [];
  let compactions = 0;
  const clock = { t: 1_700_000_000_000 };
  try {
    for (let t = 0; t < turns.length; t++) {
      context = [...context, ...turns[t]!];
      clock.t += 60_000;
      const usage = pressureOf(counter.countMessages(context), options.right);
      if (!usage.shouldCompact) continue;
      compactions++;
      const segs = buildSegments(context, { counter, now: clock.t, preserveLast: options.right.preserveLast });
      const reaccessed = segs.filter((s) => (s.accessCount ?? 0) > 0).length;
      // Access statistics come from the context as it stands at this turn: the loop cannot see later turns.
      console.log(`\nturn ${t}: ${usage.tokens} tokens (${(usage.fraction * 100).toFixed(0)}%) → ${usage.pressure} pressure; ${count(segs.length, "segment")}, ${reaccessed} re-accessed so far`);
      const config = (strategy: RunConfig["strategy"]): RunConfig => ({ strategy, options: options.right, force: true, namespace: "demo", noteTokens: 300, idPrefix: `c${compactions}.` });
      const evict = await runCompaction(context, config("hierarchical"), { counter, now: () => clock.t, index })();
      if (E.isLeft(evict)) throw new Error(JSON.stringify(evict.left));
      const top = [...evict.right.evicted].sort((a, b) => b.tokens - a.tokens)[0];
      console.log(`  evict    ${count(evict.right.evicted.length, "unit")} → index (${evict.right.tokensBefore} → ${evict.right.tokensAfter} tokens)${top === undefined ? "" : `; largest ${top.id} ${top.kind} ${top.tokens} tok`}`);
      context = [...evict.right.messages];
      const after = pressureOf(counter.countMessages(context), options.right);
      if (after.pressure !== "none" || context.length > 16) {
        const lcm = await runCompaction(context, config("lcm"), { counter, now: () => clock.t, provider })();
        if (E.isLeft(lcm)) throw new Error(JSON.stringify(lcm.left));
        console.log(`  summary  lcm level ${lcm.right.level ?? "none"}: ${lcm.right.tokensBefore} → ${lcm.right.tokensAfter} tokens`);
        context = [...lcm.right.messages];
      }
      console.log(`  next prompt: ${context.length} messages, ${counter.countMessages(context)} tokens`);
    }
    console.log(`\ndone: ${compactions} compactions; final context ${context.length} messages, ${counter.countMessages(context)} tokens (budget ${BUDGET})`);
    const query = source === undefined ? "compute_total rounding" : "error";
    const hits = await index.search(query, { k: 3, namespace: "demo" })();
    if (E.isLeft(hits)) throw new Error(hits.left._tag);
    console.log(`search "${query}": ${hits.right.length} hits`);
    for (const h of hits.right) console.log(`  ${h.id.padEnd(8)} ${h.kind.padEnd(15)} ${h.snippet.replace(/\s+/g, " ").slice(0, 70)}`);
    const top = hits.right[0];
    if (top !== undefined) {
      const x = await index.expand(top.id, "demo")();
      if (E.isLeft(x) || x.right === undefined) throw new Error("expand failed");
      context = [...context, { role: "user", content: `Recovered from the journal (${top.id}):\n${x.right.content}` }];
      console.log(`expand ${top.id}: ${x.right.content.length} chars of the original back in context (${counter.countMessages(context)} tokens)`);
    }
    return 0;
  } finally {
    await index.close()();
    counter.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
