// `cc-compact mcp` on a 1,000,000-entry SQLite index, spoken to in raw stdio JSON-RPC: while the
// first search_context loads the index, the server keeps answering pings (the largest ping
// latency during the load stays under 1 s) and a SIGTERM ends it within 1 s.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entry, openSqliteIndex } from "@cc/search";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialize, line, startRawServer, type RawServer } from "./support/raw-client.js";

const ENTRIES = 1_000_000;
/** The bound the server must meet: a ping answered, a SIGTERM honoured. */
const BOUND_MS = 1000;
/** How long pings are measured while the first search loads. */
const MEASURE_MS = 4000;

/** The SQLite driver @cc/hierarchical loads (a dependency of that package, not of this one). */
interface Db {
  exec(sql: string): unknown;
  pragma(source: string): unknown;
  close(): unknown;
}
type Driver = new (path: string) => Db;
const Database = createRequire(new URL("../../hierarchical/package.json", import.meta.url))("better-sqlite3") as Driver;

let dir = "";
let dbPath = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cc-mcp-big-"));
  dbPath = join(dir, "big.db");
  // The index creates its schema and holds one real entry; the other rows are added in one SQL
  // statement, with terms columns as the index writes them ("summary terms<TAB>content terms").
  const index = await openSqliteIndex({ path: dbPath })();
  if (E.isLeft(index)) throw new Error(JSON.stringify(index.left));
  const w = await index.right.write([
    entry({
      id: "seg-1",
      kind: "tool_result",
      summary: "pytest run: ValueError in src/app.py",
      content: "Traceback … ValueError",
    }),
  ])();
  await index.right.close()();
  if (E.isLeft(w)) throw new Error(JSON.stringify(w.left));
  const db = new Database(dbPath);
  db.pragma("synchronous = OFF");
  db.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ENTRIES - 1})
    INSERT INTO cc_segments (namespace, id, kind, summary, content, token_cost, created_at, evicted_at, metadata, terms, gen)
    SELECT 'default', 'e' || i, 'tool_result', 'read src/mod' || (i % 1000) || '.py fn' || (i % 7919), 'def fn' || (i % 7919) || ' return ' || i,
      1, 0, 0, '{}', 'read src mod' || (i % 1000) || ' py fn' || (i % 7919) || char(9) || 'def fn' || (i % 7919) || ' return ' || i, 1
    FROM n`);
  db.close();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Pings `s` one after another for `ms`; each latency, capped (a ping not answered by the cap counts as the cap). */
async function pingLatencies(
  s: RawServer,
  ms: number,
  stillLoading: () => boolean,
): Promise<{ readonly latencies: readonly number[]; readonly duringLoad: number }> {
  const latencies: number[] = [];
  let duringLoad = 0;
  const end = performance.now() + ms;
  let id = 1000;
  while (performance.now() < end) {
    const sent = performance.now();
    s.write(line({ jsonrpc: "2.0", id, method: "ping" }));
    const cap = 5 * BOUND_MS;
    const got = await s.reply(id, cap).then(
      () => performance.now() - sent,
      () => cap,
    );
    latencies.push(got);
    if (stillLoading()) duringLoad++;
    id++;
    await sleep(50);
  }
  return { latencies, duringLoad };
}

describe(`cc-compact mcp on a ${ENTRIES.toLocaleString("en")}-entry index`, () => {
  it(`answers pings within ${BOUND_MS} ms while the first search loads, and exits within ${BOUND_MS} ms of SIGTERM`, async () => {
    const s = await startRawServer(dbPath);
    try {
      await initialize(s);
      await pingLatencies(s, 200, () => false); // warm: the first ping after start-up is not the load's
      let searched = false;
      s.write(
        line({
          jsonrpc: "2.0",
          id: "first-search",
          method: "tools/call",
          params: { name: "search_context", arguments: { query: "ValueError" } },
        }),
      );
      void s.reply("first-search", 600_000).then(
        () => (searched = true),
        () => undefined,
      );
      const { latencies, duringLoad } = await pingLatencies(s, MEASURE_MS, () => !searched);
      // The measurement is of the load: most pings were answered while the search was still loading.
      expect(duringLoad).toBeGreaterThanOrEqual(Math.min(5, latencies.length));
      expect(Math.max(...latencies)).toBeLessThan(BOUND_MS);
      const killed = performance.now();
      s.child.kill("SIGTERM");
      const exit = await Promise.race([s.exited, sleep(5 * BOUND_MS).then(() => undefined)]);
      const took = performance.now() - killed;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(took).toBeLessThan(BOUND_MS);
      expect(s.stderr()).toMatch(/stopping \(SIGTERM\)/);
    } finally {
      s.child.kill("SIGKILL");
      await s.exited;
    }
  });
});
