/**
 * @cc/tokens throughput: the chunked exact counter, the memo (cold and hit), the estimate and
 * gpt-tokenizer, each against raw @dqbd/tiktoken `encode_ordinary` measured in the same run; and
 * the pathological inputs (time and count at 1 MB, count vs raw at a size raw finishes quickly).
 *
 * `node --import tsx --conditions=development bench/tokens.bench.ts` (CC_BENCH_QUICK=1 for quick).
 */
import { estimateTokens, gptTokenizerCounter, memoCounter, rawTiktoken, tiktokenCounter, type TokenCounter } from "@cc/tokens";
import { measure, printTable, quick, writeResults } from "./harness.js";
import { cjkText, codeText, emojiText, pathological } from "../packages/tokens/test/corpus/generate.js";
import { samples } from "../packages/tokens/test/corpus/corpora.js";
import { trajectoryTexts } from "../packages/tokens/test/corpus/trajectories.js";

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
const runs = { runs: 5, warmup: 1 };

const tRaw = measure(() => sum(raw.count), runs);
const tExact = measure(() => sum(exact.count), runs);
const tMemoCold = measure(() => {
  const memo = memoCounter(tiktokenCounter({ encoding }), { maxEntries: 100_000, maxBytes: 64 * 1024 * 1024 });
  const n = sum(memo.count);
  memo.dispose();
  return n;
}, runs);
const warm = memoCounter(tiktokenCounter({ encoding }), { maxEntries: 100_000, maxBytes: 64 * 1024 * 1024 });
sum(warm.count);
const tMemoHit = measure(() => sum(warm.count), runs);
const tEstimate = measure(() => sum(estimateTokens), runs);
// gpt-tokenizer keeps an internal merge cache: its first pass over the corpus is the cold figure.
const gptFirst = measure(() => sum(gptCounter.count), { runs: 1, warmup: 0 });
const tGpt = measure(() => sum(gptCounter.count), runs);

const rows = [
  ["raw @dqbd/tiktoken encode_ordinary", tRaw.medianMs, rawTotal],
  ["tiktokenCounter (chunked)", tExact.medianMs, sum(exact.count)],
  ["memoCounter, cold (all misses)", tMemoCold.medianMs, rawTotal],
  ["memoCounter, hits", tMemoHit.medianMs, sum(warm.count)],
  ["estimateTokens", tEstimate.medianMs, sum(estimateTokens)],
  ["gpt-tokenizer, first pass", gptFirst.medianMs, sum(gptCounter.count)],
  ["gpt-tokenizer, warm merge cache", tGpt.medianMs, sum(gptCounter.count)],
] as const;
const throughput = rows.map(([name, ms, tokens]) => ({ name, ms, mbPerS: mb / (ms / 1000), vsRaw: tRaw.medianMs / ms, tokens }));
printTable(
  `Counting ${corpus.length} chunks, ${mb.toFixed(2)} MB UTF-8 (o200k, median of ${tRaw.runs})`,
  ["backend", "ms", "MB/s", "speed vs raw", "tokens"],
  throughput.map((r) => [r.name, r.ms, r.mbPerS, r.vsRaw, r.tokens]),
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
warm.dispose();
exact.dispose();
gptCounter.dispose();
raw.dispose();
