// Binary COPY: the decoder of its tuples (a property over streams encoded here, and every way a
// stream can be malformed), and on a real server: a namespace read by COPY gives the same cache as
// the same namespace read by plain queries (hostile namespace names included), the copy is what
// actually runs, and a copy that fails (a server error, a decoder error, a timeout, a terminated
// backend) rejects once and leaves the connection usable or is a typed error of the index.
import { Buffer } from "node:buffer";
import * as fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entry, type SegmentIndex } from "../src/contract.js";
import {
  arrayElements,
  binaryCopyDecoder,
  copyOut,
  copyOutOf,
  elementLength,
  int8At,
  INT8_OID,
  isNodePgClient,
  sqlLiteral,
  TEXT_OID,
  withCopyOut,
} from "../src/pg-copy.js";
import { openPostgresIndex, pgClient, type SqlClient } from "../src/postgres.js";
import { classifyPgError } from "../src/pg-resilience.js";
import { postingsCacheStats } from "../src/ranking/scopes.js";
import { right } from "./support/contract.js";
import { guardedClient, guardedPool, testDatabase, type TestDatabase } from "./support/postgres.js";
import { runsFor } from "../../../.ci/support/runs.js";

type NodePg = Parameters<typeof copyOut>[0];
/** `c` as the client `copyOut` takes (checked as the library checks it). */
function nodePg(c: pg.Client): NodePg {
  if (!isNodePgClient(c)) throw new Error("not a node-postgres client");
  return c;
}

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

type Field = string | bigint | null;

/** One tuple in the binary COPY format (text fields UTF-8, bigints as int8). */
function tupleBytes(fields: readonly Field[]): Buffer {
  const parts: Buffer[] = [];
  const n = Buffer.alloc(2);
  n.writeInt16BE(fields.length);
  parts.push(n);
  for (const f of fields) {
    const len = Buffer.alloc(4);
    if (f === null) {
      len.writeInt32BE(-1);
      parts.push(len);
    } else if (typeof f === "bigint") {
      len.writeInt32BE(8);
      const v = Buffer.alloc(8);
      v.writeBigInt64BE(f);
      parts.push(len, v);
    } else {
      const v = Buffer.from(f, "utf8");
      len.writeInt32BE(v.length);
      parts.push(len, v);
    }
  }
  return Buffer.concat(parts);
}

/** A whole stream as PostgreSQL sends it: the header with the first tuple, a message per tuple, the trailer alone. */
function stream(tuples: readonly (readonly Field[])[], extension = Buffer.alloc(0)): Buffer[] {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(extension.length, 4);
  const head = Buffer.concat([SIGNATURE, header, extension]);
  const trailer = Buffer.from([0xff, 0xff]);
  if (tuples.length === 0) return [Buffer.concat([head, trailer])];
  return [Buffer.concat([head, tupleBytes(tuples[0]!)]), ...tuples.slice(1).map((t) => tupleBytes(t)), trailer];
}

/** Decodes `chunks` as tuples of (text, int8, text), text read as UTF-8. */
function decode(chunks: readonly Buffer[], fields = 3): Field[][] {
  const out: Field[][] = [];
  const d = binaryCopyDecoder(fields, (b, start, length) => {
    const t: Field[] = [];
    for (let i = 0; i < fields; i++) {
      const s = start[i]!;
      const l = length[i]!;
      if (l < 0) t.push(null);
      else if (i === 1) t.push(BigInt(int8At(b, s, l)));
      else t.push(b.toString("utf8", s, s + l));
    }
    out.push(t);
  });
  for (const c of chunks) d.feed(c);
  d.done();
  return out;
}

const safeInt8 = fc.bigInt({ min: BigInt(Number.MIN_SAFE_INTEGER), max: BigInt(Number.MAX_SAFE_INTEGER) });
const tuple = fc.tuple(fc.option(fc.string({ unit: "grapheme" })), fc.option(safeInt8), fc.option(fc.string()));

describe("binary COPY decoder", () => {
  it("property: decodes every stream of tuples it is given, text (any Unicode) and int8 exactly, NULL as NULL", () => {
    fc.assert(
      fc.property(fc.array(tuple, { maxLength: 20 }), fc.uint8Array({ maxLength: 8 }), (tuples, ext) => {
        // Lone surrogates do not survive UTF-8: compare with what UTF-8 makes of them.
        const utf8 = (s: string | null) => (s === null ? null : Buffer.from(s, "utf8").toString("utf8"));
        const want = tuples.map(([a, b, c]) => [utf8(a), b, utf8(c)]);
        expect(decode(stream(tuples, Buffer.from(ext)))).toEqual(want);
      }),
      { numRuns: runsFor(200, 1000) },
    );
  });

  it("refuses every malformed stream with an error naming what is wrong", () => {
    const good = stream([["a", 1n, "b"]]);
    const bad =
      (chunks: readonly Buffer[], fields = 3) =>
      () =>
        decode(chunks, fields);
    const wrongSignature = Buffer.from(good[0]!);
    wrongSignature[0] = 0x51;
    expect(bad([wrongSignature, good[1]!])).toThrow(/no PGCOPY signature/);
    expect(bad([good[0]!.subarray(0, 10)])).toThrow(/no PGCOPY signature/);
    const bigExtension = Buffer.from(good[0]!);
    bigExtension.writeUInt32BE(1000, 15);
    expect(bad([bigExtension])).toThrow(/header extension cut short/);
    expect(bad(good, 2)).toThrow(/a tuple of 3 fields, expected 2/);
    expect(bad([good[0]!.subarray(0, good[0]!.length - 1), good[1]!])).toThrow(/field cut short/);
    expect(bad([good[0]!.subarray(0, 20), good[1]!])).toThrow(/tuple cut short/);
    expect(bad([good[0]!.subarray(0, 23), good[1]!])).toThrow(/tuple cut short/);
    expect(bad([good[0]!])).toThrow(/no trailer/);
    expect(bad([...good, tupleBytes(["a", 1n, "b"])])).toThrow(/bytes after the trailer/);
    const negative = Buffer.from(good[0]!);
    negative.writeInt32BE(-2, 21);
    expect(bad([negative, good[1]!])).toThrow(/field cut short/);
    // An int8 field of another width, and one beyond 2^53.
    const narrow = stream([["a", null, "b"]]);
    narrow[0]!.writeInt32BE(0, 19 + 2 + 4 + 1);
    expect(() => decode(narrow)).toThrow(/an int8 of 0 bytes/);
    expect(() => decode(stream([["a", 2n ** 60n, "b"]]))).toThrow(/beyond 2\^53/);
  });

  it("property: a one-dimensional array field (array_send's format) gives its elements, NULLs included, and nothing outside it", () => {
    /** `values` as array_send writes them: text elements, or int8 when `oid` is INT8_OID. */
    const arrayBytes = (values: readonly (string | bigint | null)[], oid: number, lower = 1): Buffer => {
      const head = Buffer.alloc(values.length === 0 ? 12 : 20);
      head.writeInt32BE(values.length === 0 ? 0 : 1, 0);
      head.writeInt32BE(values.includes(null) ? 1 : 0, 4);
      head.writeUInt32BE(oid, 8);
      if (values.length > 0) {
        head.writeInt32BE(values.length, 12);
        head.writeInt32BE(lower, 16);
      }
      return Buffer.concat([head, tupleBytes(values).subarray(2)]);
    };
    const read = (b: Buffer, oid: number): (string | bigint | null)[] => {
      const { count, at } = arrayElements(b, 0, b.length, oid);
      const out: (string | bigint | null)[] = [];
      let p = at;
      for (let i = 0; i < count; i++) {
        const len = elementLength(b, p);
        if (len < 0) out.push(null);
        else out.push(oid === INT8_OID ? BigInt(int8At(b, p + 4, len)) : b.toString("utf8", p + 4, p + 4 + len));
        p += 4 + Math.max(len, 0);
      }
      return out;
    };
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.string({ unit: "grapheme" }))),
        fc.array(fc.option(safeInt8)),
        fc.integer({ min: -5, max: 5 }),
        (texts, ints, lower) => {
          expect(read(arrayBytes(texts, TEXT_OID, lower), TEXT_OID)).toEqual(texts);
          expect(read(arrayBytes(ints, INT8_OID, lower), INT8_OID)).toEqual(ints);
          // Any cut of a non-empty array is refused, never read past.
          const whole = arrayBytes(texts, TEXT_OID, lower);
          if (texts.length > 0)
            for (const cut of [1, 4, whole.length - 20]) {
              if (cut <= 0 || cut >= whole.length) continue;
              expect(() => arrayElements(whole, 0, whole.length - cut, TEXT_OID)).toThrow(/malformed binary COPY data/);
            }
        },
      ),
      { numRuns: runsFor(200, 1000) },
    );
    const two = arrayBytes(["a"], TEXT_OID);
    two.writeInt32BE(2, 0);
    expect(() => arrayElements(two, 0, two.length, TEXT_OID)).toThrow(/2 dimensions/);
    expect(() => arrayElements(arrayBytes(["a"], TEXT_OID), 0, 25, INT8_OID)).toThrow(/element type 25, expected 20/);
    const trailing = Buffer.concat([arrayBytes(["a"], TEXT_OID), Buffer.from([0])]);
    expect(() => arrayElements(trailing, 0, trailing.length, TEXT_OID)).toThrow(/bytes after/);
    const negative = arrayBytes(["a"], TEXT_OID);
    negative.writeInt32BE(-3, 12);
    expect(() => arrayElements(negative, 0, negative.length, TEXT_OID)).toThrow(/negative size/);
  });

  it("sqlLiteral quotes anything but a NUL", () => {
    expect(sqlLiteral("it's")).toBe("'it''s'");
    expect(sqlLiteral("a\\'b")).toBe(" E'a\\\\''b'");
    expect(() => sqlLiteral("a\0b")).toThrow(/NUL/);
  });
});

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
  if (db.kind !== "server") throw new Error("the COPY suite needs a real server (set CC_PG_URL or install postgresql)");
});
afterAll(async () => {
  await db.drop();
});

/** A client of the server that reads with plain queries only: `pgClient`'s transaction, without its copy. */
function plainClient(client: SqlClient): SqlClient {
  return { ...client, transaction: (fn) => client.transaction((tx) => fn({ query: (t, p) => tx.query(t, p) })) };
}

/** A pool on the test database whose clients record every statement text they are given. */
function recordingPool(): { readonly client: SqlClient; readonly texts: string[]; readonly end: () => Promise<void> } {
  const owned = guardedPool(db.url, 2, 1000);
  const texts: string[] = [];
  owned.pool.on("connect", (c) => {
    const query = c.query.bind(c) as (...a: unknown[]) => unknown;
    Object.assign(c, {
      query: (...a: unknown[]) => {
        const q = a[0];
        texts.push(typeof q === "string" ? q : String((q as { readonly text?: unknown }).text));
        return query(...a);
      },
    });
  });
  return { client: pgClient(owned.pool), texts, end: owned.end };
}

const shape = (hits: readonly { readonly id: string; readonly namespace: string; readonly score: number }[]) =>
  hits.map((h) => ({ id: h.id, namespace: h.namespace, score: h.score }));

let tables = 0;
describe("namespaces read by COPY (real server)", () => {
  it("property: the same hits, ids, kinds and scores as the same namespace read by plain queries, whatever the namespace, ids and kinds", async () => {
    const rec = recordingPool();
    const plain = plainClient(db.client());
    // Any string: the index stores NUL and lone surrogates in an escaped form, which the COPY's literal quotes.
    const name = fc.oneof(
      fc.string({ unit: "binary", minLength: 1, maxLength: 12 }),
      fc.constantFrom("O'Brien", "a\\b", "'); DROP TABLE x; --", "E'x'", "$$", "ns\u0000z"),
    );
    const word = fc.constantFrom("alpha", "beta", "kalo", "é", "file12.py", "O'Brien", "back\\slash");
    const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(" "));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(name, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(name, words, words, fc.constantFrom("message", "tool", "note's")), {
          minLength: 1,
          maxLength: 15,
        }),
        words,
        async (namespaces, docs, query) => {
          const table = `copy_${tables++}`;
          const writer = right(await openPostgresIndex({ connection: plain, table })());
          const seen = new Set<string>();
          const written = docs
            .map(([id, summary, content, kind], i) => ({
              id,
              summary,
              content,
              kind,
              namespace: namespaces[i % namespaces.length]!,
            }))
            .filter((d) => !seen.has(`${d.namespace}\u0001${d.id}`) && seen.add(`${d.namespace}\u0001${d.id}`));
          right(await writer.write(written.map((d) => entry(d)))());
          const byCopy = right(await openPostgresIndex({ connection: rec.client, table })());
          const byQuery = right(await openPostgresIndex({ connection: plain, table })());
          for (const ns of namespaces) {
            const before = rec.texts.length;
            const got = right(await byCopy.search(query, { namespace: ns, k: 50 })());
            expect(rec.texts.slice(before).some((t) => t.startsWith("COPY ("))).toBe(true);
            const want = right(await byQuery.search(query, { namespace: ns, k: 50 })());
            expect(shape(got)).toEqual(shape(want));
            expect(got.map((h) => h.kind)).toEqual(want.map((h) => h.kind));
            expect(got.every((h) => h.namespace === ns)).toBe(true);
          }
          for (const ix of [writer, byCopy, byQuery]) right(await ix.close()());
        },
      ),
      { numRuns: runsFor(15, 60) },
    );
    await rec.end();
  }, 120_000);

  it("a namespace of several COPY tuples (a hundred rows each) reads as by plain queries, in write order", async () => {
    const table = `copy_${tables++}`;
    const plain = plainClient(db.client());
    const writer = right(await openPostgresIndex({ connection: plain, table })());
    for (let w = 0; w < 3; w++)
      right(
        await writer.write(
          Array.from({ length: 86 }, (_, i) =>
            entry({
              id: `w${w}-${i}`,
              namespace: "big",
              kind: i % 3 === 0 ? "tool" : "message",
              summary: "alpha",
              content: `row ${i}`,
            }),
          ),
        )(),
      );
    const rec = recordingPool();
    const byCopy = right(await openPostgresIndex({ connection: rec.client, table })());
    const byQuery = right(await openPostgresIndex({ connection: plain, table })());
    const got = right(await byCopy.search("alpha", { namespace: "big", k: 300 })());
    expect(rec.texts.some((t) => t.startsWith("COPY ("))).toBe(true);
    expect(got.length).toBe(258);
    expect(shape(got)).toEqual(shape(right(await byQuery.search("alpha", { namespace: "big", k: 300 })())));
    expect(postingsCacheStats(byCopy)?.loadedEntries).toBe(258);
    for (const ix of [writer, byCopy, byQuery]) right(await ix.close()());
    await rec.end();
  });

  it("another process's rows are caught up by COPY, and a namespace deleted meanwhile is gone", async () => {
    const rec = recordingPool();
    const table = `copy_${tables++}`;
    const writer = right(await openPostgresIndex({ connection: db.client(), table })());
    const reader = right(await openPostgresIndex({ connection: rec.client, table })());
    right(await writer.write([entry({ id: "1", namespace: "a", summary: "alpha", content: "one" })])());
    expect(right(await reader.search("alpha", { namespace: "a" })()).map((h) => h.id)).toEqual(["1"]);
    right(await writer.write([entry({ id: "2", namespace: "a", summary: "alpha", content: "two" })])());
    const before = rec.texts.length;
    expect(
      right(await reader.search("alpha", { namespace: "a" })())
        .map((h) => h.id)
        .sort(),
    ).toEqual(["1", "2"]);
    expect(rec.texts.slice(before).some((t) => t.startsWith("COPY ("))).toBe(true);
    right(await writer.deleteNamespace("a")());
    expect(right(await reader.search("alpha", { namespace: "a" })())).toEqual([]);
    for (const ix of [writer, reader]) right(await ix.close()());
    await rec.end();
  });
});

describe("copyOut on a node-postgres client (real server)", () => {
  const withClient = async (f: (c: pg.Client) => Promise<void>) => {
    const c = guardedClient(db.url);
    await c.connect();
    try {
      await f(c);
    } finally {
      await c.end().catch(() => undefined);
    }
  };

  it("a pg client is recognised; anything else is not", async () => {
    await withClient(async (c) => {
      expect(isNodePgClient(c)).toBe(true);
    });
    expect(isNodePgClient({ query: () => undefined })).toBe(false);
    expect(isNodePgClient({ query: () => undefined, connection: { query: () => undefined } })).toBe(false);
    expect(isNodePgClient(null)).toBe(false);
  });

  it("a server error rejects, a decoder error rejects once the copy is read, and the connection is usable after either", async () => {
    await withClient(async (c) => {
      await expect(copyOut(nodePg(c), "COPY (SELECT 1/0) TO STDOUT (FORMAT binary)", () => undefined)).rejects.toThrow(
        /division by zero/,
      );
      expect((await c.query<{ x: number }>("SELECT 1 AS x")).rows).toEqual([{ x: 1 }]);
      let calls = 0;
      const decoder = binaryCopyDecoder(2, () => calls++);
      await expect(
        copyOut(nodePg(c), "COPY (SELECT g FROM generate_series(1, 1000) g) TO STDOUT (FORMAT binary)", decoder.feed),
      ).rejects.toThrow(/a tuple of 1 fields, expected 2/);
      expect(calls).toBe(0);
      expect((await c.query<{ x: number }>("SELECT 2 AS x")).rows).toEqual([{ x: 2 }]);
      // Not a COPY: refused, and the connection still answers.
      await expect(copyOut(nodePg(c), "SELECT 1", () => undefined)).rejects.toThrow(/answered with rows/);
      expect((await c.query<{ x: number }>("SELECT 3 AS x")).rows).toEqual([{ x: 3 }]);
    });
  });

  it("the client's query_timeout ends a copy that hangs; a terminated backend rejects as a lost connection", async () => {
    const timed = new pg.Client({ connectionString: db.url, query_timeout: 200 });
    timed.on("error", () => undefined);
    await timed.connect();
    const t0 = Date.now();
    await expect(
      copyOut(nodePg(timed), "COPY (SELECT pg_sleep(5)) TO STDOUT (FORMAT binary)", () => undefined),
    ).rejects.toThrow(/timeout/i);
    expect(Date.now() - t0).toBeLessThan(4000);
    await timed.end().catch(() => undefined);

    const victim = guardedClient(db.url);
    await victim.connect();
    const pid = (await victim.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const copying = copyOut(nodePg(victim), "COPY (SELECT pg_sleep(5)) TO STDOUT (FORMAT binary)", () => undefined);
    const admin = guardedClient(db.url);
    await admin.connect();
    await new Promise((r) => setTimeout(r, 100));
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    const error = await copying.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(classifyPgError(error)).toBe("connectionLost");
    await admin.end();
    await victim.end().catch(() => undefined);
  });
});

describe("a namespace load by COPY that fails is a typed error, and the next search loads it whole", () => {
  it("the table's terms cannot be read (a corrupt row): StorageError; once fixed, every entry is found", async () => {
    const table = `copy_${tables++}`;
    const client = db.client();
    const writer: SegmentIndex = right(await openPostgresIndex({ connection: client, table })());
    right(
      await writer.write(
        Array.from({ length: 50 }, (_, i) =>
          entry({ id: `e${i}`, namespace: "n", summary: "alpha", content: `row ${i}` }),
        ),
      )(),
    );
    const admin = guardedClient(db.url);
    await admin.connect();
    // A kind the COPY cannot cast is not possible (text); a row made NULL where the index needs a value is.
    await admin.query(`ALTER TABLE ${table} ALTER COLUMN kind DROP NOT NULL`);
    await admin.query(`UPDATE ${table} SET kind = NULL WHERE id = 'e40'`);
    const reader = right(await openPostgresIndex({ connection: client, table })());
    const failed = await reader.search("alpha", { namespace: "n", k: 100 })();
    expect(failed._tag).toBe("Left");
    if (failed._tag === "Left") expect(failed.left._tag).toBe("StorageError");
    await admin.query(`UPDATE ${table} SET kind = 'message' WHERE id = 'e40'`);
    expect(right(await reader.search("alpha", { namespace: "n", k: 100 })()).length).toBe(50);
    await admin.end();
    for (const ix of [writer, reader]) right(await ix.close()());
  });
});

describe("a COPY cut short while catching a namespace up (real server)", () => {
  it("rows taken before the cut stay, the search is a typed error, and the next one finds every entry at its latest version", async () => {
    const table = `copy_${tables++}`;
    const plain = plainClient(db.client());
    const writer = right(await openPostgresIndex({ connection: plain, table })());
    const rows = (from: number, to: number, word: string) =>
      Array.from({ length: to - from }, (_, i) =>
        entry({ id: `e${from + i}`, namespace: "a", summary: `alpha ${word}`, content: `row ${from + i}` }),
      );
    right(await writer.write(rows(0, 300, "first"))());
    // The reader's copies deliver `allow` messages, then fail as a lost connection would, while `cut` is on.
    const base = db.client();
    let cut = false;
    let delivered = 0;
    const faulty: SqlClient = {
      ...base,
      transaction: (fn) =>
        base.transaction((tx) => {
          const copy = copyOutOf(tx);
          const runner = { query: tx.query.bind(tx) };
          if (copy === undefined) return fn(runner);
          return fn(
            withCopyOut(runner, async (text, onData) => {
              if (!cut) return copy(text, onData);
              let seen = 0;
              await copy(text, (chunk) => {
                if (seen++ < 2) {
                  delivered++;
                  onData(chunk);
                }
              });
              throw Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
            }),
          );
        }),
    };
    const reader = right(await openPostgresIndex({ connection: faulty, table })());
    expect(right(await reader.search("alpha", { namespace: "a", k: 1000 })()).length).toBe(300);
    // Another process rewrites some entries and adds more; the reader's catch-up is cut after two messages.
    right(await writer.write([...rows(100, 200, "second"), ...rows(300, 700, "first")])());
    cut = true;
    const failed = await reader.search("alpha", { namespace: "a", k: 1000 })();
    expect(failed._tag).toBe("Left");
    if (failed._tag === "Left") expect(["ConnectionLost", "StorageError"]).toContain(failed.left._tag);
    expect(delivered).toBeGreaterThan(0);
    cut = false;
    const after = right(await reader.search("alpha", { namespace: "a", k: 1000 })());
    const fresh = right(await openPostgresIndex({ connection: plain, table })());
    const want = right(await fresh.search("alpha", { namespace: "a", k: 1000 })());
    expect(after.length).toBe(700);
    expect(shape(after)).toEqual(shape(want));
    expect(right(await reader.search("second", { namespace: "a", k: 1000 })()).length).toBe(100);
    for (const ix of [writer, reader, fresh]) right(await ix.close()());
  });
});
