// Persisted postings snapshots on SQLite and PostgreSQL, kept in a directory and in the index's own
// database (`store: "database"`): results are the same with and without them (a property over
// writes, deletions and other writers), and every fault — a torn snapshot, a flipped byte,
// another format version, another index's snapshot, a snapshot ahead of a restored database, a
// namespace deleted and rewritten or another process's writes after the snapshot, a store that
// cannot be written, a killed writer's leftovers — gives correct searches, and the bad snapshot
// is replaced.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexEntry, SearchHit, SegmentIndex } from "../src/contract.js";
import { entry } from "../src/contract.js";
import { openPostgresIndex } from "../src/postgres.js";
import { PostingsCache } from "../src/ranking/postings.js";
import { postingsCacheStats } from "../src/ranking/scopes.js";
import { decodeSnapshot, SNAPSHOT_PAGE, snapshotHeader, snapshotPackedRange } from "../src/ranking/snapshot.js";
import { snapshotName, type SnapshotEvent, type SnapshotOptions } from "../src/snapshots.js";
import { postgresSnapshotStore, sqliteSnapshotStore } from "../src/database-snapshots.js";
import { readingInParts } from "../src/snapshot-pages.js";
import { directorySnapshotStore, type SnapshotStore } from "../src/snapshot-store.js";
import { openSqliteIndex } from "../src/sqlite.js";
import { right } from "./support/contract.js";
import type { SqlClient, SqlRunner } from "../src/sql.js";
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
/** Where the snapshots are kept: a directory of this host, or the index's own database. */
type Kind = "dir" | "database";
/** One store (a SQLite file or a PostgreSQL table) and where its snapshots are kept. */
interface Store {
  readonly table: string;
  readonly snapDir: string;
  /** The snapshot options of this store's kind. */
  readonly snap: SnapshotOptions;
  readonly open: (snapshots?: SnapshotOptions) => Promise<SegmentIndex>;
  /** Sets the store's generation counter back (as a restored backup would). */
  readonly rewind: () => Promise<void>;
  /** Deletes one entry of namespace "a" with SQL, behind the index's back (the counter untouched). */
  readonly tamper: () => Promise<void>;
  /** The stored snapshot of a scope (undefined when there is none), and a way to overwrite it behind the index's back. */
  readonly getBlob: (scope: string) => Promise<Uint8Array | undefined>;
  readonly setBlob: (scope: string, bytes: Uint8Array) => Promise<void>;
  /** Runs SQL on the store's database, behind the index's back. */
  readonly sql: (text: string) => Promise<void>;
  /** The `n` of a one-row query's result. */
  readonly count: (text: string) => Promise<number>;
  /** The first column of a one-row query's result, as text. */
  readonly text: (text: string) => Promise<string>;
}
/** Blob access through a store (the directory's files are read and written as files). */
const blobs = (kind: Kind, table: string, snapDir: string, dbStore: () => SnapshotStore) => ({
  getBlob: async (scope: string): Promise<Uint8Array | undefined> => {
    const name = snapshotName(table, scope);
    if (kind === "dir") return existsSync(join(snapDir, name)) ? readFileSync(join(snapDir, name)) : undefined;
    const got = await dbStore().read(name);
    if (got._tag === "Left") throw new Error(got.left.message);
    return got.right;
  },
  setBlob: async (scope: string, bytes: Uint8Array): Promise<void> => {
    const name = snapshotName(table, scope);
    if (kind === "dir") return writeFileSync(join(snapDir, name), bytes);
    const put = await dbStore().write(name, bytes);
    if (put._tag === "Left") throw new Error(put.left.message);
  },
});
const sqliteStore = (kind: Kind) => (): Store => {
  const path = join(dir, `s-${n}.db`);
  const table = `snap_${n++}`;
  const snapDir = join(dir, `${table}-snaps`);
  const onFile = <A>(f: (file: Database.Database) => A): A => {
    const file = new Database(path);
    try {
      return f(file);
    } finally {
      file.close();
    }
  };
  let side: Database.Database | undefined;
  return {
    table,
    snapDir,
    snap: kind === "dir" ? { dir: snapDir } : { store: "database" },
    open: async (snapshots) =>
      right(await openSqliteIndex({ path, table, ...(snapshots === undefined ? {} : { snapshots }) })()),
    rewind: async () => onFile((file) => void file.prepare(`UPDATE ${table}_gen SET gen = 0`).run()),
    tamper: async () =>
      onFile(
        (file) =>
          void file
            .prepare(`DELETE FROM ${table} WHERE rid = (SELECT rid FROM ${table} WHERE namespace = 'a' LIMIT 1)`)
            .run(),
      ),
    ...blobs(kind, table, snapDir, () => sqliteSnapshotStore((side ??= new Database(path)), table)),
    sql: async (text) => onFile((file) => void file.exec(text)),
    count: async (text) => onFile((file) => Number(file.prepare<[], { n: number }>(text).get()?.n)),
    text: async (text) => onFile((file) => String(file.prepare<[], unknown>(text).pluck().get())),
  };
};
const pgStore = (kind: Kind) => (): Store => {
  const table = `snap_${n++}`;
  // One pool per store, shared by every index and query on it (a pool per call would hold up to
  // four connections each until the file ends).
  const client = db.client();
  const snapDir = join(dir, `${table}-snaps`);
  return {
    table,
    snapDir,
    snap: kind === "dir" ? { dir: snapDir } : { store: "database" },
    open: async (snapshots) =>
      right(
        await openPostgresIndex({
          connection: client,
          table,
          ...(snapshots === undefined ? {} : { snapshots }),
        })(),
      ),
    rewind: async () => {
      await client.query(`UPDATE ${table}_gen SET gen = 0`);
    },
    tamper: async () => {
      await client.query(`DELETE FROM ${table} WHERE ctid = (SELECT ctid FROM ${table} WHERE namespace = 'a' LIMIT 1)`);
    },
    ...blobs(kind, table, snapDir, () => postgresSnapshotStore(client, table)),
    sql: async (text) => void (await client.query(text)),
    count: async (text) => Number((await client.query<{ n: string }>(text)).rows[0]?.n),
    text: async (text) => String(Object.values((await client.query<Record<string, unknown>>(text)).rows[0] ?? {})[0]),
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
  const withSnap = await store.open({ ...store.snap, onEvent: (e) => events.push(e), ...extra });
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
/** The stored snapshot of a scope (it must exist). */
const blobOf = async (store: Store, scope: string): Promise<Buffer> => {
  const b = await store.getBlob(scope);
  if (b === undefined) throw new Error(`no snapshot of ${scope}`);
  return Buffer.from(b);
};

for (const [name, kind, make] of [
  ["sqlite", "dir", sqliteStore("dir")],
  ["postgres", "dir", pgStore("dir")],
  ["sqlite", "database", sqliteStore("database")],
  ["postgres", "database", pgStore("database")],
] as const) {
  describe(`postings snapshots: ${name}, ${kind === "dir" ? "in a directory" : "in the database"}`, () => {
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

    it("a snapshot is rewritten once the changes since it reach a quarter of its entries (at least 256), under the default rewriteAfter", async () => {
      const store = make();
      const writer = await store.open();
      right(await writer.write(batch(0, 1200, "a"))());
      expect(types(await checked(store), "a")).toEqual(["missing", "written"]);
      // 200 changes: under both 256 and a quarter of 1,200 (300): the snapshot lags, is caught up, stays.
      right(await writer.write(batch(1200, 200, "a"))());
      expect(types(await checked(store), "a")).toEqual(["restored"]);
      // 350 since the snapshot: rewritten (the default rewriteAfter, 10,000, would wait far longer).
      right(await writer.write(batch(1400, 150, "a"))());
      expect(types(await checked(store), "a")).toEqual(["restored", "written"]);
      const events = await checked(store);
      expect(types(events, "a")).toEqual(["restored"]);
      expect(events.find((e) => e.type === "restored" && e.namespace === "a")).toMatchObject({ entries: 1550 });
      right(await writer.close()());
    });

    it("restores a scope from its snapshot without reading the rows", async () => {
      const store = await seeded(make);
      const index = await store.open(store.snap);
      right(await index.search("alpha", { namespace: "a" })());
      const stats = postingsCacheStats(index);
      expect(stats?.loadedEntries).toBe(0);
      expect(stats?.snapshots?.restored).toBe(1);
      right(await index.close()());
    });

    const faults: readonly [string, string, (store: Store) => Promise<void>][] = [
      [
        "a torn (truncated) snapshot",
        "rejected:truncated",
        async (s) => s.setBlob("na", (await blobOf(s, "na")).subarray(0, 100)),
      ],
      [
        "a flipped byte",
        "rejected:checksum",
        async (s) => {
          const b = await blobOf(s, "na");
          b[Math.floor(b.length / 2)]! ^= 0x10;
          await s.setBlob("na", b);
        },
      ],
      [
        "another format version",
        "rejected:version",
        async (s) => {
          const b = await blobOf(s, "na");
          b.writeUInt32LE(99, 8);
          await s.setBlob("na", b);
        },
      ],
      [
        "a snapshot of another index",
        "rejected:identity",
        async (s) => {
          const other = await seeded(make);
          await s.setBlob("na", await blobOf(other, "na"));
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

    if (kind === "dir")
      it("another writer's write while the snapshot is read (after the count started on its first bytes): restored, caught up, no count refusal", async () => {
        const store = await seeded(make);
        const other = await store.open();
        const inner = directorySnapshotStore(store.snapDir);
        let wrote = 0;
        // Reports the first part, writes through another instance, then reports the rest.
        const slow: SnapshotStore = {
          ...inner,
          read: async (name, onChunk) => {
            const got = await inner.read(name);
            if (got._tag === "Right" && got.right !== undefined && got.right.length > 64) {
              const bytes = got.right;
              onChunk?.(bytes.subarray(0, 64), 0, bytes.length);
              right(await other.write(batch(200 + wrote, 3, "a"))());
              wrote += 3;
              onChunk?.(bytes.subarray(64), 64, bytes.length);
            }
            return got;
          },
          // Read in parts (PostgreSQL): the header first, then the write, then the rest.
          open: async (name) => {
            const opened = await inner.open!(name);
            if (opened._tag === "Left" || opened.right === undefined) return opened;
            const blob = opened.right;
            return E.right({
              ...blob,
              readInto: async (offset: number, into: Uint8Array) => {
                const got = await blob.readInto(offset, into);
                if (offset === 0 && wrote === 0) {
                  right(await other.write(batch(200 + wrote, 3, "a"))());
                  wrote += 3;
                }
                return got;
              },
            });
          },
        };
        const events: SnapshotEvent[] = [];
        const index = await store.open({ store: slow, onEvent: (e) => events.push(e) });
        const hits = right(await index.search("f200.py", { namespace: "a", k: 5 })());
        expect(hits[0]?.id).toBe("e200");
        expect(types(events, "a")).toEqual(["restored"]);
        expect(wrote).toBe(3);
        right(await index.close()());
        right(await other.close()());
      });

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

    if (kind === "dir")
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

    if (kind === "dir")
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

    if (kind === "database")
      it("a database that refuses the snapshot's parts: searches correct, the failure reported, never thrown", async () => {
        const store = await seeded(make);
        const parts = `${store.table}_snapshot_parts`;
        // A torn snapshot is refused, and its rewrite fails: reported, the searches unharmed.
        await store.setBlob("na", Buffer.from("torn"));
        await store.sql(
          name === "postgres"
            ? `ALTER TABLE ${parts} ADD CONSTRAINT refuse CHECK (part < 0) NOT VALID`
            : `CREATE TRIGGER refuse BEFORE INSERT ON "${parts}" BEGIN SELECT RAISE(ABORT, 'refused'); END`,
        );
        const events = await checked(store);
        expect(types(events, "a")).toEqual(["rejected:truncated", "failed"]);
        const failed = events.find((e) => e.type === "failed");
        expect(failed?.type === "failed" && failed.error.operation).toBe("write");
        expect(failed?.type === "failed" && failed.error.code).toBe(
          name === "postgres" ? "23514" : "SQLITE_CONSTRAINT_TRIGGER",
        );
        // The refused write left no parts behind.
        expect(
          await store.count(`SELECT count(*) AS n FROM "${parts}" WHERE name = '${snapshotName(store.table, "na")}'`),
        ).toBe(1);
      });

    if (kind === "database")
      it("a killed writer's parts: never read, cleaned by the next write once stale (a recent writer's kept)", async () => {
        const store = await seeded(make);
        const parts = `${store.table}_snapshot_parts`;
        const na = snapshotName(store.table, "na");
        const at = (ageMs: number): string =>
          name === "postgres" ? `now() - make_interval(secs => ${ageMs / 1000})` : String(Date.now() - ageMs);
        const junk = name === "postgres" ? `'\\x00ff'::bytea` : `X'00ff'`;
        await store.sql(
          `INSERT INTO "${parts}" (name, writer, part, bytes, written_at) VALUES ('${na}', 'dead', 0, ${junk}, ${at(3_600_000)}), ('${na}', 'busy', 0, ${junk}, ${at(1000)})`,
        );
        // Never read (no head names them).
        expect(types(await checked(store), "a")).toEqual(["restored"]);
        // A rewrite (after a torn snapshot here) removes the dead writer's, keeps the live one's.
        await store.setBlob("na", Buffer.from("torn"));
        expect(types(await checked(store), "a")).toEqual(["rejected:truncated", "written"]);
        expect(await store.count(`SELECT count(*) AS n FROM "${parts}" WHERE name = '${na}' AND writer = 'dead'`)).toBe(
          0,
        );
        expect(await store.count(`SELECT count(*) AS n FROM "${parts}" WHERE name = '${na}' AND writer = 'busy'`)).toBe(
          1,
        );
        expect(types(await checked(store), "a")).toEqual(["restored"]);
      });

    if (kind === "database")
      it("a fresh worker with no snapshot directory restores from the database, and preloads what it names", async () => {
        const store = await seeded(make);
        const events: SnapshotEvent[] = [];
        const index = await store.open({
          store: "database",
          preload: { namespaces: ["a"], allNamespaces: true },
          onEvent: (e) => events.push(e),
        });
        const plain = await store.open();
        expect(await answers(index)).toEqual(await answers(plain));
        expect(postingsCacheStats(index)?.loadedEntries).toBe(0);
        right(await index.close()());
        right(await plain.close()());
        for (const ns of SCOPES) expect(types(events, ns)).toEqual(["restored"]);
      });

    if (kind === "dir")
      it("preloaded snapshots (read as the index opens) are checked as any: a foreign one is refused and rebuilt", async () => {
        const store = await seeded(make);
        const other = await seeded(make);
        await store.setBlob("na", await blobOf(other, "na"));
        const events = await checked(store, { preload: { namespaces: ["a", "never-searched"], allNamespaces: true } });
        expect(types(events, "a")).toEqual(["rejected:identity", "written"]);
        expect(types(events, undefined)).toEqual(["restored"]);
        expect(types(await checked(store, { preload: { namespaces: ["a"] } }), "a")).toEqual(["restored"]);
      });

    it("refuses bad snapshot options, naming the field", async () => {
      const store = make();
      const bad = [
        { dir: "" },
        { dir: "x", rewriteAfter: 0 },
        { dir: "x", extra: 1 },
        {},
        { dir: "x", store: { read: () => 0, write: () => 0, remove: () => 0 } },
        { dir: "x", store: "database" },
        { store: "databse" },
        { store: "database", preload: { namespaces: [1] } },
        { store: "database", preload: { namespace: ["a"] } },
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

/** A client over `inner` whose every statement (in a transaction too) goes through `step` (`run` runs it); `end` leaves `inner` open. */
const around = (
  inner: SqlClient,
  step: (
    text: string,
    run: () => Promise<{ readonly rows: readonly unknown[] }>,
  ) => Promise<{ readonly rows: readonly unknown[] }>,
): SqlClient => {
  const wrap = (runner: SqlRunner): SqlRunner => ({
    query: async <R>(text: string, params?: readonly unknown[]) =>
      (await step(text, () => runner.query<unknown>(text, params))) as { readonly rows: readonly R[] },
  });
  return { ...wrap(inner), transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))), end: () => Promise.resolve() };
};

describe("postings snapshots: postgres, the restore's entry count", () => {
  it("the first search ranks and fetches its rows while the server counts; a contradicted count still drops the restore", async () => {
    for (const tampered of [false, true]) {
      const store = await seeded(pgStore("dir"));
      if (tampered) await store.tamper();
      const inner = db.client();
      const log: string[] = [];
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      // Holds the restore's count (in its transaction) until the search has asked for its rows.
      const client = around(inner, async (text, run) => {
        if (text.includes("count(*)") && !text.startsWith("SELECT count")) {
          log.push("count asked");
          await Promise.race([held, new Promise((r) => setTimeout(r, 5_000))]);
          log.push("count released");
        }
        if (text.includes("LEFT JOIN LATERAL")) {
          log.push("rows asked");
          release();
        }
        return run();
      });
      const events: SnapshotEvent[] = [];
      const index = right(
        await openPostgresIndex({
          connection: client,
          table: store.table,
          snapshots: { dir: store.snapDir, onEvent: (e) => events.push(e) },
        })(),
      );
      const plain = await store.open();
      const hits = right(await index.search("alpha beta", { k: 50 })());
      expect(shape(hits)).toEqual(shape(right(await plain.search("alpha beta", { k: 50 })())));
      // Fails when the search waits for the count before it ranks and fetches.
      expect(log.filter((e) => e !== "rows asked")).toEqual(["count asked", "count released"]);
      expect(log.indexOf("rows asked")).toBeLessThan(log.indexOf("count released"));
      right(await index.close()());
      // After close: a new snapshot's write (after a refusal) has finished.
      expect(types(events, undefined)).toEqual(tampered ? ["rejected:count", "written"] : ["restored"]);
      right(await plain.close()());
      await inner.end();
    }
  });
  it("preloaded: the first search waits for the check the background load started, and a contradicted restore answers from the rows", async () => {
    for (const tampered of [false, true]) {
      const store = await seeded(pgStore("dir"));
      if (tampered) await store.tamper();
      const inner = db.client();
      // The restore's count answers late: the search comes while the check is still running.
      const client = around(inner, async (text, run) => {
        const out = await run();
        if (text.includes("count(*)")) await new Promise((r) => setTimeout(r, 300));
        return out;
      });
      const events: SnapshotEvent[] = [];
      const index = right(
        await openPostgresIndex({
          connection: client,
          table: store.table,
          snapshots: { dir: store.snapDir, preload: { allNamespaces: true }, onEvent: (e) => events.push(e) },
        })(),
      );
      const plain = await store.open();
      await new Promise((r) => setTimeout(r, 50));
      const first = shape(right(await index.search(QUERIES[2]!, { k: 500 })()));
      // Settled before the first answer (fails when the search answers while the check runs).
      expect(types(events, undefined)[0]).toBe(tampered ? "rejected:count" : "restored");
      expect(first).toEqual(shape(right(await plain.search(QUERIES[2]!, { k: 500 })())));
      right(await index.close()());
      right(await plain.close()());
      await inner.end();
    }
  });
});

for (const [name, make, identityOf] of [
  ["sqlite", sqliteStore("dir"), async (store: Store) => store.text(`SELECT id FROM ${store.table}_identity`)],
  ["postgres", pgStore("dir"), async (store: Store) => store.text(`SELECT id FROM ${store.table}_identity`)],
] as const)
  describe(`postings snapshots: ${name}, read in parts`, () => {
    // A test corpus's packed postings are far below what is left to read later by default.
    beforeAll(() => void (readingInParts.readLaterFrom = 0));
    afterAll(() => void (readingInParts.readLaterFrom = 2 << 20));
    // A corpus whose snapshot spans several pages of packed postings (lists read when searched).
    const WIDE = Array.from({ length: 600 }, (_, i) => `t${i}x`);
    const wide = (i: number, ns: string): IndexEntry =>
      entry({
        id: `w${i}`,
        namespace: ns,
        summary: `${WIDE[i % 97]} s${i % 11}`,
        content: Array.from({ length: 14 }, (_, j) => WIDE[(i * 7 + j * j * 13) % WIDE.length]).join(" ") + " common",
      });
    const WIDE_QUERIES = ["t5x common", "t17x", "t101x t102x", "t300x s3", "t599x", "common t42x"];
    const wideAnswers = async (index: SegmentIndex): Promise<readonly (readonly string[])[]> => {
      const out: (readonly string[])[] = [];
      for (const q of WIDE_QUERIES)
        for (const ns of SCOPES)
          out.push(shape(right(await index.search(q, { k: 30, ...(ns === undefined ? {} : { namespace: ns }) })())));
      return out;
    };
    /** A store of 12,000 wide entries with a whole-index snapshot; the snapshot's bytes and where its packed postings start. */
    const wideStore = async () => {
      const store = make();
      const w = await store.open();
      for (let i = 0; i < 12_000; i += 2000)
        right(await w.write(Array.from({ length: 2000 }, (_, j) => wide(i + j, (i + j) % 3 === 0 ? "a" : "b")))());
      right(await w.close()());
      const first = await store.open(store.snap);
      right(await first.search("t1x")());
      right(await first.close()());
      const bytes = await blobOf(store, "*");
      const header = snapshotHeader(bytes);
      if (E.isLeft(header)) throw new Error("no header");
      const range = snapshotPackedRange(bytes, header.right);
      if (E.isLeft(range)) throw new Error("no range");
      return { store, bytes, ...range.right };
    };

    it("a scope restored in parts answers as one loaded from the rows, through writes, deletions and rewrites", async () => {
      const { store, packedAt, packedEnd } = await wideStore();
      expect(packedEnd - packedAt).toBeGreaterThan(3 * SNAPSHOT_PAGE);
      const events: SnapshotEvent[] = [];
      const index = await store.open({ ...store.snap, rewriteAfter: 50, onEvent: (e) => events.push(e) });
      const plain = await store.open();
      expect(await wideAnswers(index)).toEqual(await wideAnswers(plain));
      // Its own write and another instance's: every list is read before the change applies.
      right(await index.write(Array.from({ length: 60 }, (_, j) => wide(20_000 + j, "a")))());
      const other = await store.open();
      right(await other.deleteNamespace("b")());
      right(await other.close()());
      expect(await wideAnswers(index)).toEqual(await wideAnswers(plain));
      right(await index.close()());
      right(await plain.close()());
      expect(types(events, undefined)).toEqual(["restored", "written"]);
      expect(types(await checked(store), undefined)).toEqual(["restored"]);
    });

    it("every blob opened for reading in parts is let go: after a search, on close, and when a preloaded scope is never searched", async () => {
      const { store } = await wideStore();
      const inner = directorySnapshotStore(store.snapDir);
      let opened = 0;
      let closed = 0;
      const counting: SnapshotStore = {
        ...inner,
        open: async (name) => {
          const got = await inner.open!(name);
          if (got._tag === "Left" || got.right === undefined) return got;
          opened++;
          const blob = got.right;
          let done = false;
          return E.right({
            ...blob,
            close: async () => {
              if (!done) closed++;
              done = true;
              await blob.close();
            },
          });
        },
      };
      const settle = () => new Promise((r) => setTimeout(r, 50));
      // Searched, then closed.
      const a = await store.open({ store: counting });
      right(await a.search("t5x")());
      expect(opened).toBe(1);
      right(await a.close()());
      await settle();
      expect(closed).toBe(1);
      // Preloaded, never searched.
      const b = await store.open({ store: counting, preload: { allNamespaces: true } });
      await settle();
      right(await b.close()());
      await settle();
      expect([opened, closed]).toEqual([2, 2]);
      // Preloaded and closed at once (before the scope's load takes the early read).
      const quick = await store.open({ store: counting, preload: { allNamespaces: true } });
      right(await quick.close()());
      await settle();
      expect(opened).toBe(closed);
      opened = closed = 2;
      // Every list read (a write catches up after reading them all): let go before close.
      const c = await store.open({ store: counting });
      right(await c.search("t5x")());
      right(await c.write([wide(30_000, "a")])());
      right(await c.search("t6x")());
      await settle();
      expect([opened, closed]).toEqual([3, 3]);
      right(await c.close()());
    });

    it("a damaged page of a list: searches that do not read it are restored, the first that does refuses the snapshot and answers from the rows", async () => {
      const { store, bytes, packedAt } = await wideStore();
      // Where each term's list lies in the file (decoded whole, against the table's identity).
      const identity = await identityOf(store);
      const decoded = decodeSnapshot(bytes, { identity, scope: "*", maxGeneration: Number.MAX_SAFE_INTEGER });
      if (E.isLeft(decoded)) throw new Error(JSON.stringify(decoded.left));
      const restoredCache = {
        cache: PostingsCache.restore<number>(decoded.right.image, (d) => d),
        lists: decoded.right.image.lists,
      };
      const pageOf = (term: string): number => {
        const id = restoredCache.cache.termId(term);
        return Math.floor((packedAt + restoredCache.lists.packedStart[id]!) / SNAPSHOT_PAGE);
      };
      const firstPacked = Math.ceil(packedAt / SNAPSHOT_PAGE);
      const target = WIDE.find(
        (t) => pageOf(t) > firstPacked && pageOf(t) === pageOf(WIDE.find((u) => pageOf(u) > firstPacked)!),
      )!;
      const safe = WIDE.find(
        (t) =>
          pageOf(t) === firstPacked &&
          Math.floor(
            (packedAt + restoredCache.lists.packedStart[restoredCache.cache.termId(t) + 1]! - 1) / SNAPSHOT_PAGE,
          ) === firstPacked,
      )!;
      expect(target).toBeDefined();
      expect(safe).toBeDefined();
      const bad = Buffer.from(bytes);
      bad[pageOf(target) * SNAPSHOT_PAGE + 100]! ^= 0x20;
      await store.setBlob("*", bad);

      const events: SnapshotEvent[] = [];
      const index = await store.open({ ...store.snap, onEvent: (e) => events.push(e) });
      const plain = await store.open();
      const same = async (q: string): Promise<void> =>
        expect(shape(right(await index.search(q, { k: 30 })()))).toEqual(
          shape(right(await plain.search(q, { k: 30 })())),
        );
      await same(safe);
      expect(types(events, undefined)).toEqual(["restored"]);
      expect(postingsCacheStats(index)?.loadedEntries).toBe(0);
      await same(target);
      expect(types(events, undefined)).toEqual(["restored", "rejected:checksum"]);
      expect(postingsCacheStats(index)?.loadedEntries).toBe(12_000);
      expect(await wideAnswers(index)).toEqual(await wideAnswers(plain));
      right(await index.close()());
      right(await plain.close()());
      // Replaced by a good one.
      expect(types(events, undefined)).toEqual(["restored", "rejected:checksum", "written"]);
      expect(types(await checked(store), undefined)).toEqual(["restored"]);
    });
  });
