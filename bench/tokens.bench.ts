/**
 * @cc/tokens throughput against the JavaScript tokenizers in the same run: ai-tokenizer,
 * gpt-tokenizer, js-tiktoken, raw @dqbd/tiktoken (WASM), this package's exact counter, its
 * estimate and its memo (hits). Every figure is a ratio of time to the fastest peer on the same
 * input (lower is faster), per input class, on the shared transcripts (a ~10 MB corpus and message
 * by message), plus exactness of each peer on generated strings and the exact counter's time per
 * byte on every class and on pathological single-piece input (which the peers cannot finish),
 * relative to its time per byte on prose.
 *
 * `node --import tsx --conditions=development bench/tokens.bench.ts` (CC_BENCH_QUICK=1 for quick).
 * `CC_BENCH_TOKENS=load` measures only the exact counter's per-byte ratios to prose of every
 * class and pathological piece, alone and while a child process busy-loops on a core, and adds
 * them (`underLoad`) to the recorded `bench/results/tokens.json` and the README section; every
 * run (full or quick) measures them too.
 * The transcripts are read from `CC_DATA_DIR` (default `../shared/data` beside the repository).
 * A full run also rewrites the generated benchmark section of `packages/tokens/README.md`.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import fc from "fast-check";
import Tokenizer from "ai-tokenizer";
import * as aiO200k from "ai-tokenizer/encoding/o200k_base";
import { encode as gptEncode } from "gpt-tokenizer/encoding/o200k_base";
import { Tiktoken as JsTiktoken } from "js-tiktoken/lite";
import jsO200k from "js-tiktoken/ranks/o200k_base";
import { estimateTokens, memoCounter, tiktokenCounter } from "@cc/tokens";
import { rawTiktoken } from "@cc/test-support/tokens";
import { measure, printTable, quick, writeResults } from "./harness.js";
import {
  renderBenchSection,
  withSection,
  type LoadComparison,
  type TokensBenchData,
} from "../packages/tokens/test/support/bench-readme.js";
import { cjkText, codeText, emojiText, pathological } from "../packages/tokens/test/corpus/generate.js";
import { exactnessText } from "../packages/tokens/test/corpus/exactness.js";
import { rng } from "../packages/tokens/test/corpus/random.js";
import { trajectoryTexts } from "../packages/tokens/test/corpus/trajectories.js";

const encoding = "o200k_base" as const;
const scale = quick ? 0.1 : 1;
const rounds = 3;

let messages: readonly string[];
try {
  messages = trajectoryTexts()
    .map((t) => t.text)
    .filter((t) => t.length > 0);
} catch (error: unknown) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

/** Lines of generated text of one class, about `chars` UTF-16 units in all. */
function lines(seed: number, chars: number, line: (r: ReturnType<typeof rng>) => string): string {
  const r = rng(seed);
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    const l = line(r);
    out.push(l);
    n += l.length + 1;
  }
  return out.join("\n");
}
const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const hex = "0123456789abcdef";
const pick = (r: ReturnType<typeof rng>, alphabet: string, n: number): string =>
  Array.from({ length: n }, () => alphabet[r.int(alphabet.length)]).join("");
const classSize = quick ? 60_000 : 400_000;

// Each class as one text of independent lines (so raw tiktoken, whose merge is quadratic in a
// piece, finishes). Every round counts a fresh variant (new seed) so no backend's merge cache has
// seen it: the per-class ratios compare first sight with first sight.
const prose = messages.join("\n\n").slice(0, classSize);
const classes = new Map<string, (seed: number) => string>([
  ["prose (transcripts)", (seed) => `${seed}\n${prose}`],
  ["code", (seed) => codeText(41 + seed, classSize)],
  ["digits", (seed) => lines(42 + seed, classSize, (r) => pick(r, "0123456789", 1 + r.int(120)))],
  [
    "whitespace+newlines",
    (seed) =>
      lines(43 + seed, classSize, (r) => `${" ".repeat(r.int(40))}${"\n".repeat(r.int(3))}${"\t".repeat(r.int(4))}x`),
  ],
  [
    "letters without whitespace",
    (seed) => lines(44 + seed, classSize, (r) => pick(r, "abcdefghijklmnopqrstuvwxyz", 40 + r.int(200))),
  ],
  ["CJK", (seed) => cjkText(45 + seed, classSize / 2)],
  ["emoji", (seed) => emojiText(46 + seed, classSize / 2)],
  ["base64", (seed) => lines(47 + seed, classSize, (r) => pick(r, b64, 76))],
  [
    "hex",
    (seed) =>
      lines(
        48 + seed,
        classSize,
        (r) => `${pick(r, hex, 8)}: ${Array.from({ length: 16 }, () => pick(r, hex, 2)).join(" ")}`,
      ),
  ],
]);

// The transcript corpus: every message, repeated to ~10 MB (1 MB quick), each copy behind a
// distinct line so no backend sees the same whole text twice.
const corpus: string[] = [];
let corpusBytes = 0;
for (let copy = 0; corpusBytes < 10e6 * scale; copy++) {
  for (const m of messages) {
    const text = `#${copy}\n${m}`;
    corpus.push(text);
    corpusBytes += Buffer.byteLength(text, "utf8");
  }
}

/** The installed version of a peer, from its package.json beside this file. */
function version(pkg: string): string {
  const json: unknown = JSON.parse(
    readFileSync(new URL(`./node_modules/${pkg}/package.json`, import.meta.url), "utf8"),
  );
  return typeof json === "object" && json !== null && "version" in json && typeof json.version === "string"
    ? json.version
    : "?";
}

const raw = rawTiktoken(encoding);
const ours = tiktokenCounter({ encoding });

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const once = { runs: 1, warmup: 0 };
const utf8Length = (t: string): number => Buffer.byteLength(t, "utf8");
const proseVariant = classes.get("prose (transcripts)")!;

/**
 * Per round, (ms per byte on `text(round)`) / (ms per byte on prose just before): a fresh prose
 * variant each round, or (`warm`) the one prose string counted every round, the kindest baseline
 * (a string counted again costs less than a fresh one).
 */
function perByteRatios(text: (round: number) => string, rounds: number, warm = false): number[] {
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const p = warm ? prose : proseVariant(500 + round);
    const t = text(round);
    const proseMs = measure(() => ours.count(p), once).medianMs;
    const textMs = measure(() => ours.count(t), once).medianMs;
    ratios.push(textMs / utf8Length(t) / (proseMs / utf8Length(p)));
  }
  return ratios;
}
/** Median over rounds of {@link perByteRatios}. */
function perByteVsProse(text: (round: number) => string, rounds: number, warm = false): number {
  return median(perByteRatios(text, rounds, warm));
}

/** Runs `work` while a child process busy-loops (started and running before, killed after). */
async function whileLoaded<T>(work: () => T): Promise<T> {
  const child = spawn(process.execPath, ["-e", "process.stdout.write('ready\\n'); for (;;) {}"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once("data", () => resolve());
      child.once("error", reject);
    });
    return work();
  } finally {
    child.kill("SIGKILL");
  }
}

/**
 * Every class's and pathological piece's per-byte ratio to fresh prose, alone and under load
 * (one busy child process), as the median and the range over rounds. Each input's alone rounds
 * run, then its loaded rounds, so both see the same background.
 */
async function loadComparison(): Promise<LoadComparison> {
  const rounds = quick ? 2 : 7;
  const size = quick ? 100_000 : 1_000_000;
  const pieces = Array.from({ length: rounds }, (_, round) => pathological(231 + round, size));
  const inputs: [string, (round: number) => string][] = [
    ...[...classes]
      .filter(([name]) => name !== "prose (transcripts)")
      .map(([name, make]): [string, (round: number) => string] => [`${name} (lines)`, (round) => make(700 + round)]),
    ...[...pieces[0]!.keys()].map((name): [string, (round: number) => string] => [
      `${name} (one piece of ${size.toLocaleString("en-US")} units)`,
      (round) => pieces[round]!.get(name)!,
    ]),
  ];
  const interval = (xs: readonly number[]): { median: number; low: number; high: number } => ({
    median: median(xs),
    low: Math.min(...xs),
    high: Math.max(...xs),
  });
  const rows: LoadComparison["rows"][number][] = [];
  ours.count(proseVariant(999)); // tables built before the first timed count
  const loadBefore = loadavg()[0]!;
  for (const [input, text] of inputs) {
    const alone = perByteRatios(text, rounds);
    const loaded = await whileLoaded(() => perByteRatios(text, rounds));
    rows.push({ input, alone: interval(alone), underLoad: interval(loaded) });
    console.log(
      `${input}: alone ${interval(alone).median.toFixed(2)}×, under load ${interval(loaded).median.toFixed(2)}×`,
    );
  }
  return { rounds, loadAverage: [loadBefore, loadavg()[0]!], rows };
}

if (process.env["CC_BENCH_TOKENS"] === "load") {
  // Only the load comparison, added to the recorded results (kept as they were otherwise).
  const underLoad = await loadComparison();
  const resultsUrl = new URL("./results/tokens.json", import.meta.url);
  const doc = JSON.parse(readFileSync(resultsUrl, "utf8")) as { quick: boolean; date: string; data: TokensBenchData };
  const data: TokensBenchData = { ...doc.data, underLoad: { ...underLoad, quick, date: new Date().toISOString() } };
  writeFileSync(resultsUrl, `${JSON.stringify({ ...doc, data }, null, 2)}\n`);
  const readmeUrl = new URL("../packages/tokens/README.md", import.meta.url);
  const updated = withSection(readFileSync(readmeUrl, "utf8"), renderBenchSection(data, doc.date, doc.quick));
  if (updated !== undefined) writeFileSync(readmeUrl, updated);
  console.log(`added the load comparison to ${resultsUrl.pathname} and the README section`);
  ours.dispose();
  process.exit(0);
}
const ai = new Tokenizer(aiO200k);
// encodeOrdinary is public at run time (its type marks it private): the special-token-free path, as for the others.
const aiOrdinary = (ai as unknown as { encodeOrdinary(text: string): readonly number[] }).encodeOrdinary.bind(ai);
const ordinary = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };
const js = new JsTiktoken(jsO200k);

interface Backend {
  readonly name: string;
  /** A peer tokenizer: the ratios are to the fastest of these. */
  readonly peer: boolean;
  readonly exact: boolean;
  readonly count: (text: string) => number;
}
const memo = memoCounter(tiktokenCounter({ encoding }), { maxEntries: 1_000_000, maxBytes: 512 * 1024 * 1024 });
const backends: readonly Backend[] = [
  { name: `ai-tokenizer ${version("ai-tokenizer")}`, peer: true, exact: true, count: (t) => aiOrdinary(t).length },
  {
    name: `gpt-tokenizer ${version("gpt-tokenizer")}`,
    peer: true,
    exact: true,
    count: (t) => gptEncode(t, ordinary).length,
  },
  { name: `js-tiktoken ${version("js-tiktoken")}`, peer: true, exact: true, count: (t) => js.encode(t, [], []).length },
  { name: `@dqbd/tiktoken ${version("@dqbd/tiktoken")} (WASM)`, peer: true, exact: true, count: raw.count },
  { name: "@cc/tokens exact", peer: false, exact: true, count: ours.count },
  { name: "@cc/tokens estimate", peer: false, exact: false, count: estimateTokens },
  { name: "@cc/tokens memo, hits", peer: false, exact: false, count: memo.count },
];

// Exactness of each backend against raw encode_ordinary on the property generators.
const samples = fc.sample(exactnessText, { numRuns: quick ? 100 : 1000, seed: 7 });
const mismatches = backends
  .filter((b) => b.exact)
  .map((b) => ({
    name: b.name,
    mismatches: samples.filter((s) => b.count(s) !== raw.count(s)).length,
    samples: samples.length,
  }));
printTable(
  "Exactness vs raw encode_ordinary on generated strings (digits, whitespace, letters, scripts, emoji, surrogates, special-token text)",
  ["backend", "strings that differ", "of"],
  mismatches.map((m) => [m.name, m.mismatches, m.samples]),
);

// Warm every backend (on variants never measured) and fill the memo with everything it will be asked.
for (const b of backends) for (const t of [...[...classes.values()].map((make) => make(1000)), ...messages]) b.count(t);
for (const t of corpus) memo.count(t);
for (const make of classes.values()) for (let round = 0; round < rounds; round++) memo.count(make(round));

/**
 * Times every backend on `work(count, round)`, interleaved round by round; returns ms, MB/s and
 * the ratio of time to the fastest peer (ai-tokenizer, gpt-tokenizer, js-tiktoken, raw tiktoken).
 */
function race(
  work: (count: (t: string) => number, round: number) => number,
  bytes: number,
): { name: string; ms: number; mbPerS: number; vsFastestPeer: number; tokens: number }[] {
  const times = backends.map(() => [] as number[]);
  const tokens = backends.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    backends.forEach((b, i) => {
      let n = 0;
      times[i]!.push(measure(() => (n = work(b.count, round)), once).medianMs);
      tokens[i] = n;
    });
  }
  const ms = times.map(median);
  const fastestPeer = Math.min(...ms.filter((_, i) => backends[i]!.peer));
  return backends.map((b, i) => ({
    name: b.name,
    ms: ms[i]!,
    mbPerS: bytes / 1e6 / (ms[i]! / 1000),
    vsFastestPeer: ms[i]! / fastestPeer,
    tokens: tokens[i]!,
  }));
}

const oursName = "@cc/tokens exact";
const perClassRaw = [...classes].map(([name, make]) => {
  const texts = Array.from({ length: rounds }, (_, round) => make(round));
  const bytes = Buffer.byteLength(texts[0]!, "utf8");
  return { input: name, bytes, results: race((count, round) => count(texts[round]!), bytes) };
});

// Linearity: our time per byte on a class over our time per byte on prose, the two measured back to
// back in each round (a fresh variant of both, never seen before) so the machine's load drifts out
// of the ratio; the median of the rounds' ratios.
const linearityRounds = quick ? 1 : 7;
const perClass = perClassRaw.map((c, i) => ({
  ...c,
  oursVsProsePerByte: i === 0 ? 1 : perByteVsProse((round) => classes.get(c.input)!(500 + round), linearityRounds),
  oursVsWarmProsePerByte: perByteVsProse((round) => classes.get(c.input)!(600 + round), linearityRounds, true),
}));
const corpusRun = race((count) => corpus.reduce((s, t) => s + count(t), 0), corpusBytes);
const messageBytes = messages.reduce((s, t) => s + Buffer.byteLength(t, "utf8"), 0);
const perMessage = race((count) => messages.reduce((s, t) => s + count(t), 0), messageBytes);

const header = ["input", ...backends.map((b) => b.name)];
printTable(
  `Time / fastest peer (ai-tokenizer, gpt-tokenizer, js-tiktoken, raw tiktoken; below 1 = faster than all of them; o200k; median of ${rounds} interleaved rounds)`,
  header,
  [
    [
      `transcripts, ${(corpusBytes / 1e6).toFixed(1)} MB in ${corpus.length} messages`,
      ...corpusRun.map((r) => r.vsFastestPeer),
    ],
    [`transcripts, message by message (${messages.length})`, ...perMessage.map((r) => r.vsFastestPeer)],
    ...perClass.map((c) => [c.input, ...c.results.map((r) => r.vsFastestPeer)]),
  ],
);
printTable("MB/s", header, [
  ["transcripts corpus", ...corpusRun.map((r) => r.mbPerS)],
  ...perClass.map((c) => [c.input, ...c.results.map((r) => r.mbPerS)]),
]);

printTable(
  "@cc/tokens exact: time per byte / its time per byte on prose measured just before (lines of each class; median of per-round ratios)",
  ["input", "MB/s", "× slower per byte than prose", "× than the same prose string counted again"],
  perClass.map((c) => [
    c.input,
    c.results.find((r) => r.name === oursName)!.mbPerS,
    c.oursVsProsePerByte,
    c.oursVsWarmProsePerByte,
  ]),
);

// Pathological single pieces: only the exact counter (the peers are quadratic on them). A fresh
// variant (new seed) every round, median of the rounds.
const pathoSize = quick ? 100_000 : 1_000_000;
const pathoRounds = quick ? 1 : 3;
const variants = Array.from({ length: pathoRounds }, (_, round) => pathological(31 + round, pathoSize));
const fresh = Array.from({ length: quick ? 1 : 5 }, (_, round) => pathological(131 + round, pathoSize)); // for the paired ratios
const patho = [...variants[0]!.keys()].map((name) => {
  let n = 0;
  const ms = median(variants.map((v) => measure(() => (n = ours.count(v.get(name)!)), once).medianMs));
  const text = variants[0]!.get(name)!;
  const mbPerS = Buffer.byteLength(text, "utf8") / 1e6 / (ms / 1000);
  const slowdownVsProsePerByte = perByteVsProse((round) => fresh[round]!.get(name)!, fresh.length);
  return { name, chars: text.length, ms, mbPerS, slowdownVsProsePerByte, tokens: n };
});
printTable(
  `Pathological input, one piece of ${pathoSize.toLocaleString("en-US")} units, @cc/tokens exact (no cut, exact; per byte vs prose lines)`,
  ["input", "ms", "MB/s", "× slower per byte than prose", "tokens"],
  patho.map((p) => [p.name, p.ms, p.mbPerS, p.slowdownVsProsePerByte, p.tokens]),
);

const data: TokensBenchData = {
  encoding,
  rounds,
  load: loadavg(),
  exactness: mismatches,
  corpus: { messages: corpus.length, mb: corpusBytes / 1e6, results: corpusRun },
  perMessage: { messages: messages.length, mb: messageBytes / 1e6, results: perMessage },
  perClass,
  pathological: patho,
  underLoad: { ...(await loadComparison()), quick, date: new Date().toISOString() },
};
const path = writeResults("tokens", data);
console.log(`\nwrote ${path}`);
if (!quick) {
  const readmeUrl = new URL("../packages/tokens/README.md", import.meta.url);
  const written: unknown = JSON.parse(readFileSync(path, "utf8"));
  const date =
    typeof written === "object" && written !== null && "date" in written && typeof written.date === "string"
      ? written.date
      : new Date().toISOString();
  const updated = withSection(readFileSync(readmeUrl, "utf8"), renderBenchSection(data, date, quick));
  if (updated === undefined) console.error("packages/tokens/README.md has no generated benchmark section: not updated");
  else {
    writeFileSync(readmeUrl, updated);
    console.log("updated the benchmark section of packages/tokens/README.md");
  }
}
ours.dispose();
memo.dispose();
raw.dispose();
