/**
 * One fresh process of the snapshot benchmark. Prints one JSON line:
 * - `read FILE`: the time to read the file into memory with `fs.readFile` (the baseline);
 * - `sqlite PATH DIR with|preload|without` / `postgres URL TABLE DIR with|preload|without`: the
 *   cold start of the whole index — opening it and its first search across every namespace — with
 *   the snapshots in DIR (`preload`: the same, the whole-index snapshot named in
 *   `snapshots.preload`, so it is read while the driver loads and connects) or without snapshots,
 *   and what the load did (entries read from rows, scopes restored).
 */
import { readFile } from "node:fs/promises";
import { openPostgresIndex, openSqliteIndex, type SegmentIndex } from "@cc/search";
import { postingsCacheStats } from "@cc/test-support/search";

const args = process.argv.slice(2);
const mode = args[0];
if (mode === "read") {
  const t0 = performance.now();
  const bytes = await readFile(args[1]!);
  console.log(JSON.stringify({ mode, ms: performance.now() - t0, bytes: bytes.length }));
} else if (mode === "sqlite" || mode === "postgres") {
  const [target, third, fourth, fifth] = args.slice(1);
  const dir = mode === "sqlite" ? third! : fourth!;
  const how = mode === "sqlite" ? fourth : fifth;
  const snapshots =
    how === "with"
      ? { snapshots: { dir } }
      : how === "preload"
        ? { snapshots: { dir, preload: { allNamespaces: true } } }
        : {};
  const t0 = performance.now();
  const opened =
    mode === "sqlite"
      ? await openSqliteIndex({ path: target!, ...snapshots })()
      : await openPostgresIndex({ connection: target!, table: third!, ...snapshots })();
  if (opened._tag === "Left") {
    console.error(JSON.stringify(opened.left));
    process.exit(1);
  }
  const index: SegmentIndex = opened.right;
  const t1 = performance.now();
  const first = await index.search("kalo mi file12.py", { k: 10 })();
  const t2 = performance.now();
  const second = await index.search("vi za src", { k: 10 })();
  const t3 = performance.now();
  const stats = postingsCacheStats(index);
  await index.close()();
  if (first._tag === "Left" || second._tag === "Left") process.exit(1);
  console.log(
    JSON.stringify({
      mode,
      openMs: t1 - t0,
      firstMs: t2 - t1,
      coldMs: t2 - t0,
      secondMs: t3 - t2,
      hits: first.right.map((h) => `${h.namespace}/${h.id}`).join(","),
      loaded: stats?.loadedEntries ?? -1,
      restored: stats?.snapshots?.restored ?? 0,
    }),
  );
} else {
  console.error(
    "usage: probe.ts read FILE | sqlite PATH DIR with|preload|without | postgres URL TABLE DIR with|preload|without",
  );
  process.exit(2);
}
