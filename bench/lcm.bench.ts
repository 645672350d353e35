/**
 * @cc/lcm benchmarks: level-3 truncation on 1/2/4/8 MB of messages against a naive `+=`
 * reference (the Go original's approach) measured in the same run, with fitted scaling
 * exponents; and end-to-end compaction of the shared SWE-agent trajectories (read with
 * `readTranscript`, tool calls and results kept as messages), one `lcm` turn of a context manager
 * (@cc/context) with the offline summariser.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { estimateCounter } from "@cc/tokens";
import { readTranscript } from "@cc/cli";
import { createContextManager, type TurnResult } from "@cc/context";
import { offlineProvider, serialiseTranscript, truncateToBudget } from "@cc/lcm";
import { leadingSystemCount, safeSplit, SUMMARY_PREFIX, type Message } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";
import { dataPath } from "../.ci/data.js";
import { measure, measureAsync, printTable, quick, writeResults } from "./harness.js";

const counter = estimateCounter();
const MB = 1024 * 1024;

function messagesOf(bytes: number): Message[] {
  const out: Message[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const content = `turn ${i}: ran \`npm test\` in src/module${i % 97}.ts — ${"output line with words and numbers 12345\n".repeat(40)}`;
    out.push(i % 2 === 0 ? { role: "user", content } : { role: "assistant", content });
    size += content.length;
  }
  return out;
}

/** The naive reference: concatenate with `+=` character by character, then cut the head (Go's approach). */
function naiveTruncate(messages: readonly Message[], maxChars: number): string {
  let all = "";
  for (const m of messages) {
    all += `[${m.role}]\n`;
    for (const ch of m.content) all += ch;
    all += "\n\n";
  }
  return all.length > maxChars ? all.slice(0, maxChars) : all;
}

const fit = (xs: readonly number[], ys: readonly number[]): number => {
  const lx = xs.map(Math.log);
  const ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  const num = lx.reduce((s, x, i) => s + (x - mx) * (ly[i]! - my), 0);
  const den = lx.reduce((s, x) => s + (x - mx) ** 2, 0);
  return num / den;
};

const sizes = quick ? [1, 2] : [1, 2, 4, 8];
const rows: (string | number)[][] = [];
const ours: number[] = [];
const naive: number[] = [];
for (const mb of sizes) {
  const messages = messagesOf(mb * MB);
  const t = measure(() => truncateToBudget(serialiseTranscript(messages), 2000, counter), { runs: 3 });
  const n = measure(() => naiveTruncate(messages, 8000), { runs: 3 });
  ours.push(t.medianMs);
  naive.push(n.medianMs);
  rows.push([`${mb} MB`, messages.length, t.medianMs, n.medianMs, n.medianMs / t.medianMs]);
}
const exponentOurs = fit(sizes, ours);
const exponentNaive = fit(sizes, naive);
printTable(
  "level-3 truncation (serialise + head/tail cut to 2000 tokens) vs naive += reference",
  ["input", "messages", "ours ms", "naive += ms", "naive/ours"],
  rows,
);
console.log(`fitted exponent: ours ${exponentOurs.toFixed(2)}, naive ${exponentNaive.toFixed(2)} (1.0 = linear)`);

// End-to-end compaction of the shared trajectories, read with the CLI's transcript reader so tool
// calls and tool results stay real messages (the tail holds the large tool outputs).
const dataDir = dataPath("swe-agent-trajectories");
const trajectories = readdirSync(dataDir)
  .filter((f) => f.endsWith(".traj"))
  .sort();
const e2e: (string | number)[][] = [];
const e2eData: unknown[] = [];
const preserveLast = 6;
for (const file of quick ? trajectories.slice(0, 4) : trajectories) {
  const read = readTranscript(readFileSync(join(dataDir, file), "utf8"), { source: file });
  if (E.isLeft(read)) throw new Error(`${file}: ${read.left._tag}`);
  const messages = read.right.messages;
  const total = counter.countMessages(messages);
  const maxTokens = Math.max(1000, Math.floor(total / 4));
  // threshold 1: the turn compacts to maxTokens itself (the input is always above it).
  const manager = createContextManager({
    strategy: "lcm",
    maxTokens,
    threshold: 1,
    preserveLast,
    counter,
    provider: offlineProvider({ counter }),
  });
  let last: TurnResult | undefined;
  const timing = await measureAsync(
    async () => {
      last = await manager.compact(messages);
      return last;
    },
    { runs: 3 },
  );
  if (last === undefined) throw new Error(`${file}: compaction failed`);
  const res: TurnResult = last;
  const summaryTokens = res.summary === "" ? 0 : counter.count(res.summary);
  if (res.budgetMet !== res.tokensAfter <= maxTokens) throw new Error(`${file}: budgetMet disagrees with tokensAfter`);
  // The verbatim tail: what follows the summary message; requested: what preserveLast keeps after the safe split.
  const summaryAt = res.messages.findIndex((m) => m.role === "user" && m.content.startsWith(SUMMARY_PREFIX));
  const preserved = res.messages.length - (summaryAt === -1 ? leadingSystemCount(res.messages) : summaryAt + 1);
  const requested = messages.length - safeSplit(messages, preserveLast);
  const tail = !res.budgetMet ? "TailExceedsBudget" : preserved < requested ? "TailShortened" : "TailKept";
  const ratio = res.tokensBefore === 0 ? 1 : res.tokensAfter / res.tokensBefore;
  const level = res.level ?? "none";
  e2e.push([
    file.slice(0, 40),
    messages.length,
    total,
    maxTokens,
    level,
    ratio,
    preserved,
    summaryTokens,
    res.tokensAfter,
    res.budgetMet ? "yes" : "no",
    timing.medianMs,
  ]);
  e2eData.push({
    file,
    messages: messages.length,
    tokens: total,
    maxTokens,
    preserveLast,
    level,
    ratio,
    preserved,
    summaryTokens,
    compactedTokens: res.tokensAfter,
    budgetMet: res.budgetMet,
    tail,
    medianMs: timing.medianMs,
  });
}
printTable(
  `end-to-end compaction of SWE-agent trajectories (readTranscript, one lcm turn of a context manager, offline summariser, maxTokens = tokens/4, preserveLast ${preserveLast})`,
  ["trajectory", "msgs", "tokens", "max", "level", "ratio", "kept", "summary tok", "after", "budgetMet", "ms"],
  e2e,
);

const path = writeResults("lcm", {
  truncation: sizes.map((mb, i) => ({ mb, oursMs: ours[i], naiveMs: naive[i], speedup: naive[i]! / ours[i]! })),
  exponent: { ours: exponentOurs, naive: exponentNaive },
  goOriginalSeconds: { "1": 0.9, "2": 2.4, "4": 7.2, "8": 13.2 },
  endToEnd: e2eData,
});
console.log(`\nwrote ${path}`);
