/**
 * The first search in one small namespace of a larger SQLite index, in a fresh process: it loads
 * that namespace's postings only. Baseline, measured in the same run and the same kind of
 * process: the first search across every namespace (which loads the whole index). Rounds
 * alternate the two; medians; the ratio is namespace first search / whole-index first search.
 *
 * `node --import tsx --conditions=development bench/namespaces.bench.ts` — 1e5 entries in
 * namespaces of 1,000 (CC_BENCH_SIZES overrides the total, e.g. "1000000"); quick mode
 * (CC_BENCH_QUICK=1): 1e4. Writes bench/results/namespaces.json.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openSqliteIndex } from "@cc/search";
import { printTable, quick, writeResults } from "./harness.js";
import { makeEntries } from "./search/corpus.js";

const sizes = process.env["CC_BENCH_SIZES"] ? process.env["CC_BENCH_SIZES"].split(",").map(Number) : quick ? [10_000] : [100_000];
const perNamespace = 1000;
const rounds = quick ? 2 : 5;
const probe = join(dirname(fileURLToPath(import.meta.url)), "reopen", "probe.ts");

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Runs the probe in a fresh node process and parses its JSON line. */
function run(args: readonly string[]): Record<string, number> {
  const out = execFileSync(process.execPath, ["--import", "tsx", "--conditions=development", probe, ...args], { encoding: "utf8", maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number>;
}

interface Row {
  readonly n: number;
  readonly namespaces: number;
  readonly namespaceFirstMs: number;
  readonly namespaceSecondMs: number;
  readonly namespaceLoaded: number;
  readonly wholeFirstMs: number;
  readonly wholeLoaded: number;
  readonly ratio: number;
}
const rows: Row[] = [];
const dir = mkdtempSync(join(tmpdir(), "cc-namespaces-"));
try {
  for (const n of sizes) {
    const path = join(dir, `index-${n}.db`);
    const opened = await openSqliteIndex({ path })();
    if (opened._tag === "Left") throw new Error(JSON.stringify(opened.left));
    const namespaces = Math.max(1, Math.floor(n / perNamespace));
    for (let i = 0; i < n; i += 100_000) {
      const batch = makeEntries(Math.min(100_000, n - i)).map((e, j) => ({ ...e, id: `s${i + j}`, namespace: `t${(i + j) % namespaces}` }));
      for (let k = 0; k < batch.length; k += 1000) {
        const w = await opened.right.write(batch.slice(k, k + 1000))();
        if (w._tag === "Left") throw new Error(JSON.stringify(w.left));
      }
    }
    await opened.right.close()();
    const nsFirst: number[] = [];
    const nsSecond: number[] = [];
    const whole: number[] = [];
    let nsLoaded = 0;
    let wholeLoaded = 0;
    for (let r = 0; r < rounds; r++) {
      const w = run([path, "search"]);
      whole.push(w["firstMs"]!);
      wholeLoaded = w["loaded"]!;
      const s = run([path, "namespace", `t${(r * 7) % namespaces}`]);
      nsFirst.push(s["firstMs"]!);
      nsSecond.push(s["secondMs"]!);
      nsLoaded = s["loaded"]!;
    }
    const row = { n, namespaces, namespaceFirstMs: median(nsFirst), namespaceSecondMs: median(nsSecond), namespaceLoaded: nsLoaded, wholeFirstMs: median(whole), wholeLoaded, ratio: median(nsFirst) / median(whole) };
    rows.push(row);
    console.log(`n=${n}: first search in a namespace of ${perNamespace} ${row.namespaceFirstMs.toFixed(1)} ms, across every namespace ${row.wholeFirstMs.toFixed(0)} ms`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `First search in one namespace of ${perNamespace} entries vs across every namespace, SQLite, fresh process (${quick ? "quick" : "full"}; median of ${rounds} rounds)`,
  ["entries", "namespaces", "namespace first ms", "namespace second ms", "entries loaded", "whole-index first ms", "entries loaded", "ratio"],
  rows.map((r) => [r.n, r.namespaces, r.namespaceFirstMs, r.namespaceSecondMs, r.namespaceLoaded, r.wholeFirstMs, r.wholeLoaded, r.ratio]),
);
console.log(`results: ${writeResults("namespaces", { rounds, perNamespace, rows })}`);
