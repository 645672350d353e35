/**
 * The package README's benchmark section, rendered from `bench/results/tokens.json` (written by
 * `bench/tokens.bench.ts`, which also writes this section into the README on a full run). A test
 * checks that the README holds exactly what the recorded results render to.
 */

/** Markers around the generated section of the README. */
export const sectionStart =
  "<!-- tokens-bench:start (generated from bench/results/tokens.json by bench/tokens.bench.ts) -->";
export const sectionEnd = "<!-- tokens-bench:end -->";

/** One backend's figures on one input. */
export interface BackendResult {
  readonly name: string;
  readonly ms: number;
  readonly mbPerS: number;
  readonly vsFastestPeer: number;
  readonly tokens: number;
}

/** A ratio over rounds: the median and the lowest and highest round. */
export interface RoundInterval {
  readonly median: number;
  readonly low: number;
  readonly high: number;
}

/** The exact counter's per-byte ratios to prose, alone and while a child process busy-loops. */
export interface LoadComparison {
  readonly rounds: number;
  /** One-minute load average before and after the comparison. */
  readonly loadAverage: readonly number[];
  readonly rows: readonly {
    readonly input: string;
    readonly alone: RoundInterval;
    readonly underLoad: RoundInterval;
  }[];
}

/** The part of the results document the section is rendered from. */
export interface TokensBenchData {
  readonly encoding: string;
  readonly rounds: number;
  readonly load?: readonly number[];
  readonly exactness: readonly { readonly name: string; readonly mismatches: number; readonly samples: number }[];
  readonly corpus: { readonly messages: number; readonly mb: number; readonly results: readonly BackendResult[] };
  readonly perMessage: { readonly messages: number; readonly mb: number; readonly results: readonly BackendResult[] };
  readonly perClass: readonly {
    readonly input: string;
    readonly bytes: number;
    readonly results: readonly BackendResult[];
    readonly oursVsProsePerByte: number;
    readonly oursVsWarmProsePerByte?: number;
  }[];
  readonly pathological: readonly {
    readonly name: string;
    readonly chars: number;
    readonly ms: number;
    readonly mbPerS: number;
    readonly slowdownVsProsePerByte: number;
    readonly tokens: number;
  }[];
  /** Recorded by `CC_BENCH_TOKENS=load` (or any later run): when, and whether in quick mode. */
  readonly underLoad?: LoadComparison & { readonly quick: boolean; readonly date: string };
}

/** Three significant digits, no exponent. */
function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString("en-US");
  return Number(n.toPrecision(n >= 1 ? 3 : 2)).toString();
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [row(header), row(header.map(() => "---")), ...rows.map(row)].join("\n");
}

/** The markdown between the markers (markers excluded) for the recorded `data`. */
export function renderBenchSection(data: TokensBenchData, date: string, quick: boolean): string {
  const names = data.corpus.results.map((r) => r.name);
  const ours = "@cc/tokens exact";
  const bold = (name: string, cell: string): string => (name === ours ? `**${cell}**` : cell);
  const ratios = (results: readonly BackendResult[]): string[] =>
    results.map((r) => bold(r.name, fmt(r.vsFastestPeer)));
  const speed = table(
    ["input", ...names.map((n) => bold(n, n))],
    [
      [
        `transcripts, ${fmt(data.corpus.mb)} MB in ${data.corpus.messages.toLocaleString("en-US")} messages`,
        ...ratios(data.corpus.results),
      ],
      [`transcripts, message by message (${data.perMessage.messages})`, ...ratios(data.perMessage.results)],
      ...data.perClass.map((c) => [c.input, ...ratios(c.results)]),
    ],
  );
  const exact = table(
    ["backend", "generated strings whose count differs from `encode_ordinary`"],
    data.exactness.map((e) => [bold(e.name, e.name), `${e.mismatches} of ${e.samples}`]),
  );
  const perByte = table(
    ["input", "MB/s", "× slower per byte than fresh prose", "× than the same prose string counted again"],
    [
      ...data.perClass.map((c) => {
        const mine = c.results.find((r) => r.name === ours);
        const warm = c.oursVsWarmProsePerByte === undefined ? "–" : fmt(c.oursVsWarmProsePerByte);
        return [`${c.input} (lines)`, mine === undefined ? "–" : fmt(mine.mbPerS), fmt(c.oursVsProsePerByte), warm];
      }),
      ...data.pathological.map((p) => [
        `${p.name} (one piece of ${p.chars.toLocaleString("en-US")} units)`,
        fmt(p.mbPerS),
        fmt(p.slowdownVsProsePerByte),
        "–",
      ]),
    ],
  );
  const load =
    data.load === undefined
      ? ""
      : ` Load average during the run: ${data.load.map((l) => l.toFixed(1)).join(", ")} (2 cores).`;
  return [
    `Recorded ${date.slice(0, 10)}${quick ? " (quick mode)" : ""}, ${data.encoding}, median of ${data.rounds} interleaved rounds.${load}`,
    "",
    "**Time ÷ the fastest peer** on the same input (below 1 = faster than every peer):",
    "",
    speed,
    "",
    "**Exactness** on generated strings (digits, white space, letters, scripts, emoji, lone surrogates, special-token text):",
    "",
    exact,
    "",
    `**Linearity**: ${ours}, MB/s and time per byte ÷ its time per byte on prose (the transcript lines above):`,
    "",
    perByte,
    ...underLoadSection(data),
  ].join("\n");
}

/** The load comparison's table, when the results hold one. */
function underLoadSection(data: TokensBenchData): string[] {
  const u = data.underLoad;
  if (u === undefined) return [];
  const cell = (r: RoundInterval): string => `${fmt(r.median)} (${fmt(r.low)}–${fmt(r.high)})`;
  const t = table(
    ["input", "× prose per byte, alone", "× prose per byte, one core busy-looping"],
    u.rows.map((r) => [r.input, cell(r.alone), cell(r.underLoad)]),
  );
  return [
    "",
    `**Under load** (\`CC_BENCH_TOKENS=load\`, recorded ${u.date.slice(0, 10)}${u.quick ? ", quick mode" : ""}): the same per-byte ratio to fresh prose, alone and while a child process busy-loops, median (lowest–highest) of ${u.rounds} rounds each; load average ${u.loadAverage.map((l) => l.toFixed(1)).join(" → ")} (2 cores):`,
    "",
    t,
  ];
}

/** `readme` with the text between the markers replaced by `section`; undefined when a marker is missing. */
export function withSection(readme: string, section: string): string | undefined {
  const a = readme.indexOf(sectionStart);
  const b = readme.indexOf(sectionEnd);
  if (a < 0 || b < a) return undefined;
  return `${readme.slice(0, a + sectionStart.length)}\n${section}\n${readme.slice(b)}`;
}
