/**
 * @cc/lcm benchmarks: level-3 truncation on 1/2/4/8 MB of messages against a naive `+=`
 * reference (the Go original's approach) measured in the same run, with fitted scaling
 * exponents; and end-to-end compaction of the shared SWE-agent trajectories with the offline
 * summariser.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { estimateCounter } from "@cc/tokens";
import { createLcmCompactor, offlineProvider, serialiseTranscript, truncateToBudget, type Message } from "@cc/lcm";
import * as E from "fp-ts/lib/Either.js";
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
printTable("level-3 truncation (serialise + head/tail cut to 2000 tokens) vs naive += reference", ["input", "messages", "ours ms", "naive += ms", "naive/ours"], rows);
console.log(`fitted exponent: ours ${exponentOurs.toFixed(2)}, naive ${exponentNaive.toFixed(2)} (1.0 = linear)`);

// End-to-end compaction of the shared trajectories.
const dataDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "shared", "data", "swe-agent-trajectories");
const trajectories = readdirSync(dataDir).filter((f) => f.endsWith(".traj")).sort();
const e2e: (string | number)[][] = [];
const e2eData: unknown[] = [];
const compactor = createLcmCompactor({ provider: offlineProvider({ counter }), counter });
for (const file of quick ? trajectories.slice(0, 4) : trajectories) {
  const raw = JSON.parse(readFileSync(join(dataDir, file), "utf8")) as { history?: { role?: unknown; content?: unknown }[] };
  const messages: Message[] = (raw.history ?? []).flatMap((h): Message[] => {
    const content = typeof h.content === "string" ? h.content : JSON.stringify(h.content ?? "");
    // Tool results become user observations here: the call ids are Python-repr strings in these files.
    return h.role === "system" ? [{ role: "system", content }] : h.role === "assistant" ? [{ role: "assistant", content }] : [{ role: "user", content }];
  });
  const total = compactor.estimateUsage(messages);
  const maxTokens = Math.max(1000, Math.floor(total / 4));
  let last: { level: string; ratio: number } = { level: "?", ratio: 1 };
  const timing = await measureAsync(async () => {
    const r = await compactor.compact(messages, { maxTokens, preserveLast: 6 })();
    if (E.isRight(r)) last = { level: r.right.level, ratio: r.right.ratio };
    return r;
  }, { runs: 3 });
  e2e.push([file.slice(0, 40), messages.length, total, last.level, last.ratio, timing.medianMs]);
  e2eData.push({ file, messages: messages.length, tokens: total, maxTokens, level: last.level, ratio: last.ratio, medianMs: timing.medianMs });
}
printTable("end-to-end compaction of SWE-agent trajectories (offline summariser, maxTokens = tokens/4, preserveLast 6)", ["trajectory", "msgs", "tokens", "level", "ratio", "ms"], e2e);

const path = writeResults("lcm", {
  truncation: sizes.map((mb, i) => ({ mb, oursMs: ours[i], naiveMs: naive[i], speedup: naive[i]! / ours[i]! })),
  exponent: { ours: exponentOurs, naive: exponentNaive },
  goOriginalSeconds: { "1": 0.9, "2": 2.4, "4": 7.2, "8": 13.2 },
  endToEnd: e2eData,
});
console.log(`\nwrote ${path}`);
