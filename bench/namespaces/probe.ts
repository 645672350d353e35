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
 *
 * @example node --import tsx --conditions=development bench/namespaces/probe.ts postgres postgres://… cc_ns namespace t7
 */
import type { IndexError, SegmentIndex } from "@cc/search";
import { openPostgresIndex, openSqliteIndex } from "@cc/search";
import { postingsCacheStats } from "@cc/search/internal";
import type * as E from "fp-ts/lib/Either.js";

const args = process.argv.slice(2);
const backend = args[0];
const rest = backend === "postgres" ? args.slice(3) : args.slice(2);
const [mode, ns] = rest;
if ((backend !== "sqlite" && backend !== "postgres") || (mode !== "whole" && mode !== "namespace") || (mode === "namespace" && ns === undefined)) {
  console.error("usage: probe.ts sqlite PATH | postgres URL TABLE, then whole | namespace NS");
  process.exit(2);
}
const opened: E.Either<IndexError, SegmentIndex> =
  backend === "sqlite" ? await openSqliteIndex({ path: args[1]! })() : await openPostgresIndex({ connection: args[1]!, table: args[2]! })();
if (opened._tag === "Left") {
  console.error(JSON.stringify(opened.left));
  process.exit(1);
}
const index = opened.right;
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
  }),
);
