// Persisted postings snapshots on SQLite and PostgreSQL: results are the same with and without
// them (a property over writes, deletions and other writers), and every fault — a torn file, a
// flipped byte, another format version, another index's snapshot, a snapshot ahead of a restored
// database, a namespace deleted and rewritten or another process's writes after the snapshot, an
// unwritable directory, a killed writer's temporary file — gives correct searches, and the bad
// snapshot is replaced.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexEntry, SearchHit, SegmentIndex } from "../src/contract.js";
import { entry } from "../src/contract.js";
import { openPostgresIndex } from "../src/postgres.js";
import { postingsCacheStats } from "../src/ranking/scopes.js";
import { snapshotName, type SnapshotEvent, type SnapshotOptions } from "../src/snapshots.js";
import { openSqliteIndex } from "../src/sqlite.js";
import { right } from "./support/contract.js";
import { testDatabase, type TestDatabase } from "./support/postgres.js";
import { runsFor } from "../../../.ci/support/runs.js";

let dir: string;
let db: TestDatabase;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cc-snap-"));
  db = await testDatabase();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await db.drop();
});

let n = 0;
/** One store (a SQLite file or a PostgreSQL table) and its snapshot directory. */
interface Store {
  readonly table: string;
  readonly snapDir: string;
  readonly open: (snapshots?: SnapshotOptions) => Promise<SegmentIndex>;
  /** Sets the store's generation counter back (as a restored backup would). */
  readonly rewind: () => Promise<void>;
  /** Deletes one entry of namespace "a" with SQL, behind the index's back (the counter untouched). */
  readonly tamper: () => Promise<void>;
}
const sqliteStore = (): Store => {
  const path = join(dir, `s-${n}.db`);
  const table = `snap_${n++}`;
  return {
    table,
    snapDir: join(dir, `${table}-snaps`),
    open: async (snapshots) =>
      right(await openSqliteIndex({ path, table, ...(snapshots === undefined ? {} : { snapshots }) })()),
    rewind: async () => {
      const file = new Database(path);
      file.prepare(`UPDATE ${table}_gen SET gen = 0`).run();
      file.close();
    },
    tamper: async () => {
      const file = new Database(path);
      file.prepare(`DELETE FROM ${table} WHERE rid = (SELECT rid FROM ${table} WHERE namespace = 'a' LIMIT 1)`).run();
      file.close();
    },
  };
};
const pgStore = (): Store => {
  const table = `snap_${n++}`;
  return {
    table,
    snapDir: join(dir, `${table}-snaps`),
    open: async (snapshots) =>
      right(
        await openPostgresIndex({
          connection: db.client(),
          table,
          ...(snapshots === undefined ? {} : { snapshots }),
        })(),
      ),
    rewind: async () => {
      const c = db.client();
      await c.query(`UPDATE ${table}_gen SET gen = 0`);
    },
    tamper: async () => {
      await db
        .client()
        .query(`DELETE FROM ${table} WHERE ctid = (SELECT ctid FROM ${table} WHERE namespace = 'a' LIMIT 1)`);
    },
  };
};

const VOCAB = ["alpha", "beta", "gamma", "delta", "error", "file", "read", "main"];
const doc = (i: number, ns: string, words: string): IndexEntry =>
  entry({
    id: `e${i}`,
    namespace: ns,
    summary: `${words} s${i % 7}`,
    content: `${VOCAB[i % VOCAB.length]} f${i}.py ${words}`,
  });
// An entry's text is a function of its number only: a rewrite of the same id is the same original
// (a different one would be an IdConflict, as it should).
const batch = (from: number, count: number, ns: string): IndexEntry[] =>
  Array.from({ length: count }, (_, i) => doc(from + i, ns, `${VOCAB[(from + i) % 5]} ${VOCAB[((from + i) * 3) % 8]}`));
/** Hits in a tie-independent order (equal scores may come in another docId order after a reload). */
const shape = (hits: readonly SearchHit[]): readonly string[] =>
  hits.map((h) => `${h.score.toFixed(9)} ${h.namespace} ${h.id} ${h.summary}`).sort();
const QUERIES = ["alpha", "beta f3.py", "main error s2", "gamma delta read"];
const SCOPES = [undefined, "a", "b"] as const;

/** Every query in every scope (k larger than any corpus here). */
async function answers(index: SegmentIndex): Promise<readonly (readonly string[])[]> {
  const out: (readonly string[])[] = [];
  for (const q of QUERIES)
    for (const ns of SCOPES)
      out.push(shape(right(await index.search(q, { k: 500, ...(ns === undefined ? {} : { namespace: ns }) })())));
  return out;
}

/** Searches with snapshots in a fresh instance, checks them against a fresh instance without, closes; returns the events. */
async function checked(store: Store, extra: Partial<SnapshotOptions> = {}): Promise<SnapshotEvent[]> {
  const events: SnapshotEvent[] = [];
  const withSnap = await store.open({ dir: store.snapDir, onEvent: (e) => events.push(e), ...extra });
  const plain = await store.open();
  expect(await answers(withSnap)).toEqual(await answers(plain));
  right(await withSnap.close()());
  right(await plain.close()());
  return events;
}
const types = (events: readonly SnapshotEvent[], namespace: string | undefined): string[] =>
  events.filter((e) => e.namespace === namespace).map((e) => (e.type === "rejected" ? `rejected:${e.reason}` : e.type));

/** A store with entries in namespaces a and b, searched once with snapshots (so every scope has one). */
async function seeded(make: () => Store): Promise<Store> {
  const store = make();
  const w = await store.open();
  right(await w.write([...batch(0, 40, "a"), ...batch(40, 30, "b")])());
  right(await w.close()());
  const events = await checked(store);
  expect(types(events, "a")).toEqual(["missing", "written"]);
  return store;
}
const fileOf = (store: Store, scope: string): string => join(store.snapDir, snapshotName(store.table, scope));

for (const [name, make] of [
  ["sqlite", sqliteStore],
  ["postgres", pgStore],
] as const) {
  describe(`postings snapshots: ${name}`, () => {
    it("property: searches are the same with and without snapshots, across reopenings, other writers and deletions", async () => {
      const step = fc.oneof(
        fc.record({
          write: fc.constantFrom("a", "b"),
          from: fc.nat({ max: 60 }),
          count: fc.integer({ min: 1, max: 15 }),
        }),
        fc.record({ drop: fc.constantFrom("a", "b") }),
        fc.record({ reopen: fc.constant(true) }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
          const store = make();
          const writer = await store.open();
          for (const s of steps) {
            if ("write" in s) right(await writer.write(batch(s.from, s.count, s.write))());
            else if ("drop" in s) right(await writer.deleteNamespace(s.drop)());
            else await checked(store, { rewriteAfter: 5 });
          }
          await checked(store, { rewriteAfter: 5 });
          const events = await checked(store);
          expect(events.filter((e) => e.type === "rejected" || e.type === "failed")).toEqual([]);
          right(await writer.close()());
        }),
        { numRuns: runsFor(3, 6) },
      );
    });

    it("restores a scope from its snapshot without reading the rows", async () => {
      const store = await seeded(make);
      const index = await store.open({ dir: store.snapDir });
      right(await index.search("alpha", { namespace: "a" })());
      const stats = postingsCacheStats(index);
      expect(stats?.loadedEntries).toBe(0);
      expect(stats?.snapshots?.restored).toBe(1);
      right(await index.close()());
    });

    const faults: readonly [string, string, (store: Store) => Promise<void>][] = [
      [
        "a torn (truncated) file",
        "rejected:truncated",
        async (s) => writeFileSync(fileOf(s, "na"), readFileSync(fileOf(s, "na")).subarray(0, 100)),
      ],
      [
        "a flipped byte",
        "rejected:checksum",
        async (s) => {
          const b = readFileSync(fileOf(s, "na"));
          b[Math.floor(b.length / 2)]! ^= 0x10;
          writeFileSync(fileOf(s, "na"), b);
        },
      ],
      [
        "another format version",
        "rejected:version",
        async (s) => {
          const b = readFileSync(fileOf(s, "na"));
          b.writeUInt32LE(99, 8);
          writeFileSync(fileOf(s, "na"), b);
        },
      ],
      [
        "a snapshot of another index",
        "rejected:identity",
        async (s) => {
          const other = await seeded(make);
          copyFileSync(join(other.snapDir, snapshotName(other.table, "na")), fileOf(s, "na"));
        },
      ],
      ["a snapshot ahead of the counter (the database was restored)", "rejected:ahead", async (s) => s.rewind()],
      [
        "an entry deleted behind the index's back (the counter untouched): the entry count disagrees",
        "rejected:count",
        async (s) => s.tamper(),
      ],
    ];
    for (const [what, expected, fault] of faults) {
      it(`${what}: refused, searches correct, the snapshot replaced`, async () => {
        const store = await seeded(make);
        await fault(store);
        const events = await checked(store);
        expect(types(events, "a")).toEqual([expected, "written"]);
        // The new snapshot is good.
        expect(types(await checked(store), "a")).toEqual(["restored"]);
      });
    }

    it("a namespace deleted and rewritten after the snapshot, and another process's writes: restored and caught up", async () => {
      const store = await seeded(make);
      const other = await store.open();
      right(await other.deleteNamespace("a")());
      right(await other.write(batch(100, 12, "a"))());
      right(await other.write(batch(0, 5, "b").map((e) => ({ ...e, id: `new-${e.id}` })))());
      right(await other.close()());
      const events = await checked(store);
      for (const ns of SCOPES) expect(types(events, ns)).toEqual(["restored"]);
    });

    it("an unwritable snapshot directory: searches correct, the failure reported, never thrown", async () => {
      const store = await seeded(make);
      const blocker = join(dir, `blocker-${n++}`);
      writeFileSync(blocker, "a file where the directory should be");
      const events: SnapshotEvent[] = [];
      const index = await store.open({ dir: join(blocker, "snaps"), onEvent: (e) => events.push(e) });
      const plain = await store.open();
      expect(await answers(index)).toEqual(await answers(plain));
      right(await index.close()());
      right(await plain.close()());
      expect(types(events, "a")).toEqual(["failed", "failed"]);
      const failed = events.find((e) => e.type === "failed");
      expect(failed?.type === "failed" && failed.error.code).toBe("ENOTDIR");
    });

    it("a killed writer's temporary file: ignored, then cleaned by the next write", async () => {
      const store = await seeded(make);
      const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
      const temp = `${fileOf(store, "na")}.${hostname().replace(/[^A-Za-z0-9_-]/g, "_")}.${dead}.0123456789ab.tmp`;
      writeFileSync(temp, "half a snapshot");
      // Ignored by the reader.
      expect(types(await checked(store), "a")).toEqual(["restored"]);
      // A rewrite (after a torn file here) removes it.
      writeFileSync(fileOf(store, "na"), "torn");
      expect(types(await checked(store), "a")).toEqual(["rejected:truncated", "written"]);
      expect(existsSync(temp)).toBe(false);
      expect(readdirSync(store.snapDir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    });

    it("refuses bad snapshot options, naming the field", async () => {
      const store = make();
      const bad = [
        { dir: "" },
        { dir: "x", rewriteAfter: 0 },
        { dir: "x", extra: 1 },
        {},
        { dir: "x", store: { read: () => 0, write: () => 0, remove: () => 0 } },
      ];
      for (const snapshots of bad) {
        const r =
          name === "sqlite"
            ? await openSqliteIndex({ path: join(dir, "never.db"), snapshots: snapshots as SnapshotOptions })()
            : await openPostgresIndex({
                connection: db.client(),
                table: store.table,
                snapshots: snapshots as SnapshotOptions,
              })();
        expect(r._tag).toBe("Left");
        if (r._tag === "Left") expect(JSON.stringify(r.left)).toContain("snapshots");
      }
    });
  });
}
