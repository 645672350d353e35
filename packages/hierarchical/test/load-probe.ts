/**
 * Run in a fresh Node process: imports the package named on the command line (default
 * `@cc/hierarchical`; a path to a built `dist/index.js` works too), compacts into a memory index
 * and with a plain-function writer, searches, then opens a SQLite and a PostgreSQL index, and
 * prints as JSON which driver files Node's module cache held after each step and what each open
 * returned. With `--hide-drivers`, a resolve hook makes better-sqlite3 and pg unresolvable first,
 * as on a machine where they are not installed.
 *
 *   node --import tsx --conditions=development load-probe.ts [specifier] [--hide-drivers]
 */
import { createRequire } from "node:module";
import { hideDrivers } from "../../../.ci/support/hide-drivers.js";
import type * as Hierarchical from "@cc/hierarchical";
import type { Either } from "fp-ts/lib/Either.js";

const args = process.argv.slice(2);
const hide = args.includes("--hide-drivers");
const specifier = args.find((a) => !a.startsWith("--")) ?? "@cc/hierarchical";

if (hide) hideDrivers();

const watched = { sqlite: "/node_modules/better-sqlite3/", pg: "/node_modules/pg/" } as const;
type Watched = keyof typeof watched;
const cache = createRequire(import.meta.url).cache;
const loaded = (): readonly Watched[] => {
  const files = Object.keys(cache).map((file) => file.replaceAll("\\", "/"));
  return (Object.keys(watched) as Watched[]).filter((name) => files.some((file) => file.includes(watched[name])));
};

type Outcome =
  { readonly tag: "Right"; readonly hits: number } | { readonly tag: "Left"; readonly error: Hierarchical.IndexError };
const outcome = async (opened: Either<Hierarchical.IndexError, Hierarchical.SegmentIndex>): Promise<Outcome> => {
  if (opened._tag === "Left") return { tag: "Left", error: opened.left };
  await opened.right.write([h.entry({ id: "probe", summary: "probe entry" })])();
  const hits = await opened.right.search("probe")();
  await opened.right.close()();
  return { tag: "Right", hits: hits._tag === "Right" ? hits.right.length : -1 };
};

const steps: Record<string, readonly Watched[]> = { before: loaded() };
const h = (await import(specifier)) as typeof Hierarchical;
steps["afterImport"] = loaded();

const now = 1_735_689_600_000;
const segments = Array.from({ length: 8 }, (_, i) => ({
  id: `s${i}`,
  kind: "tool_result",
  tokenCost: 500,
  createdAt: now - (8 - i) * 60_000,
  content: `step ${i}: parsed the CSV reader output, row ${i} has a missing header`,
}));
const index = h.memoryIndex();
const intoIndex = await h.hierarchicalCompact(segments, {
  target: { maxTokens: 1000 },
  scoring: { now: () => now },
  summarize: h.extractiveSummarizer(),
  writer: h.indexWriter(index),
})();
const hits = await index.search("header", { k: 20 })();
const own: string[] = [];
const intoOwn = await h.hierarchicalCompact(segments, {
  target: { maxTokens: 1000 },
  scoring: { now: () => now },
  summarize: h.extractiveSummarizer(),
  writer: h.summaryWriterFunc((segment) => {
    own.push(segment.id);
  }),
})();
steps["afterMemory"] = loaded();

const sqlite = await outcome(await h.openSqliteIndex({ path: ":memory:" })());
steps["afterSqlite"] = loaded();

// Nothing listens on port 1: with pg present the open fails to connect, without it pg is missing.
const postgres = await outcome(await h.openPostgresIndex({ connection: "postgres://nobody@127.0.0.1:1/none" })());
steps["afterPostgres"] = loaded();

process.stdout.write(
  `${JSON.stringify({
    steps,
    writtenToIndex: intoIndex._tag === "Right" ? intoIndex.right.written.length : -1,
    memoryHits: hits._tag === "Right" ? hits.right.length : -1,
    writtenToOwn: intoOwn._tag === "Right" ? intoOwn.right.written.length : -1,
    ownWriterSaw: own.length,
    sqlite,
    postgres,
  })}\n`,
);
