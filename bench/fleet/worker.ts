/**
 * One worker process of the fleet (see `bench/fleet/fleet.ts`): opens the shared PostgreSQL index
 * and, until the harness's stop file exists, writes a batch of entries into one of its own namespaces, then
 * searches that namespace, over and over. An entry is acknowledged — one line appended to the
 * worker's acknowledgement file and fsynced — only after `write` returned Right, so a SIGKILL at
 * any point leaves every acknowledged entry on disk and nothing acknowledged that was not written.
 * Every entry carries a term no other entry has and the term `fleet`, which every entry of every
 * namespace shares: a search for it that returns another namespace's entry is a cross-namespace
 * hit. Events (writes, searches, typed errors) go to the events file, one JSON line each.
 *
 * @example node --import tsx --conditions=development bench/fleet/worker.ts '{"url":"postgres://…",…}'
 */
import { closeSync, existsSync, fsyncSync, openSync, writeSync } from "node:fs";
import type { IndexEntry, SegmentIndex } from "@cc/search";
import { entry, openPostgresIndex } from "@cc/search";
import { decodeWorkerArgs, entryTerm, type FleetEvent, type WorkerArgs } from "./protocol.js";
import { mulberry32 } from "../search/corpus.js";

const decoded = decodeWorkerArgs(process.argv[2] ?? "");
if (typeof decoded === "string") {
  console.error(`fleet worker: ${decoded}`);
  process.exit(2);
}
const args: WorkerArgs = decoded;
const ack = openSync(args.ackFile, "a");
const events = openSync(args.eventsFile, "a");
const started = Date.now();
const emit = (e: DistributiveOmit<FleetEvent, "inc">): void => {
  writeSync(events, `${JSON.stringify({ ...e, inc: args.incarnation })}\n`);
};
/** The message of a typed error, when it has one (cut to 160 characters). */
const messageOf = (e: object): string =>
  "message" in e && typeof e.message === "string" ? e.message.slice(0, 160) : "";
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const random = mulberry32(args.worker * 7919 + args.incarnation * 104_729 + 1);
const filler = [
  "parse",
  "stack",
  "trace",
  "error",
  "module",
  "config",
  "retry",
  "socket",
  "buffer",
  "commit",
  "branch",
  "pytest",
];
const words = (n: number): string => Array.from({ length: n }, () => filler[random() % filler.length]!).join(" ");

/** Opens the index, retrying while the server is unreachable (a restart can be under way). */
async function open(): Promise<SegmentIndex> {
  for (;;) {
    const opened = await openPostgresIndex({
      connection: args.url,
      table: args.table,
      connectTimeoutMs: 2000,
      statementTimeoutMs: 10_000,
    })();
    if (opened._tag === "Right") return opened.right;
    emit({ t: "error", at: Date.now(), op: "open", tag: opened.left._tag, message: messageOf(opened.left) });
    if (existsSync(args.stopFile)) process.exit(0);
    await sleep(100);
  }
}

const index = await open();
let batchNo = 0;
let searches = 0;
let failing = false;
let lastAcked: { readonly namespace: string; readonly term: string } | undefined;
while (!existsSync(args.stopFile)) {
  const namespace = args.namespaces[batchNo % args.namespaces.length]!;
  const batch: IndexEntry[] = Array.from({ length: args.batch }, (_, j) => {
    const term = entryTerm(args.worker, args.incarnation, batchNo, j);
    return entry({
      id: `${term}`,
      namespace,
      kind: "tool_result",
      summary: `fleet entry ${term}`,
      content: `fleet ${words(20)} ${term}`,
      tokenCost: 40,
      createdAt: started,
      evictedAt: Date.now(),
    });
  });
  batchNo++;
  const w0 = performance.now();
  const written = await index.write(batch)();
  const writeMs = performance.now() - w0;
  if (written._tag === "Left") {
    emit({ t: "error", at: Date.now(), op: "write", tag: written.left._tag, message: messageOf(written.left) });
    failing = true;
    await sleep(50);
    continue;
  }
  // Acknowledged only now, and on disk before anything else happens.
  writeSync(ack, batch.map((e) => `${e.namespace}\t${e.id}\t${e.id}\n`).join(""));
  fsyncSync(ack);
  lastAcked = { namespace, term: batch[batch.length - 1]!.id };
  emit({ t: "write", at: Date.now(), ms: writeMs, entries: batch.length });
  const query = `fleet ${lastAcked.term}`;
  const s0 = performance.now();
  const found = await index.search(query, { k: 20, namespace })();
  const searchMs = performance.now() - s0;
  if (found._tag === "Left") {
    emit({ t: "error", at: Date.now(), op: "search", tag: found.left._tag, message: messageOf(found.left) });
    failing = true;
    await sleep(50);
    continue;
  }
  emit({
    t: "search",
    at: Date.now(),
    ms: searchMs,
    hits: found.right.length,
    cross: found.right.filter((h) => h.namespace !== namespace).length,
    ownFound: found.right.some((h) => h.id === lastAcked?.term),
    first: searches === 0,
    afterOutage: failing,
  });
  searches++;
  failing = false;
  await sleep(args.pauseMs);
}
await index.close()();
closeSync(ack);
closeSync(events);
