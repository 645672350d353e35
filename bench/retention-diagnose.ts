/**
 * Diagnosis of the retention benchmark on the DEVELOPMENT split only: for every needed fact a
 * contender loses, why — its holders (the task and observation messages before the action that
 * hold the literal) evicted whole, replaced by a stub or placeholder without the literal, or the
 * task excerpted — and where the contender's budget went at that step (framing, the note, stubs,
 * the task, the rest). Compares the manager with the simple rules at the same budget.
 *
 * CC_DATA_DIR=/work/shared/data npx tsx --conditions=development bench/retention-diagnose.ts
 * Options: CC_DIAG_OPTIONS (the manager's options as JSON, default {"threshold":1}),
 * CC_DIAG_SHARES (default 0.1,0.2,0.3), CC_DIAG_CORPUS (one corpus only).
 */
import { join } from "node:path";
import type { ContextManagerOptions } from "@cc/context";
import type { Message } from "@cc/messages";
import { memoCounter, tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { dataPath } from "../.ci/data.js";
import { printTable } from "./harness.js";
import { dedupe, prepare, readCorpus, type RawSession } from "./retention/corpora.js";
import { contextText } from "./retention/evaluate.js";
import { factLiterals, heldText } from "./retention/needed.js";
import {
  budgetOf,
  fitted,
  managerContender,
  ruleContender,
  type ContenderSpec,
  type PreparedSession,
  type Shown,
  type Tokens,
} from "./retention/replay.js";
import { largestFirstRule, lruRule } from "./retention/rules.js";

const T0 = 1_700_000_000_000;
const STEP_MS = 30_000;
const options = JSON.parse(process.env["CC_DIAG_OPTIONS"] ?? '{"threshold":1}') as Omit<
  ContextManagerOptions,
  "maxTokens" | "counter" | "now"
>;
const shares = (process.env["CC_DIAG_SHARES"] ?? "0.1,0.2,0.3").split(",").map(Number);
const onlyCorpus = process.env["CC_DIAG_CORPUS"];

const raw: RawSession[] = [];
for (const [dir, suffix, corpus] of [
  [dataPath("swe-agent-trajectories"), ".traj", "swe-agent"],
  [join(dataPath("agent-trajectories"), "mini-swe-agent-gemini3pro"), ".traj.json", "mini-gemini"],
  [join(dataPath("agent-trajectories"), "mini-swe-agent-deepseek"), ".traj.json", "mini-deepseek"],
] as const) {
  raw.push(...readCorpus(dir, suffix, corpus).sessions);
}
const counter = memoCounter(tiktokenCounter(), { maxEntries: 1_000_000, maxBytes: 512 * 1024 * 1024 });
const tokens: Tokens = { counter, count: (m: Message) => counter.count(contextText(m)) };
const prepared = prepare(dedupe(raw).kept, tokens.count, T0, STEP_MS);
if (E.isLeft(prepared)) throw new Error(prepared.left);
// Development split only: the evaluation split is never read here.
const dev = prepared.right.filter((s) => s.split === "dev" && (onlyCorpus === undefined || s.corpus === onlyCorpus));

type Fate = "kept" | "evicted" | "stubbed" | "excerpt" | "note-only";
interface Tally {
  n: number;
  byFate: Record<string, number>;
  /** Holder size buckets of lost facts (the newest holder's tokens). */
  bySize: Record<string, number>;
  /** Lost facts by literal type. */
  byType: Record<string, number>;
  budget: Record<string, number>;
  steps: number;
}
const sizeBucket = (t: number): string => (t < 100 ? "<100" : t < 400 ? "100-399" : t < 1500 ? "400-1499" : "1500+");

const typeOf = (l: string): string =>
  /^\d+$/.test(l) ? "number" : /^(0x)?[0-9a-f]{7,}$/.test(l) ? "hex" : /[./]/.test(l) ? "path" : "identifier";

/** How the holders of a literal sit in the context: the best fate among them. */
function fate(s: PreparedSession, literal: string, j: number, seen: readonly Shown[]): { fate: Fate; holder: number } {
  const lits = (m: Message): ReadonlySet<string> => factLiterals(heldText(m));
  if (seen.some((x) => lits(x.message).has(literal))) return { fate: "kept", holder: -1 };
  let holder = -1;
  for (let i = j - 1; i >= 0; i--) {
    const k = s.kinds[i];
    if ((k === "task" || k === "observation") && lits(s.messages[i]!).has(literal)) {
      holder = i;
      break;
    }
  }
  if (holder < 0) return { fate: "evicted", holder };
  const m = s.messages[holder]!;
  if (
    s.kinds[holder] === "task" &&
    seen.some(
      (x) =>
        x.message.role === "user" &&
        x.message.content.includes("task") &&
        x.message !== m &&
        x.message.content.length < m.content.length &&
        m.content.startsWith(x.message.content.slice(0, 40)),
    )
  )
    return { fate: "excerpt", holder };
  if (m.role === "tool" && seen.some((x) => x.message.role === "tool" && x.message.toolCallId === m.toolCallId))
    return { fate: "stubbed", holder };
  if (
    m.role === "user" &&
    seen.some(
      (x) =>
        x.message.role === "user" &&
        x.message !== m &&
        x.message.content.length < m.content.length &&
        x.message.content.slice(0, 60) === m.content.slice(0, 60),
    )
  )
    return { fate: "stubbed", holder };
  return { fate: "evicted", holder };
}

/** Where the tokens of a context went (rules' count: contextText; framing measured separately). */
function spend(s: PreparedSession, seen: readonly Shown[], j: number): Record<string, number> {
  const out: Record<string, number> = {};
  const add = (k: string, v: number): void => {
    out[k] = (out[k] ?? 0) + v;
  };
  const originals = new Set(s.messages.slice(0, j));
  for (const x of seen) {
    const m = x.message;
    const t = tokens.count(m);
    if (m.role === "system") add("system", t);
    else if (m.content.startsWith("[Summary") || m.content.includes("Evicted to the journal")) add("note", t);
    else if (x.recalled) add("recalled", t);
    else if (!originals.has(m) && !s.messages.slice(0, j).some((o) => o.content === m.content)) add("rewritten", t);
    else if (m.role === "assistant") add("action", t);
    else add("observation", t);
  }
  add(
    "framing",
    counter.countMessages(seen.map((x) => x.message)) - seen.reduce((a, x) => a + tokens.count(x.message), 0),
  );
  return out;
}

async function diagnose(spec: ContenderSpec, share: number): Promise<{ all: Tally; distant: Tally }> {
  const all: Tally = { n: 0, byFate: {}, bySize: {}, byType: {}, budget: {}, steps: 0 };
  const distant: Tally = { n: 0, byFate: {}, bySize: {}, byType: {}, budget: {}, steps: 0 };
  for (const s of dev) {
    const budget = budgetOf(s, share);
    const c = spec.make(s, budget, tokens);
    const neededAt = new Map<number, typeof s.needed>();
    for (const f of s.needed) neededAt.set(f.at, [...(neededAt.get(f.at) ?? []), f]);
    let context: readonly Shown[] = [];
    let running = 0;
    for (let j = 0; j < s.messages.length; j++) {
      if (running > budget) {
        const seen = fitted(context, budget, tokens.count);
        const facts = neededAt.get(j) ?? [];
        all.steps++;
        for (const [k, v] of Object.entries(spend(s, seen, j))) all.budget[k] = (all.budget[k] ?? 0) + v / budget;
        // What a fact sheet in the note's tokens would hold: literals of the task and observations
        // no context message holds, newest holder first, then more holders first.
        const noteMsg = seen.find((x) => x.message.content.includes("Evicted to the journal"));
        const sheetBudget =
          Number(process.env["CC_DIAG_SHEET"] ?? 0) * budget +
          (noteMsg === undefined ? 0 : tokens.count(noteMsg.message));
        const sheet = new Set<string>();
        if (sheetBudget > 0 && facts.length > 0) {
          const inContext = new Set(seen.flatMap((x) => [...factLiterals(heldText(x.message))]));
          const info = new Map<string, { newest: number; n: number }>();
          for (let i = 0; i < j; i++) {
            if (s.kinds[i] !== "observation" && s.kinds[i] !== "task") continue;
            for (const l of factLiterals(heldText(s.messages[i]!))) {
              if (inContext.has(l)) continue;
              const v = info.get(l);
              info.set(l, { newest: i, n: (v?.n ?? 0) + 1 });
            }
          }
          const ranked = [...info.entries()]
            .sort((a, b) => b[1].newest - a[1].newest || b[1].n - a[1].n)
            .map(([l]) => l);
          let used = 0;
          for (const l of ranked) {
            const c = counter.count(" " + l);
            if (used + c > sheetBudget) break;
            used += c;
            sheet.add(l);
          }
        }
        for (const f of facts) {
          if (sheet.has(f.literal)) {
            for (const t of f.distant ? [all, distant] : [all]) t.byFate["sheet"] = (t.byFate["sheet"] ?? 0) + 1;
          }
          const r = fate(s, f.literal, j, seen);
          if (process.env["CC_DIAG_EXAMPLES"] === spec.label && r.fate !== "kept" && f.distant && r.holder >= 0) {
            const h = s.messages[r.holder]!;
            const line =
              heldText(h)
                .split("\n")
                .find((l) => factLiterals(l).has(f.literal)) ?? "";
            const act =
              heldText(s.messages[j]!)
                .split("\n")
                .find((l) => factLiterals(l).has(f.literal)) ?? "";
            console.log(
              `EX ${s.corpus} ${s.name.slice(0, 30)} j=${j} lit=${f.literal} holder=${r.holder}(${h.role},${s.tokens[r.holder]}t, back ${j - r.holder}) fate=${r.fate} budget=${budget}\n   holder: ${line.slice(0, 160)}\n   action: ${act.slice(0, 160)}`,
            );
          }
          for (const t of f.distant ? [all, distant] : [all]) {
            t.n++;
            t.byFate[r.fate] = (t.byFate[r.fate] ?? 0) + 1;
            if (r.fate !== "kept") t.byType[typeOf(f.literal)] = (t.byType[typeOf(f.literal)] ?? 0) + 1;
            if (r.fate !== "kept" && r.holder >= 0)
              t.bySize[sizeBucket(s.tokens[r.holder]!)] = (t.bySize[sizeBucket(s.tokens[r.holder]!)] ?? 0) + 1;
          }
        }
      }
      c.refer(j);
      const next = await c.arrive(j);
      if (E.isLeft(next)) throw new Error(next.left);
      context = next.right;
      running += s.tokens[j]!;
    }
    await c.close();
  }
  return { all, distant };
}

const specs = [
  managerContender(`manager ${JSON.stringify(options)}`, options),
  ruleContender(largestFirstRule),
  ruleContender(lruRule),
];
console.log(`development split: ${dev.length} sessions, ${dev.reduce((a, s) => a + s.needed.length, 0)} needed facts`);
for (const share of shares) {
  const rows: (string | number)[][] = [];
  const budgetRows: (string | number)[][] = [];
  for (const spec of specs) {
    const { all, distant } = await diagnose(spec, share);
    const pc = (t: Tally, k: string): string => ((100 * (t.byFate[k] ?? 0)) / Math.max(1, t.n)).toFixed(1);
    for (const [name, t] of [
      ["all", all],
      ["distant", distant],
    ] as const) {
      rows.push([
        spec.label,
        name,
        t.n,
        pc(t, "kept"),
        pc(t, "evicted"),
        pc(t, "stubbed"),
        pc(t, "excerpt"),
        pc(t, "sheet"),
        JSON.stringify(t.bySize),
        JSON.stringify(t.byType),
      ]);
    }
    budgetRows.push([
      spec.label,
      ...["system", "note", "framing", "rewritten", "recalled", "action", "observation"].map((k) =>
        ((100 * (all.budget[k] ?? 0)) / Math.max(1, all.steps)).toFixed(1),
      ),
    ]);
  }
  printTable(
    `needed facts at ${share * 100}% (development split): fate of the newest holder, %`,
    [
      "contender",
      "facts",
      "n",
      "kept",
      "evicted",
      "stubbed",
      "excerpt",
      "sheet would hold",
      "lost by holder size",
      "lost by type",
    ],
    rows,
  );
  printTable(
    `where the budget went at ${share * 100}% (mean share of the budget per scored step, %)`,
    ["contender", "system", "note", "framing", "rewritten", "recalled", "action", "observation"],
    budgetRows,
  );
}
counter.dispose();
