/**
 * One fresh process of the reopen benchmark: opens the SQLite index at `argv[2]` and prints one
 * JSON line — `search`: the first search (which loads the postings cache) and a second one, in ms;
 * `floor`: the time to read every row's stored terms with better-sqlite3 (what any load must read);
 * `namespace NS`: the first search in namespace NS (which loads that namespace's postings only)
 * and a second one, with the entries the load read.
 */
import { postingsCacheStats } from "@cc/test-support/search";
import { openSqliteIndex } from "@cc/search";

/** The part of better-sqlite3 the floor reads with (bench has no @types/better-sqlite3). */
interface Db {
  prepare(sql: string): { iterate(): Iterable<unknown> };
  close(): void;
}
const DRIVER = "better-sqlite3";

const [path, mode, ns] = process.argv.slice(2);
if (
  path === undefined ||
  (mode !== "search" && mode !== "floor" && mode !== "namespace") ||
  (mode === "namespace" && ns === undefined)
) {
  console.error("usage: probe.ts INDEX.db search|floor|namespace NS");
  process.exit(2);
}
if (mode === "floor") {
  const mod = (await import(DRIVER)) as { default: new (path: string, options: { readonly: boolean }) => Db };
  const db = new mod.default(path, { readonly: true });
  const t0 = performance.now();
  let chars = 0;
  for (const row of db.prepare("SELECT rid, namespace, id, kind, terms FROM cc_segments ORDER BY rid").iterate())
    chars += (row as { terms: string }).terms.length;
  console.log(JSON.stringify({ mode, ms: performance.now() - t0, chars }));
  db.close();
} else {
  const opened = await openSqliteIndex({ path })();
  if (opened._tag === "Left") {
    console.error(JSON.stringify(opened.left));
    process.exit(1);
  }
  const index = opened.right;
  const t0 = performance.now();
  const scope = mode === "namespace" && ns !== undefined ? { namespace: ns } : {};
  const first = await index.search("kalo mi file12.py", { k: 10, ...scope })();
  const t1 = performance.now();
  const second = await index.search("vi za src", { k: 10, ...scope })();
  const t2 = performance.now();
  const loaded = postingsCacheStats(index)?.loadedEntries ?? -1;
  await index.close()();
  if (first._tag === "Left" || second._tag === "Left") process.exit(1);
  console.log(JSON.stringify({ mode, firstMs: t1 - t0, secondMs: t2 - t1, hits: first.right.length, loaded }));
}
