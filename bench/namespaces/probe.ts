/**
 * One fresh process of the namespaces benchmark: opens an index (`sqlite PATH` or
 * `postgres URL TABLE`), then runs the first search in one namespace (`namespace NS`) or across
 * every namespace (`whole`) and a second one, and prints one JSON line: the two times in ms, the
 * entries the load read, the postings cache's own byte estimate, and the process's memory just
 * before the first search and just after it, and the CPU time (user + system) of this process in
 * each search (what it spent itself, whatever else runs on the machine) (RSS, V8 heap used, external and array buffers).
 * Run with `--expose-gc`, it collects garbage before the first measurement (a clean baseline) and,
 * after the second one, again to read what the search retained (`retained*`: heap used plus
 * external memory, after a collection, minus the same before).
 * With `snapshots=DIR` the index is opened with snapshots in DIR (a worker whose host already
 * holds the namespace's snapshot), with `snapshots=database` with the snapshots kept in the
 * index's own database (a worker on a host that holds none restores from there); with `next=NS`, a first search in another namespace follows in
 * the same, now warm, process (`next*`: its time, the cache bytes it added, RSS growth and what
 * it retained). Mode `prepare NS,NS…` loads each namespace with snapshots on and closes, so their
 * snapshots are written.
 *
 * @example node --import tsx --conditions=development bench/namespaces/probe.ts postgres postgres://… cc_ns namespace t7
 */
import type { IndexError, SegmentIndex } from "@cc/search";
import { openPostgresIndex, openSqliteIndex } from "@cc/search";
import { postingsCacheStats } from "@cc/test-support/search";
import type * as E from "fp-ts/lib/Either.js";

// Options after the positional arguments: `snapshots=DIR` opens the index with snapshots in DIR;
// `next=NS` runs, after the two searches, a first search in another namespace NS (what a warm
// worker's next namespace costs); `prepare` (mode) loads each namespace of NS (comma-separated)
// with snapshots on and closes, so their snapshots are written.
const all = process.argv.slice(2);
const flags = new Map(
  all
    .filter((a) => /^(snapshots|next)=/.test(a))
    .map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] as const),
);
const args = all.filter((a) => !/^(snapshots|next)=/.test(a));
const backend = args[0];
const rest = backend === "postgres" ? args.slice(3) : args.slice(2);
const [mode, ns] = rest;
if (
  (backend !== "sqlite" && backend !== "postgres") ||
  (mode !== "whole" && mode !== "namespace" && mode !== "prepare") ||
  (mode !== "whole" && ns === undefined)
) {
  console.error(
    "usage: probe.ts sqlite PATH | postgres URL TABLE, then whole | namespace NS | prepare NS,NS…, then [snapshots=DIR] [next=NS]",
  );
  process.exit(2);
}
const dir = flags.get("snapshots");
// `snapshots=database`: the snapshots kept in the index's own database (what a worker on any host restores from).
const snapshots =
  dir === undefined ? {} : { snapshots: dir === "database" ? ({ store: "database" } as const) : { dir } };
const opened: E.Either<IndexError, SegmentIndex> =
  backend === "sqlite"
    ? await openSqliteIndex({ path: args[1]!, ...snapshots })()
    : await openPostgresIndex({ connection: args[1]!, table: args[2]!, ...snapshots })();
if (opened._tag === "Left") {
  console.error(JSON.stringify(opened.left));
  process.exit(1);
}
const index = opened.right;
if (mode === "prepare") {
  for (const name of ns!.split(",")) {
    const r = await index.search("kalo mi file12.py", { k: 10, namespace: name })();
    if (r._tag === "Left") {
      console.error(JSON.stringify(r.left));
      process.exit(1);
    }
  }
  await index.close()();
  console.log(JSON.stringify({ mode, written: postingsCacheStats(index)?.snapshots?.written ?? 0 }));
  process.exit(0);
}
const scope = mode === "namespace" && ns !== undefined ? { namespace: ns } : {};
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const before = process.memoryUsage();
const c0 = process.cpuUsage();
const t0 = performance.now();
const first = await index.search("kalo mi file12.py", { k: 10, ...scope })();
const t1 = performance.now();
const c1 = process.cpuUsage(c0);
const after = process.memoryUsage();
gc?.();
const retained = process.memoryUsage();
const c1b = process.cpuUsage();
const second = await index.search("vi za src", { k: 10, ...scope })();
const t2 = performance.now();
const c2 = process.cpuUsage();
const stats = postingsCacheStats(index);
// The next namespace: its first search in this (now warm) process, and what it added.
const nextNs = flags.get("next");
let next: Record<string, number> = {};
if (nextNs !== undefined) {
  gc?.();
  const b = process.memoryUsage();
  const t3 = performance.now();
  const r = await index.search("kalo mi file12.py", { k: 10, namespace: nextNs })();
  const t4 = performance.now();
  const a = process.memoryUsage();
  gc?.();
  const k = process.memoryUsage();
  if (r._tag === "Left") {
    console.error(JSON.stringify(r.left));
    process.exit(1);
  }
  const nextBytes = (postingsCacheStats(index)?.bytes ?? Number.NaN) - (stats?.bytes ?? Number.NaN);
  next = {
    nextMs: t4 - t3,
    nextCacheBytes: nextBytes,
    nextRss: a.rss - b.rss,
    nextRetained: k.heapUsed + k.external - b.heapUsed - b.external,
  };
}
const restoredScopes = stats?.snapshots?.restored ?? 0;
await index.close()();
if (first._tag === "Left" || second._tag === "Left") {
  console.error(JSON.stringify(first._tag === "Left" ? first.left : second));
  process.exit(1);
}
console.log(
  JSON.stringify({
    mode,
    firstMs: t1 - t0,
    secondMs: t2 - t1,
    firstCpuMs: (c1.user + c1.system) / 1000,
    secondCpuMs: (c2.user + c2.system - c1b.user - c1b.system) / 1000,
    hits: first.right.length,
    loaded: stats?.loadedEntries ?? -1,
    cacheBytes: stats?.bytes ?? -1,
    rssBefore: before.rss,
    rssAfter: after.rss,
    heapBefore: before.heapUsed,
    heapAfter: after.heapUsed,
    externalBefore: before.external,
    externalAfter: after.external,
    arrayBuffersBefore: before.arrayBuffers,
    arrayBuffersAfter: after.arrayBuffers,
    retainedBefore: before.heapUsed + before.external,
    retainedAfter: gc === undefined ? Number.NaN : retained.heapUsed + retained.external,
    restored: restoredScopes,
    ...next,
  }),
);
