/**
 * Framework comparison: on the same transcripts and the same budget, what does each framework's
 * built-in keep, and what does our adapter keep?
 *
 * Every contender (bench/adapters/<framework>.ts) receives a prefix of a real transcript in our
 * message model, converts it to its framework's message type, runs — the built-in trimming or
 * summarising, or our adapter — and converts the prompt back. The runner measures all of them the
 * same way at checkpoints (the prefixes that end just before an assistant turn):
 * - **tokens sent**: exact o200k count of the prompt, summed over checkpoints, and how many
 *   prompts were over the budget;
 * - **units split**: tool results whose call is not in the prompt, plus calls whose results were
 *   in the history but not in the prompt (a provider rejects or mis-reads both);
 * - **re-access kept** and **action grounding** (the rules of bench/retention/metrics.ts): of the
 *   terms the next assistant turn re-uses, and of the literals its action copies from earlier
 *   messages, the share some message of the prompt still holds (a summary that names them counts).
 * Transcripts: the SWE-agent trajectories and both mini-swe-agent corpora (structured tool calls),
 * the first few of each. Writes bench/results/adapters.json. Quick mode: 1 transcript per corpus,
 * 3 checkpoints, one budget.
 */
import { formatTranscriptError, readTranscript } from "@cc/cli";
import type { Message } from "@cc/messages";
import { countMessagesWith, memoCounter, tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dataPath } from "../.ci/data.js";
import { contenders as aiSdk } from "./adapters/ai-sdk.js";
import type { Contender } from "./adapters/contender.js";
import { contenders as langchain } from "./adapters/langchain.js";
import { contenders as mastra } from "./adapters/mastra.js";
import { contenders as openaiAgents } from "./adapters/openai-agents.js";
import { printTable, quick, writeResults } from "./harness.js";
import { agentReaccesses, groundingTargets, holdings, literalKeys, templateLines } from "./retention/metrics.js";
import { argumentText } from "./retention/reaccess.js";

const BUDGETS: readonly number[] = quick ? [8_000] : [8_000, 16_000];
const CHECKPOINTS = quick ? 3 : 8;
const PER_CORPUS = quick ? 1 : 4;
const CORPORA: readonly { readonly name: string; readonly dir: string; readonly suffix: string }[] = [
  { name: "swe-agent", dir: "swe-agent-trajectories", suffix: ".traj" },
  { name: "mini-swe-agent gemini", dir: "agent-trajectories/mini-swe-agent-gemini3pro", suffix: ".json" },
  { name: "mini-swe-agent deepseek", dir: "agent-trajectories/mini-swe-agent-deepseek", suffix: ".json" },
];

// Every message is counted once, whatever the policy or budget asking.
const counter = memoCounter(tiktokenCounter(), { maxEntries: 1_000_000, maxBytes: 512 * 1024 * 1024 });
const count = (t: string): number => counter.count(t);

interface Session {
  readonly corpus: string;
  readonly name: string;
  readonly messages: readonly Message[];
}

/** The first `PER_CORPUS` readable transcripts of each corpus that exceed the smallest budget, in name order. */
function loadSessions(): Session[] {
  const out: Session[] = [];
  for (const c of CORPORA) {
    const dir = dataPath(c.dir);
    let taken = 0;
    for (const f of readdirSync(dir)
      .filter((x) => x.endsWith(c.suffix))
      .sort()) {
      if (taken >= PER_CORPUS) break;
      const r = readTranscript(readFileSync(join(dir, f), "utf8"), { source: f });
      if (E.isLeft(r)) {
        console.error(`skipped: ${formatTranscriptError(r.left)}`);
        continue;
      }
      if (countMessagesWith(count, r.right.messages) <= Math.min(...BUDGETS)) continue;
      out.push({ corpus: c.name, name: f, messages: r.right.messages });
      taken++;
    }
  }
  return out;
}

const sessions = loadSessions();
if (sessions.length === 0) {
  console.error("no transcript readable");
  process.exit(1);
}
const all: readonly Contender[] = [...aiSdk, ...langchain, ...openaiAgents, ...mastra];

/** Checkpoint indices: up to `n` assistant turns spread evenly over the session (never the first message). */
export function checkpoints(messages: readonly Message[], n: number): number[] {
  const at = messages.flatMap((m, i) => (m.role === "assistant" && i > 0 ? [i] : []));
  if (at.length <= n) return at;
  return Array.from({ length: n }, (_, k) => at[Math.floor(((k + 1) * at.length) / (n + 1))]!);
}

/** Tool results without their call, and calls (answered in `history`) without their results. */
export function unitsSplit(prompt: readonly Message[], history: readonly Message[]): number {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const m of prompt) {
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) calls.add(c.id);
    if (m.role === "tool") results.add(m.toolCallId);
  }
  const answered = new Set(history.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
  let split = 0;
  for (const r of results) if (!calls.has(r)) split++;
  for (const c of calls) if (answered.has(c) && !results.has(c)) split++;
  return split;
}

interface Row {
  readonly framework: string;
  readonly contender: string;
  readonly builtIn: boolean;
  readonly budget: number;
  readonly prompts: number;
  readonly failures: number;
  readonly tokensSent: number;
  readonly overBudget: number;
  readonly unitsSplit: number;
  readonly reaccesses: number;
  readonly reaccessKept: number;
  readonly grounding: number;
  readonly grounded: number;
}

/** Every term and literal key a prompt holds (any message, the summary included). */
function promptKeys(prompt: readonly Message[]): Set<string> {
  const keys = new Set<string>();
  for (const m of prompt) {
    const text = [
      m.content,
      ...(m.role === "assistant" ? (m.toolCalls ?? []).map((c) => argumentText(c.arguments)) : []),
    ].join("\n");
    for (const k of literalKeys(text)) keys.add(k);
  }
  return keys;
}

const template = new Map(
  CORPORA.map((c) => [c.name, templateLines(sessions.filter((s) => s.corpus === c.name).map((s) => s.messages))]),
);
const uses = new Map(
  sessions.map((s) => {
    const h = holdings(s.messages, template.get(s.corpus) ?? new Set());
    return [s, { reaccess: agentReaccesses(s.messages, h), grounding: groundingTargets(s.messages, h) }] as const;
  }),
);

const rows: Row[] = [];
for (const budget of BUDGETS) {
  for (const c of all) {
    let prompts = 0;
    let failures = 0;
    let tokensSent = 0;
    let overBudget = 0;
    let split = 0;
    let reaccesses = 0;
    let kept = 0;
    let grounding = 0;
    let grounded = 0;
    for (const s of sessions) {
      const { messages } = s;
      const u = uses.get(s)!;
      for (const at of checkpoints(messages, CHECKPOINTS)) {
        const history = messages.slice(0, at);
        let prompt: readonly Message[];
        try {
          prompt = await c.run(history, budget);
        } catch (e) {
          failures++;
          console.error(`${c.framework} / ${c.name} on ${s.name}@${at}: ${e instanceof Error ? e.message : String(e)}`);
          continue;
        }
        prompts++;
        const tokens = countMessagesWith(count, prompt);
        tokensSent += tokens;
        if (tokens > budget) overBudget++;
        split += unitsSplit(prompt, history);
        const held = promptKeys(prompt);
        for (const r of u.reaccess)
          if (r.at === at) [reaccesses, kept] = [reaccesses + 1, kept + (held.has(r.key) ? 1 : 0)];
        for (const g of u.grounding)
          if (g.at === at) [grounding, grounded] = [grounding + 1, grounded + (held.has(g.key) ? 1 : 0)];
      }
    }
    rows.push({
      framework: c.framework,
      contender: c.name,
      builtIn: c.builtIn,
      budget,
      prompts,
      failures,
      tokensSent,
      overBudget,
      unitsSplit: split,
      reaccesses,
      reaccessKept: kept,
      grounding,
      grounded,
    });
  }
}

const pct = (a: number, b: number): string => (b === 0 ? "—" : `${((100 * a) / b).toFixed(1)}%`);
printTable(
  `Framework built-ins vs our adapters — ${sessions.length} transcripts (${CORPORA.map((c) => c.name).join(", ")}), up to ${CHECKPOINTS} checkpoints each`,
  [
    "budget",
    "framework",
    "contender",
    "prompts",
    "failed",
    "tokens sent",
    "over budget",
    "units split",
    "re-access kept",
    "action grounding",
  ],
  rows.map((r) => [
    r.budget,
    r.framework,
    r.contender,
    r.prompts,
    r.failures,
    r.tokensSent,
    r.overBudget,
    r.unitsSplit,
    `${pct(r.reaccessKept, r.reaccesses)} of ${r.reaccesses}`,
    `${pct(r.grounded, r.grounding)} of ${r.grounding}`,
  ]),
);
const path = writeResults("adapters", {
  sessions: sessions.map((s) => `${s.corpus}/${s.name}`),
  checkpoints: CHECKPOINTS,
  budgets: BUDGETS,
  rows,
});
console.log(`wrote ${path}`);
