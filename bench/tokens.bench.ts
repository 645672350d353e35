/**
 * @cc/tokens throughput: the chunked exact counter, the memo (cold and hit), the estimate and
 * gpt-tokenizer, each against raw @dqbd/tiktoken `encode_ordinary` measured in the same run; and
 * the pathological inputs (time and count at 1 MB, count vs raw at a size raw finishes quickly).
 *
 * `node --import tsx --conditions=development bench/tokens.bench.ts` (CC_BENCH_QUICK=1 for quick).
 */
import { estimateTokens, gptTokenizerCounter, memoCounter, tiktokenCounter, type TokenCounter } from "@cc/tokens";
import { rawTiktoken } from "@cc/tokens/internal";
import { measure, printTable, quick, writeResults } from "./harness.js";
import { cjkText, codeText, emojiText, pathological } from "./fixtures/corpus/generate.js";
import { samples } from "./fixtures/corpus/corpora.js";
import { trajectoryTexts } from "./fixtures/corpus/trajectories.js";

const encoding = "o200k_base" as const;
const scale = quick ? 0.1 : 1;

// Mixed corpus in 1–4 KB chunks: shared trajectories, generated code, CJK and emoji chat.
const corpus: string[] = [
  ...trajectoryTexts().flatMap((t) => samples(t.text, 3000)),
  ...samples(codeText(21, 1_500_000 * scale), 2500),
  ...samples(cjkText(22, 300_000 * scale), 1500),
  ...samples(emojiText(23, 300_000 * scale), 2000),
].filter((t) => t.length > 0);
const bytes = corpus.reduce((s, t) => s + Buffer.byteLength(t, "utf8"), 0);
const mb = bytes / 1e6;

const raw = rawTiktoken(encoding);
const exact = tiktokenCounter({ encoding });
const gpt = await gptTokenizerCounter({ encoding })();
if (gpt._tag === "Left") throw new Error(`gpt-tokenizer unavailable: ${gpt.left.message}`);
const gptCounter: TokenCounter = gpt.right;

const sum = (f: (t: string) => number): number => corpus.reduce((s, t) => s + f(t), 0);
const rawTotal = sum(raw.count);
const once = { runs: 1, warmup: 0 };
const bigMemo = { maxEntries: 100_000, maxBytes: 64 * 1024 * 1024 };

// Warm every backend (JIT, lazy tables, gpt-tokenizer's rank load) on text outside the corpus.
const warmText = samples(codeText(99, 200_000 * scale), 2500);
for (const f of [raw.count, exact.count, estimateTokens, gptCounter.count]) for (const t of warmText) f(t);

// The machine is shared: backends are interleaved round by round, so load spikes hit all of them,
// and each figure is the median over rounds (ratios are medians of per-round ratios).
const names = ["raw @dqbd/tiktoken encode_ordinary", "tiktokenCounter (chunked)", "memoCounter, cold (all misses)", "memoCounter, hits", "estimateTokens", "gpt-tokenizer, unseen variant of the corpus", "gpt-tokenizer, seen text (merge cache)"] as const;
const times: number[][] = names.map(() => []);
const tokens: number[] = names.map(() => 0);
const rounds = quick ? 1 : 5;
for (let round = 0; round < rounds; round++) {
  // gpt-tokenizer caches merges: give it a corpus variant it has not seen for its "unseen" figure.
  const unseen = corpus.map((t) => `${round}${t}`);
  const memo = memoCounter(tiktokenCounter({ encoding }), bigMemo);
  const steps: (() => number)[] = [
    () => sum(raw.count),
    () => sum(exact.count),
    () => sum(memo.count),
    () => sum(memo.count),
    () => sum(estimateTokens),
    () => unseen.reduce((s, t) => s + gptCounter.count(t), 0),
    () => sum(gptCounter.count),
  ];
  steps.forEach((step, i) => {
    let n = 0;
    times[i]!.push(measure(() => (n = step()), once).medianMs);
    tokens[i] = n;
  });
  memo.dispose();
}
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const throughput = names.map((name, i) => ({
  name,
  ms: median(times[i]!),
  mbPerS: mb / (median(times[i]!) / 1000),
  speedVsRaw: median(times[i]!.map((t, r) => times[0]![r]! / t)),
  tokens: tokens[i]!,
  rounds,
}));
console.log(`raw total ${rawTotal} tokens`);
printTable(
  `Counting ${corpus.length} chunks, ${mb.toFixed(2)} MB UTF-8 (o200k, median of ${rounds} interleaved rounds)`,
  ["backend", "ms", "MB/s", "speed vs raw", "tokens"],
  throughput.map((r) => [r.name, r.ms, r.mbPerS, r.speedVsRaw, r.tokens]),
);

// Pathological inputs: chunked at full size, and chunked vs raw at a size raw finishes quickly.
const bigSize = quick ? 100_000 : 1_000_000;
const rawSize = quick ? 4096 : 16_384;
const big = pathological(31, bigSize);
const small = pathological(31, rawSize);
const patho = [...big.keys()].map((name) => {
  const text = big.get(name)!;
  const t = measure(() => exact.count(text), { runs: 1, warmup: 0 });
  const s = small.get(name)!;
  const tr = measure(() => raw.count(s), { runs: 1, warmup: 0 });
  const rawCount = raw.count(s);
  const chunkedSmall = exact.count(s);
  return {
    name,
    chars: text.length,
    ms: t.medianMs,
    mbPerS: Buffer.byteLength(text, "utf8") / 1e6 / (t.medianMs / 1000),
    tokens: exact.count(text),
    rawChars: s.length,
    rawMs: tr.medianMs,
    rawTokens: rawCount,
    chunkedTokens: chunkedSmall,
    countErrorPct: ((chunkedSmall - rawCount) / rawCount) * 100,
  };
});
printTable(
  `Pathological inputs: chunked at ${bigSize.toLocaleString("en-US")} chars; raw vs chunked at ${rawSize.toLocaleString("en-US")} chars`,
  ["input", "chunked ms", "MB/s", "tokens", "raw ms (small)", "count err % (small)"],
  patho.map((p) => [p.name, p.ms, p.mbPerS, p.tokens, p.rawMs, p.countErrorPct]),
);

const path = writeResults("tokens", { encoding, corpus: { chunks: corpus.length, mb }, throughput, pathological: patho });
console.log(`\nwrote ${path}`);
exact.dispose();
gptCounter.dispose();
raw.dispose();
