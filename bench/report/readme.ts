/**
 * The root README's headline figures, rendered from `bench/results/*.json` — never typed by hand.
 * `npx tsx bench/report/readme.ts --write` replaces the block between the `results:start` and
 * `results:end` markers of README.md; `bench/test/readme-results.test.ts` fails when the README
 * and the results disagree. A results file that is missing or from a quick run renders as such.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const ROOT = join(here, "..", "..");
/** The markers around the generated block in README.md. */
export const START = "<!-- results:start (npx tsx bench/report/readme.ts --write) -->";
export const END = "<!-- results:end -->";

type Json = Readonly<Record<string, unknown>>;
const obj = (u: unknown): Json => (typeof u === "object" && u !== null && !Array.isArray(u) ? (u as Json) : {});
const arr = (u: unknown): readonly unknown[] => (Array.isArray(u) ? u : []);
const num = (u: unknown): number => (typeof u === "number" && Number.isFinite(u) ? u : Number.NaN);
const str = (u: unknown): string => (typeof u === "string" ? u : "");
const pct = (x: number, digits = 1): string => (Number.isFinite(x) ? `${(100 * x).toFixed(digits)}%` : "—");
const fixed = (x: number, digits: number): string => (Number.isFinite(x) ? x.toFixed(digits) : "—");

/** A results document: `{ name, quick, date, data }` as `bench/harness.ts` writes it, or undefined. */
export interface ResultsDoc {
  readonly quick: boolean;
  readonly date: string;
  readonly data: Json;
}

/** Reads `bench/results/<name>.json`; `undefined` when it is missing or unreadable. */
export function readResults(name: string, root: string = ROOT): ResultsDoc | undefined {
  try {
    const doc = obj(JSON.parse(readFileSync(join(root, "bench", "results", `${name}.json`), "utf8")));
    return { quick: doc["quick"] === true, date: str(doc["date"]), data: obj(doc["data"]) };
  } catch {
    return undefined;
  }
}

const source = (name: string, doc: ResultsDoc | undefined): string =>
  doc === undefined
    ? `\`bench/results/${name}.json\` missing`
    : `\`bench/results/${name}.json\`, ${doc.quick ? "quick run" : "full run"} ${doc.date.slice(0, 10)}`;

/** ", load average A–B" (the 1-minute figure at the start and end of the run) when the results record it: wall-clock times depend on it. */
function loadNote(doc: ResultsDoc): string {
  const load = obj(doc.data["loadAverage"]);
  const at = [arr(load["start"])[0], arr(load["end"])[0]].map(num).filter(Number.isFinite);
  return at.length === 2 ? `, machine load average ${fixed(Math.min(...at), 1)}–${fixed(Math.max(...at), 1)}` : "";
}

function tokensRows(doc: ResultsDoc | undefined): string[] {
  if (doc === undefined) return [`| exact token counting | ${source("tokens", doc)} |`];
  const d = doc.data;
  const ours = (results: unknown): Json => obj(arr(results).find((r) => str(obj(r)["name"]) === "@cc/tokens exact"));
  const corpus = ours(obj(d["corpus"])["results"]);
  const perMessage = ours(obj(d["perMessage"])["results"]);
  const exact = arr(d["exactness"]).map(obj);
  const inexact = exact
    .filter((e) => num(e["mismatches"]) > 0)
    .map((e) => `${str(e["name"]).replace(/ [\d.]+$/, "")} ${num(e["mismatches"])}`);
  const oursExact = exact.find((e) => /@cc|ours/i.test(str(e["name"])));
  const path = arr(d["pathological"]).map(obj);
  const worst = path.reduce((m, p) => Math.max(m, num(p["slowdownVsProsePerByte"])), 0);
  const worstName = str(path.find((p) => num(p["slowdownVsProsePerByte"]) === worst)?.["name"]);
  const classes = arr(d["perClass"]).map(obj);
  const worstClass = classes.reduce((m, c) => Math.max(m, num(c["oursVsProsePerByte"])), 0);
  const worstClassName = str(classes.find((c) => num(c["oursVsProsePerByte"]) === worstClass)?.["input"]);
  const over = [
    ...classes.filter((c) => num(c["oursVsProsePerByte"]) > 3).map((c) => `${str(c["input"])} lines`),
    ...path.filter((p) => num(p["slowdownVsProsePerByte"]) > 3).map((p) => str(p["name"])),
  ];
  const aim = over.length === 0 ? "every class within the 3× aim" : `the 3× aim is not met on ${over.join(", ")}`;
  const ratio = (r: Json): string => fixed(num(r["vsFastestPeer"]), 2);
  return [
    `| exact token counting, ${fixed(num(obj(d["corpus"])["mb"]), 1)} MB of transcripts (o200k) | ${ratio(corpus)}× the time of the fastest JS tokenizer on the whole corpus, ${ratio(perMessage)}× message by message; ${oursExact === undefined ? "" : `${num(oursExact["mismatches"])} mismatches against tiktoken in ${num(oursExact["samples"])} generated strings (peers: ${inexact.join(", ")})`} — ${source("tokens", doc)} |`,
    `| time per byte against prose (same file) | lines of one class: worst ${fixed(worstClass, 1)}× (${worstClassName}); 1 MB single pieces: worst ${fixed(worst, 1)}× (${worstName}); ${aim} |`,
  ];
}

function retentionRows(doc: ResultsDoc | undefined): string[] {
  if (doc === undefined) return [`| retention | ${source("retention", doc)} |`];
  // Version 3: per budget share, real transcripts of the evaluation split pooled.
  const real = obj(obj(doc.data["table"])["real"]);
  const budgets = Object.keys(real);
  // Points, with a difference that rounds to zero written 0.0 (never -0.0).
  const points = (x: number): string => fixed(Math.abs(100 * x) < 0.05 ? 0 : 100 * x, 1);
  const cell = (budget: string, policy: string, metric: string): string => {
    const m = obj(obj(obj(real[budget])[policy])[metric]);
    return `${points(num(m["value"]))} (${points(num(m["lo"]))}–${points(num(m["hi"]))})`;
  };
  const policies = budgets.length === 0 ? [] : Object.keys(obj(real[budgets[0]!]));
  const available = policies
    .map((p) => `${p} ${budgets.map((b) => cell(b, p, "needed.available")).join(" / ")}`)
    .join("; ");
  const headline = arr(doc.data["headline"]).map(obj);
  const diff = (metric: string): string =>
    headline
      .map((h) => {
        const m = obj(
          arr(h["metrics"])
            .map(obj)
            .find((x) => str(x["metric"]) === metric),
        );
        const d = obj(m["difference"]);
        return `${str(h["budget"])}: ${points(num(d["value"]))} vs ${str(m["rival"])} (${points(num(d["lo"]))} to ${points(num(d["hi"]))})`;
      })
      .join("; ");
  const goal = arr(doc.data["goal"]).map(obj);
  const met = goal.map((g) => `${str(g["budget"])} ${g["met"] === true ? "met" : "not met"}`).join(", ");
  const sessions = arr(obj(doc.data["sessions"])["eval"]).length;
  return [
    `| retention: needed facts available at ${budgets.join(" / ")} of each session's peak context, ${sessions} real transcripts of the evaluation split, % (95% CI) | ${available} — ${source("retention", doc)} |`,
    `| the manager minus the best simple rule, needed facts available, points (paired 95% CI) | ${diff("needed.available")}; goal (≥ +10 with the interval above 0, re-access and grounding within 1 point): ${met} |`,
    `| the same, re-access kept / action grounding, points | re-access ${diff("reaccess")}; grounding ${diff("grounding")} |`,
  ];
}

function costRows(doc: ResultsDoc | undefined): string[] {
  if (doc === undefined) return [`| compaction cost | ${source("cost", doc)} |`];
  // Rows carry their split since the benchmark reports on the evaluation split; older files have none (every transcript).
  const pooled = arr(doc.data["rows"])
    .map(obj)
    .filter((r) => str(r["corpus"]) === "all");
  const split = pooled.some((r) => str(r["split"]) === "eval");
  const rows = split ? pooled.filter((r) => str(r["split"]) === "eval") : pooled;
  // Rows carry a fixed token budget since budgets no longer come from a transcript's length; older files have one budget.
  const budgets = [...new Set(rows.map((r) => r["budget"]).filter((b) => typeof b === "number"))] as number[];
  const line = (sheet: string, at: readonly Record<string, unknown>[]): string =>
    at
      .filter((r) => str(r["sheet"]) === sheet)
      .map(
        (r) =>
          `${str(r["policy"])} $${fixed(num(r["inputCostUsd"]), 1)} (${num(r["compactions"])} compactions, retention ${fixed(num(r["retentionPct"]), 1)}%)`,
      )
      .join(", ");
  const what = `${num(rows[0]?.["sessions"])} transcripts${split ? " (evaluation split)" : ""}`;
  if (budgets.length === 0) {
    return [
      `| input cost of replaying ${what}, with prompt caching | ${line("with caching", rows)} — ${source("cost", doc)} |`,
      `| the same without prompt caching | ${line("without caching", rows)} |`,
    ];
  }
  const diffs = arr(doc.data["differences"])
    .map(obj)
    .filter((d) => str(d["split"]) === (split ? "eval" : "all") && str(d["rival"]) !== "threshold");
  const diff = (budget: number, sheet: string): string =>
    diffs
      .filter((d) => num(d["budget"]) === budget && str(d["sheet"]) === sheet)
      .map(
        (d) =>
          `vs ${str(d["rival"])} ${fixed(num(d["differencePct"]), 1)}% [${fixed(num(d["lo"]), 1)}, ${fixed(num(d["hi"]), 1)}]`,
      )
      .join(", ");
  return budgets.flatMap((budget, i) => {
    const at = rows.filter((r) => r["budget"] === budget);
    return ["with caching", "without caching"].map(
      (sheet, j) =>
        `| input cost of replaying ${what} at a budget of ${budget} tokens, ${sheet === "with caching" ? "with" : "without"} prompt caching | ${line(sheet, at)}; cost model minus rival (session bootstrap 95% CI): ${diff(budget, sheet)}${i === 0 && j === 0 ? ` — ${source("cost", doc)}` : ""} |`,
    );
  });
}

function adapterRows(doc: ResultsDoc | undefined): string[] {
  if (doc === undefined) return [`| framework adapters | ${source("adapters", doc)} |`];
  const rows = arr(doc.data["rows"]).map(obj);
  const budgets = [...new Set(rows.map((r) => num(r["budget"])))];
  const budget = Math.min(...budgets);
  const at = rows.filter((r) => num(r["budget"]) === budget);
  const frameworks = [...new Set(at.map((r) => str(r["framework"])))];
  const describe = (r: Json): string =>
    `${str(r["contender"])}: ${num(r["overBudget"])}/${num(r["prompts"])} over budget, ${num(r["unitsSplit"])} units split, re-access ${pct(num(r["reaccessKept"]) / num(r["reaccesses"]), 0)}, grounding ${pct(num(r["grounded"]) / num(r["grounding"]), 0)}`;
  return frameworks.map(
    (f, i) =>
      `| ${f}, ${budget.toLocaleString("en-US")}-token budget | ${at
        .filter((r) => str(r["framework"]) === f)
        .map(describe)
        .join("; ")}${i === 0 ? ` — ${source("adapters", doc)}` : ""} |`,
  );
}

function searchRows(doc: ResultsDoc | undefined): string[] {
  if (doc === undefined) return [`| search | ${source("hierarchical", doc)} |`];
  const rows = arr(doc.data["search"]).map(obj);
  const sizes = [...new Set(rows.map((r) => num(r["n"])))].sort((a, b) => a - b);
  const n = sizes[sizes.length - 1]!;
  // Our indexes at every size from 1e5 up (else the largest), the peers at the largest size.
  const shown = sizes.filter((x) => x >= 100_000).length > 0 ? sizes.filter((x) => x >= 100_000) : [n];
  const atSize = (size: number): Json[] => rows.filter((r) => num(r["n"]) === size);
  const cell = (at: readonly Json[], c: string): string =>
    at
      .filter((r) => str(r["contender"]) === c)
      .map((r) => `${str(r["shape"])} ${fixed(num(r["medianMs"]), 2)}/${fixed(num(r["p95Ms"]), 1)}`)
      .join(", ");
  const agreement = (at: readonly Json[], c: string): string =>
    fixed(Math.min(...at.filter((r) => str(r["contender"]) === c).map((r) => num(r["top10Agreement"]))), 2);
  const contenders = (at: readonly Json[]): string[] => [...new Set(at.map((r) => str(r["contender"])))];
  const largest = atSize(n);
  const peers = contenders(largest).filter((c) => !c.startsWith("ours"));
  const writes = arr(doc.data["writes"])
    .map(obj)
    .filter((w) => str(w["contender"]) === "ours: sqlite");
  return [
    ...shown.map((size, i) => {
      const at = atSize(size);
      const ours = contenders(at).filter((c) => c.startsWith("ours"));
      return `| search at ${size.toLocaleString("en-US")} entries, median/p95 ms per query shape (top-10 agreement with exhaustive BM25) | ${ours.map((c) => `${c}: ${cell(at, c)} (${agreement(at, c)})`).join("; ")}${i === 0 ? ` — ${source("hierarchical", doc)}` : ""} |`;
    }),
    `| the peers at ${n.toLocaleString("en-US")} entries, same run | ${peers.map((c) => `${c}: ${cell(largest, c)} (${agreement(largest, c)})`).join("; ")} |`,
    `| SQLite index writes, batched (entries in the index) | ${writes.map((w) => `${num(w["n"]).toLocaleString("en-US")}: ${Math.round(num(w["entriesPerSec"])).toLocaleString("en-US")} entries/s (${Math.round(num(w["entriesPerCpuSec"])).toLocaleString("en-US")} per CPU-second)`).join("; ")} |`,
  ];
}

function identifierRows(doc: ResultsDoc | undefined): string[] {
  if (doc === undefined) return [`| identifier search after eviction | ${source("identifiers", doc)} |`];
  const all = arr(doc.data["rows"])
    .map(obj)
    .filter((r) => str(r["shape"]) === "all");
  const interval = (x: unknown): string => {
    const [lo, hi] = arr(x).map(num);
    return `[${pct(lo ?? Number.NaN, 0)}, ${pct(hi ?? Number.NaN, 0)}]`;
  };
  const cells = all.map((r) => `${str(r["contender"])}: ${pct(num(r["hit1"]), 0)} ${interval(r["hit1Interval"])}`);
  const queries = num(all[0]?.["queries"]);
  return [
    `| identifier search after eviction: hit@1 of \`module_N\`, \`src/module_N.py\`, \`SECRET_N\`, \`handler_N_7\` (${queries} queries, 95 % CI) | ${cells.join("; ")} — ${source("identifiers", doc)} |`,
  ];
}

function reopenRows(doc: ResultsDoc | undefined): string[] {
  if (doc === undefined) return [`| first search after reopening an index | ${source("reopen", doc)} |`];
  const rows = arr(doc.data["rows"]).map(obj);
  const seconds = (ms: number): string => (ms >= 1000 ? `${fixed(ms / 1000, 1)} s` : `${fixed(ms, 0)} ms`);
  const cells = rows.map(
    (r) =>
      `${num(r["n"]).toLocaleString("en-US")} entries: ${seconds(num(r["firstSearchMs"]))} (${fixed(num(r["timesFloor"]), 1)}× reading every stored terms column; the next search ${fixed(num(r["secondSearchMs"]), 1)} ms)`,
  );
  return [
    `| first search after reopening a SQLite index, fresh process (it rebuilds the postings cache) | ${cells.join("; ")} — ${source("reopen", doc)} |`,
  ];
}

function namespacesRows(doc: ResultsDoc | undefined): string[] {
  if (doc === undefined) return [`| first search in one namespace of a shared index | ${source("namespaces", doc)} |`];
  const rows = arr(doc.data["rows"]).map(obj);
  const mib = (b: number): string => fixed(b / 2 ** 20, 1);
  const seconds = (ms: number): string => (ms >= 1000 ? `${fixed(ms / 1000, 1)} s` : `${fixed(ms, 0)} ms`);
  const backendName = (b: string): string => (b === "postgres" ? "PostgreSQL" : b === "sqlite" ? "SQLite" : b);
  const cell = (r: Json): string => {
    const first = obj(r["namespaceFirst"]);
    const rss = obj(r["rssGrowth"]);
    // Rows written before the interval and memory figures carry only the medians.
    const interval = Number.isFinite(num(first["lo"]))
      ? ` [${fixed(num(first["lo"]), 0)}, ${fixed(num(first["hi"]), 0)}]`
      : "";
    const memory = Number.isFinite(num(r["rssGrowthBytes"]))
      ? `, RSS growth ${mib(num(r["rssGrowthBytes"]))} MiB [${mib(num(rss["lo"]))}, ${mib(num(rss["hi"]))}] = ${fixed(num(r["rssRatio"]), 1)}× the ${mib(num(r["cacheBytes"]))} MiB its postings need by the cache's estimate (${fixed(num(r["retainedRatio"]), 1)}× retained after a collection)`
      : "";
    const cpu = Number.isFinite(num(r["namespaceFirstCpuMs"]))
      ? ` (${fixed(num(r["namespaceFirstCpuMs"]), 0)} ms of CPU)`
      : "";
    const snap = obj(r["snapshotFirst"]);
    const snapRss = obj(r["snapshotRssGrowth"]);
    // Rows written before the snapshot and next-namespace views carry neither.
    const withSnapshot = Number.isFinite(num(r["snapshotFirstMs"]))
      ? `; with the namespace's snapshot on the host ${fixed(num(r["snapshotFirstMs"]), 0)} ms [${fixed(num(snap["lo"]), 0)}, ${fixed(num(snap["hi"]), 0)}], RSS growth ${mib(num(snapRss["median"]))} MiB = ${fixed(num(r["snapshotRssRatio"]), 1)}× its ${mib(num(r["snapshotCacheBytes"]))} MiB`
      : "";
    const dbSnap = obj(r["dbSnapshotFirst"]);
    const dbSnapRss = obj(r["dbSnapshotRssGrowth"]);
    // Rows written before the database store and the small-young-generation view carry neither.
    const fromDatabase = Number.isFinite(num(r["dbSnapshotFirstMs"]))
      ? `; on a host with no snapshot, from the snapshot kept in the database ${fixed(num(r["dbSnapshotFirstMs"]), 0)} ms [${fixed(num(dbSnap["lo"]), 0)}, ${fixed(num(dbSnap["hi"]), 0)}], RSS growth ${mib(num(dbSnapRss["median"]))} MiB [${mib(num(dbSnapRss["lo"]))}, ${mib(num(dbSnapRss["hi"]))}] = ${fixed(num(r["dbSnapshotRssRatio"]), 1)}× its ${mib(num(r["dbSnapshotCacheBytes"]))} MiB`
      : "";
    const young = obj(r["smallYoungFirst"]);
    const youngRss = obj(r["smallYoungRssGrowth"]);
    const smallYoung = Number.isFinite(num(r["smallYoungRssRatio"]))
      ? `; from rows in a node run with \`--max-semi-space-size=1\` ${fixed(num(young["median"]), 0)} ms, RSS growth ${mib(num(youngRss["median"]))} MiB = ${fixed(num(r["smallYoungRssRatio"]), 1)}× its ${mib(num(r["smallYoungCacheBytes"]))} MiB`
      : "";
    const next = obj(r["nextFirst"]);
    const nextRss = obj(r["nextRssGrowth"]);
    const warm = Number.isFinite(num(r["nextRssRatio"]))
      ? `; a warm worker's next namespace ${fixed(num(next["median"]), 0)} ms, RSS growth ${mib(num(nextRss["median"]))} MiB = ${fixed(num(r["nextRssRatio"]), 1)}× its ${mib(num(r["nextCacheBytes"]))} MiB`
      : "";
    return `${backendName(str(r["backend"]) || "sqlite")}: ${fixed(num(r["namespaceFirstMs"]), 0)} ms${interval}${cpu}${memory}${withSnapshot}${fromDatabase}${smallYoung}${warm}; whole-index first search ${seconds(num(r["wholeFirstMs"]))}`;
  };
  const sizes = [...new Set(rows.map((r) => num(r["n"])))];
  return sizes.map((n, i) => {
    const at = rows.filter((r) => num(r["n"]) === n);
    const rounds = num(at[0]?.["rounds"] ?? doc.data["rounds"]);
    return `| first search in one namespace of ${num(doc.data["perNamespace"]).toLocaleString("en-US")} entries of a shared ${n.toLocaleString("en-US")}-entry index (${num(at[0]?.["namespaces"]).toLocaleString("en-US")} namespaces), fresh process from rows, median of ${rounds} processes [95% interval] (goal ≤ 100 ms, RSS growth ≤ 2×) | ${at.map(cell).join("; ")}${i === 0 ? ` — ${source("namespaces", doc)}${loadNote(doc)}` : ""} |`;
  });
}

function fleetRows(doc: ResultsDoc | undefined): string[] {
  if (doc === undefined) return [`| fleet of worker processes on one PostgreSQL index | ${source("fleet", doc)} |`];
  const d = doc.data;
  const workers = arr(d["perWorker"]).map(obj);
  const rates = workers.map((w) => num(w["entriesPerSec"]));
  return [
    `| fleet: ${num(d["workers"])} worker processes, ${num(d["namespaces"])} namespaces on one PostgreSQL table, ${fixed(num(d["durationMs"]) / 1000, 0)} s with ${num(d["kills"])} SIGKILLs of workers and a server crash/restart (${fixed(num(d["serverDownMs"]) / 1000, 1)} s down) | ${num(d["acknowledged"]).toLocaleString("en-US")} entries acknowledged, ${num(d["lost"])} lost, ${num(d["crossHitsDuringRun"]) + num(d["crossHitsAtEnd"])} cross-namespace hits in ${(num(d["searches"]) + num(d["verifySearches"])).toLocaleString("en-US")} searches; ${fixed(Math.min(...rates), 0)}–${fixed(Math.max(...rates), 0)} entries/s per worker; search p50 ${fixed(num(d["searchP50Ms"]), 1)} ms, p99 ${fixed(num(d["searchP99Ms"]), 0)} ms; a fresh worker's first search p50 ${fixed(num(d["firstSearchP50Ms"]), 0)} ms; first search after the restart p50 ${fixed(num(d["afterRestartSearchP50Ms"]), 0)} ms — ${source("fleet", doc)} |`,
  ];
}

function snapshotRows(doc: ResultsDoc | undefined): string[] {
  if (doc === undefined) return [`| whole-index cold start with a postings snapshot | ${source("snapshot", doc)} |`];
  const rows = arr(doc.data["rows"]).map(obj);
  const ms = (x: number): string => (x >= 1000 ? `${fixed(x / 1000, 1)} s` : `${fixed(x, 0)} ms`);
  const cells = rows.map((r) =>
    // Rows written before the cold-start ratio and the pairing carry the first search's ratio only.
    Number.isFinite(num(r["timesReadFile"]))
      ? `${str(r["backend"])} ${num(r["n"]).toLocaleString("en-US")} entries: ${ms(num(r["withSnapshotMs"]))} (${fixed(num(r["timesReadFile"]), 2)}× reading the ${fixed(num(r["snapshotBytes"]) / 1e6, 0)} MB file${
          Number.isFinite(num(r["pairedTimesReadFile"]))
            ? `; per round ${fixed(num(r["pairedTimesReadFile"]), 2)}× [${fixed(num(r["pairedMin"]), 2)}, ${fixed(num(r["pairedMax"]), 2)}] over ${num(r["rounds"])} rounds`
            : ""
        }; first search ${ms(num(r["withSnapshotFirstSearchMs"]))})${
          // Rows written before the preloaded view carry none.
          Number.isFinite(num(r["preloadMs"]))
            ? `; with the snapshot preloaded (read while the driver loads and connects) ${ms(num(r["preloadMs"]))} (${fixed(num(r["preloadTimesReadFile"]), 2)}× reading the file; per round ${fixed(num(r["preloadPairedTimesReadFile"]), 2)}× [${fixed(num(r["preloadPairedMin"]), 2)}, ${fixed(num(r["preloadPairedMax"]), 2)}])`
            : ""
        } against ${ms(num(r["withoutSnapshotMs"]))} without`
      : `${str(r["backend"])} ${num(r["n"]).toLocaleString("en-US")} entries: ${ms(num(r["withSnapshotMs"]))} (first search ${ms(num(r["withSnapshotFirstSearchMs"]))}; ${fixed(num(r["firstSearchTimesReadFile"]), 1)}× reading the ${fixed(num(r["snapshotBytes"]) / 1e6, 0)} MB file) against ${ms(num(r["withoutSnapshotMs"]))} without`,
  );
  const skipped = arr(doc.data["skipped"]).map(str);
  return [
    `| whole-index cold start (open + first search) in a fresh process, with a postings snapshot (goal ≤ 1 s at 1e6, ≤ 1.5× reading the file) | ${cells.join("; ")}${skipped.length > 0 ? `; skipped: ${skipped.join("; ")}` : ""} — ${source("snapshot", doc)}${loadNote(doc)} |`,
  ];
}

/** The generated block (without the markers). */
export function renderResults(root: string = ROOT): string {
  const lines = [
    "| what | figure |",
    "|---|---|",
    ...tokensRows(readResults("tokens", root)),
    ...searchRows(readResults("hierarchical", root)),
    ...identifierRows(readResults("identifiers", root)),
    ...reopenRows(readResults("reopen", root)),
    ...namespacesRows(readResults("namespaces", root)),
    ...fleetRows(readResults("fleet", root)),
    ...snapshotRows(readResults("snapshot", root)),
    ...retentionRows(readResults("retention", root)),
    ...costRows(readResults("cost", root)),
    ...adapterRows(readResults("adapters", root)),
  ];
  return lines.join("\n");
}

/** README text with the block between the markers replaced; the text unchanged when a marker is missing. */
export function withResults(readme: string, block: string): string {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) return readme;
  return `${readme.slice(0, a + START.length)}\n${block}\n${readme.slice(b)}`;
}

if (process.argv.includes("--write")) {
  const path = join(ROOT, "README.md");
  const before = readFileSync(path, "utf8");
  const after = withResults(before, renderResults());
  if (after === before && !before.includes(START)) {
    console.error(`README.md has no ${START} marker`);
    process.exit(1);
  }
  writeFileSync(path, after);
  console.log(after === before ? "README.md results block already up to date" : "README.md results block rewritten");
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(renderResults());
}
