/**
 * @cc/session stores and tool-result pruning.
 *
 * Stores: single-message appends (one turn at a time), batched appends (20 messages), the
 * prompt-building reads `messagesAfter` (the tail past a watermark, and a whole stack) and
 * `latestSummary`, on each backend (memory, SQLite file, PostgreSQL). The in-memory store,
 * measured in the same run, is the baseline: "vs memory" is the backend's throughput divided by
 * the memory store's (below 1 = slower).
 *
 * Pruning: `pruneToolResults` on 2,000 tool results of 5 KB (bash / read_file / grep calls),
 * against a baseline that scans each over-long result's text once (counting its lines) and
 * copies the message: the least a pass that describes results by their size must do.
 *
 * PostgreSQL: CC_PG_URL (an admin URL; the benchmark creates a database there and drops it), or
 * else a throwaway cluster started with .ci/postgres.sh and always stopped (also on Ctrl-C).
 * When neither works its rows say "unavailable" and why.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStore, openPostgresStore, openSqliteStore, pruneToolResults, type SummaryStore } from "@cc/session";
import { type Message } from "@cc/messages";
import pg from "pg";
import { measure, measureAsync, printTable, quick, writeResults, type Timing } from "./harness.js";
import { cleanupOnSignal, pgServer } from "./postgres.js";

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(7);
const words = [
  "parser",
  "fix",
  "test",
  "src/app.ts",
  "npm",
  "error",
  "expected",
  "got",
  "function",
  "return",
  "中文",
  "🙂",
  "null",
  "await",
];
const text = (chars: number): string => {
  let s = "";
  while (s.length < chars) s += `${words[Math.floor(random() * words.length)]!} `;
  return s.slice(0, chars);
};

/** A turn-shaped conversation: user, assistant with a tool call, tool result (100–2,000 chars each). */
function conversation(n: number): Message[] {
  return Array.from({ length: n }, (_, i): Message => {
    const size = 100 + Math.floor(random() * 1900);
    if (i % 3 === 0) return { role: "user", content: text(size) };
    if (i % 3 === 1)
      return {
        role: "assistant",
        content: text(size),
        toolCalls: [{ id: `c${i}`, name: "bash", arguments: `{"command":"npm test -- ${i}"}` }],
      };
    return { role: "tool", toolCallId: `c${i - 1}`, content: text(size) };
  });
}

async function ok<A>(p: Promise<{ _tag: "Left"; left: unknown } | { _tag: "Right"; right: A }>): Promise<A> {
  const x = await p;
  if (x._tag === "Left") throw new Error(JSON.stringify(x.left));
  return x.right;
}

// ── PostgreSQL for the run ────────────────────────────────────────────────────────────────────

/** Runs `sql` on the admin URL. */
async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  // A connection the server ends (a dropped database) is an error of the next query, not an uncaught event.
  client.on("error", () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// ── Store workload ────────────────────────────────────────────────────────────────────────────

const N = quick ? 300 : 2000; // messages per stack
const QUERIES = quick ? 100 : 1000;
const BATCH = 20;
const TAIL = 20;

interface Row {
  readonly backend: string;
  readonly op: string;
  /** Operations per measured run. */
  readonly ops: number;
  readonly timing: Timing;
  readonly perSecond: number;
  readonly note: string;
}

async function storeRows(backend: string, open: () => Promise<SummaryStore>): Promise<Row[]> {
  const store = await open();
  const messages = conversation(N);
  let stacks = 0;
  const fresh = (): string => `${backend}-${process.pid}-${stacks++}`;
  const rows: Row[] = [];
  const row = (op: string, ops: number, timing: Timing, note: string): void => {
    rows.push({ backend, op, ops, timing, perSecond: ops / (timing.medianMs / 1000), note });
  };
  try {
    // Warm-up (statement caches, JIT, connections) on a throwaway stack.
    const warm = fresh();
    for (const m of messages.slice(0, 30)) await ok(store.append(warm, [m], 1)());
    await ok(store.messagesAfter(warm, 0)());

    row(
      "append 1 message",
      N,
      await measureAsync(
        async () => {
          const stack = fresh();
          for (const m of messages) await ok(store.append(stack, [m], 1)());
        },
        { runs: 3 },
      ),
      "one transaction per turn",
    );
    row(
      `append ${BATCH} messages`,
      N,
      await measureAsync(
        async () => {
          const stack = fresh();
          for (let i = 0; i < N; i += BATCH) await ok(store.append(stack, messages.slice(i, i + BATCH), 1)());
        },
        { runs: 3 },
      ),
      "messages per second",
    );

    const stack = fresh();
    for (let i = 0; i < N; i += BATCH) await ok(store.append(stack, messages.slice(i, i + BATCH), 1)());
    let previous: number | null = null;
    for (let s = 1; s <= 10; s++) {
      const saved: { readonly id: number } = await ok(
        store.saveSummary(
          stack,
          {
            content: `summary ${s}: ${text(1500)}`,
            coversUpTo: Math.floor((s * (N - TAIL)) / 10),
            previousId: previous,
          },
          2,
        )(),
      );
      previous = saved.id;
    }
    const watermark = N - TAIL;
    row(
      `messagesAfter (tail of ${TAIL})`,
      QUERIES,
      await measureAsync(async () => {
        for (let q = 0; q < QUERIES; q++) await ok(store.messagesAfter(stack, watermark)());
      }),
      `${N} messages in the stack`,
    );
    const wholeReads = Math.max(5, QUERIES / 20);
    row(
      `messagesAfter (all ${N})`,
      wholeReads,
      await measureAsync(async () => {
        for (let q = 0; q < wholeReads; q++) await ok(store.messagesAfter(stack, 0)());
      }),
      "reads per second",
    );
    row(
      "latestSummary",
      QUERIES,
      await measureAsync(async () => {
        for (let q = 0; q < QUERIES; q++) await ok(store.latestSummary(stack)());
      }),
      "10 summaries in the chain",
    );
  } finally {
    await store.close()();
  }
  return rows;
}

// ── Pruning workload ──────────────────────────────────────────────────────────────────────────

const RESULTS = 2000;
const RESULT_BYTES = 5 * 1024;

/** 2,000 tool calls and their 5 KB results, then the current user turn (protected by default). */
function toolHeavy(): Message[] {
  const tools = [
    (i: number) => ({ name: "bash", arguments: JSON.stringify({ command: `npm test -- src/module${i}.test.ts` }) }),
    (i: number) => ({ name: "read_file", arguments: JSON.stringify({ path: `src/module${i}.ts` }) }),
    (i: number) => ({ name: "grep", arguments: JSON.stringify({ pattern: `function f${i}`, path: "src" }) }),
  ];
  const out: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Fix the failing tests." },
  ];
  for (let i = 0; i < RESULTS; i++) {
    const call = { id: `call_${i}`, ...tools[i % tools.length]!(i) };
    let body = "";
    for (let line = 0; body.length < RESULT_BYTES - 40; line++) body += `${String(line).padStart(4)}: ${text(60)}\n`;
    body = `${body}exit code ${i % 7 === 0 ? 1 : 0}\n`.slice(-RESULT_BYTES);
    out.push(
      { role: "assistant", content: "", toolCalls: [call] },
      { role: "tool", toolCallId: call.id, content: body },
    );
  }
  out.push({ role: "user", content: "Now run the whole suite." });
  return out;
}

/**
 * The floor: one pass over every over-long tool result's text (counting its lines, which any
 * size-based description needs) and a copy of the message; no call lookup, no description.
 */
function scanBaseline(messages: readonly Message[], maxChars: number): readonly Message[] {
  return messages.map((m) => {
    if (m.role !== "tool" || m.content.length <= maxChars) return m;
    let lines = 1;
    for (let at = m.content.indexOf("\n"); at !== -1; at = m.content.indexOf("\n", at + 1)) lines++;
    return { ...m, content: `${lines} lines` };
  });
}

// ── Run ───────────────────────────────────────────────────────────────────────────────────────

const dir = mkdtempSync(join(tmpdir(), "cc-bench-session-"));
const server = pgServer("session", 59500);
const database = `cc_bench_session_${process.pid}`;
let created = false;
cleanupOnSignal(() => {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const rows: Row[] = [];
const unavailable: { backend: string; why: string }[] = [];
let prune: Record<string, unknown> | undefined;
try {
  rows.push(...(await storeRows("memory", async () => memoryStore())));
  rows.push(...(await storeRows("sqlite file", () => ok(openSqliteStore({ path: join(dir, "session.db") })()))));
  if (server.url === undefined) unavailable.push({ backend: "postgres", why: server.why });
  else {
    const adminUrl = server.url;
    await admin(adminUrl, `CREATE DATABASE ${database}`);
    created = true;
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    rows.push(...(await storeRows("postgres", () => ok(openPostgresStore({ connection: url.toString() })()))));
  }

  const messages = toolHeavy();
  const inputBytes = RESULTS * RESULT_BYTES;
  const pruned = pruneToolResults(messages).pruned.length;
  const ours = measure(() => pruneToolResults(messages), { runs: quick ? 1 : 7 });
  const floor = measure(() => scanBaseline(messages, 2000), { runs: quick ? 1 : 7 });
  prune = {
    results: RESULTS,
    resultBytes: RESULT_BYTES,
    pruned,
    prune: ours,
    baseline: floor,
    resultsPerSecond: RESULTS / (ours.medianMs / 1000),
    mbPerSecond: inputBytes / (1024 * 1024) / (ours.medianMs / 1000),
    vsBaseline: ours.medianMs / floor.medianMs,
  };
  printTable(
    `pruneToolResults on ${RESULTS.toLocaleString("en-US")} tool results of 5 KB (${quick ? "quick" : "full"}; median of ${ours.runs})`,
    ["variant", "median ms", "results/s", "MB/s", "pruned", "× baseline time"],
    [
      [
        "pruneToolResults (defaults)",
        ours.medianMs,
        RESULTS / (ours.medianMs / 1000),
        inputBytes / (1024 * 1024) / (ours.medianMs / 1000),
        pruned,
        ours.medianMs / floor.medianMs,
      ],
      [
        "one scan of each result (baseline)",
        floor.medianMs,
        RESULTS / (floor.medianMs / 1000),
        inputBytes / (1024 * 1024) / (floor.medianMs / 1000),
        "-",
        1,
      ],
    ],
  );
} finally {
  if (created && server.url !== undefined) {
    await admin(server.url, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch((e: unknown) =>
      console.error(`could not drop ${database}: ${String(e)}`),
    );
  }
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}

const vsMemory = (row: Row): number | null => {
  const memory = rows.find((x) => x.backend === "memory" && x.op === row.op);
  return memory === undefined ? null : row.perSecond / memory.perSecond;
};
printTable(
  `@cc/lcm session stores (${quick ? "quick" : "full"}; ${N} messages per stack, ${QUERIES} queries; median of ${rows[0]?.timing.runs ?? 0})`,
  ["backend", "operation", "ops/s", "median ms per run", "vs memory", "note"],
  [
    ...rows.map((x) => [x.backend, x.op, x.perSecond, x.timing.medianMs, vsMemory(x) ?? "-", x.note]),
    ...unavailable.map((u) => [u.backend, "-", "-", "-", "-", `unavailable: ${u.why}`]),
  ],
);
console.log(
  `results: ${writeResults("session", {
    messagesPerStack: N,
    queries: QUERIES,
    stores: rows.map((x) => ({ ...x, vsMemory: vsMemory(x) })),
    unavailable,
    prune: prune ?? null,
  })}`,
);
