// The snapshot stores' contract, the same for the directory store and the database stores
// (SQLite file, PostgreSQL): a read gives the last blob written (or none after a removal), its
// parts reported in order; concurrent writes of one name leave one of them whole; a bad name is a
// Left, never a throw. The database stores: a version with a part missing reads short (so the
// decoder refuses it as truncated), and a write leaves only the current version's parts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  postgresSnapshotStore,
  preparePostgresSnapshotTables,
  sqliteSnapshotStore,
} from "../src/database-snapshots.js";
import { directorySnapshotStore, type SnapshotStore } from "../src/snapshot-store.js";
import { testDatabase, type TestDatabase } from "./support/postgres.js";
import { runsFor } from "../../../.ci/support/runs.js";

let dir: string;
let db: TestDatabase;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cc-stores-"));
  db = await testDatabase();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await db.drop();
});

/** Small parts, so a blob of a few dozen bytes spans several. */
const PART = 16;
let n = 0;
interface Made {
  readonly store: SnapshotStore;
  /** Parts stored for `name`, by writer (database stores). */
  readonly parts?: (name: string) => Promise<readonly { writer: string; n: number }[]>;
  /** Deletes part `part` of the current version of `name` (database stores). */
  readonly dropPart?: (name: string, part: number) => Promise<void>;
}
const stores: readonly (readonly [string, (part?: number) => Promise<Made>])[] = [
  ["directory", async () => ({ store: directorySnapshotStore(join(dir, `d${n++}`)) })],
  [
    "sqlite database",
    async (part = PART) => {
      const file = new Database(join(dir, `s${n}.db`));
      const table = `t${n++}`;
      const store = sqliteSnapshotStore(file, table, part);
      return {
        store,
        parts: async (name) =>
          file
            .prepare<[string], { writer: string; n: number }>(
              `SELECT writer, count(*) AS n FROM "${table}_snapshot_parts" WHERE name = ? GROUP BY writer`,
            )
            .all(name),
        dropPart: async (name, part) =>
          void file
            .prepare(
              `DELETE FROM "${table}_snapshot_parts" WHERE name = ? AND part = ? AND writer = (SELECT writer FROM "${table}_snapshots" WHERE name = ?)`,
            )
            .run(name, part, name),
      };
    },
  ],
  [
    "postgres database",
    async (part = PART) => {
      const client = db.client();
      const table = `t${n++}`;
      await client.transaction((tx) => preparePostgresSnapshotTables(tx, table));
      return {
        store: postgresSnapshotStore(client, table, part),
        parts: async (name) =>
          (
            await client.query<{ writer: string; n: string }>(
              `SELECT writer, count(*) AS n FROM ${table}_snapshot_parts WHERE name = $1 GROUP BY writer`,
              [name],
            )
          ).rows.map((r) => ({
            writer: r.writer,
            n: Number(r.n),
          })),
        dropPart: async (name, part) =>
          void (await client.query(
            `DELETE FROM ${table}_snapshot_parts WHERE name = $1 AND part = $2 AND writer = (SELECT writer FROM ${table}_snapshots WHERE name = $1)`,
            [name, part],
          )),
      };
    },
  ],
];

/** Reads `name`, checking that the reported parts are the blob's bytes in order. */
async function readChecked(store: SnapshotStore, name: string): Promise<Uint8Array | undefined> {
  const seen: Buffer[] = [];
  let next = 0;
  const got = await store.read(name, (chunk, offset, total) => {
    expect(offset).toBe(next);
    expect(offset + chunk.length).toBeLessThanOrEqual(total);
    next += chunk.length;
    seen.push(Buffer.from(chunk));
  });
  if (got._tag === "Left") throw new Error(got.left.message);
  if (got.right !== undefined && got.right.length > 0) expect(Buffer.concat(seen)).toEqual(Buffer.from(got.right));
  return got.right;
}

for (const [name, make] of stores) {
  describe(`snapshot store: ${name}`, () => {
    it("property: a read gives the last blob written, none after a removal", async () => {
      const op = fc.oneof(
        fc.record({
          write: fc.constantFrom("a.ccsnap", "b.ccsnap"),
          bytes: fc.uint8Array({ minLength: 1, maxLength: 5 * PART + 3 }),
        }),
        fc.record({ remove: fc.constantFrom("a.ccsnap", "b.ccsnap") }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
          const { store, parts } = await make();
          const model = new Map<string, Uint8Array>();
          for (const o of ops) {
            if ("write" in o) {
              expect((await store.write(o.write, o.bytes))._tag).toBe("Right");
              model.set(o.write, o.bytes);
            } else {
              expect((await store.remove(o.remove))._tag).toBe("Right");
              model.delete(o.remove);
            }
            for (const k of ["a.ccsnap", "b.ccsnap"]) {
              const got = await readChecked(store, k);
              expect(got === undefined ? undefined : Buffer.from(got)).toEqual(
                model.has(k) ? Buffer.from(model.get(k)!) : undefined,
              );
              // Only the current version's parts are kept.
              if (parts !== undefined) expect((await parts(k)).length).toBe(model.has(k) ? 1 : 0);
            }
          }
        }),
        { numRuns: runsFor(15, 30) },
      );
    });

    it("concurrent writes of one name leave one of them whole", async () => {
      const { store, parts } = await make();
      const blobs = [1, 2, 3, 4].map((v) => new Uint8Array(3 * PART + v).fill(v));
      const results = await Promise.all(blobs.map((b) => store.write("c.ccsnap", b)));
      expect(results.map((r) => r._tag)).toEqual(["Right", "Right", "Right", "Right"]);
      const got = await readChecked(store, "c.ccsnap");
      expect(blobs.some((b) => got !== undefined && Buffer.from(b).equals(Buffer.from(got)))).toBe(true);
      // What a race leaves behind (a concurrent writer's superseded parts) is gone after the next write.
      await store.write("c.ccsnap", blobs[0]!);
      if (parts !== undefined) expect((await parts("c.ccsnap")).length).toBeLessThanOrEqual(4);
    });

    it("a bad name is a Left, never a throw", async () => {
      const { store } = await make();
      for (const bad of ["", "../x", "a/b", ".hidden"]) {
        expect((await store.read(bad))._tag).toBe("Left");
        expect((await store.write(bad, new Uint8Array([1])))._tag).toBe("Left");
        expect((await store.remove(bad))._tag).toBe("Left");
      }
    });

    it("a large blob, in large parts read piece by piece, comes back whole", async () => {
      const { store } = await make(200_000);
      const blob = Uint8Array.from({ length: 1_234_567 }, (_, i) => (i * 7919) & 255);
      expect((await store.write("big.ccsnap", blob))._tag).toBe("Right");
      const got = await readChecked(store, "big.ccsnap");
      expect(got !== undefined && Buffer.from(got).equals(Buffer.from(blob))).toBe(true);
    });

    if (name !== "directory")
      it("a version with a part missing reads short (its prefix up to the gap)", async () => {
        const { store, dropPart } = await make();
        const blob = Uint8Array.from({ length: 4 * PART }, (_, i) => i);
        await store.write("g.ccsnap", blob);
        await dropPart!("g.ccsnap", 2);
        const got = await readChecked(store, "g.ccsnap");
        expect(got !== undefined && Buffer.from(got)).toEqual(Buffer.from(blob.subarray(0, 2 * PART)));
      });
  });
}
