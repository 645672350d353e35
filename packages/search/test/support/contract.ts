// The one behavioural contract every SegmentIndex backend must honour.
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { IndexEntry, IndexError, SearchHit, SegmentIndex } from "../../src/contract.js";
import { entry } from "../../src/contract.js";
import { queryTerms, tokenize } from "../../src/query.js";
import { losslessContract } from "./lossless-contract.js";
import { rankingContract } from "./ranking-contract.js";
import { runsFor } from "../../../../.ci/support/runs.js";

/** Property-test runs: ≥ 1000 in CI. */
export const runs = (local: number): number => runsFor(local, Math.max(1000, local));

/** Unwraps a Right or fails the test with the Left. */
export function right<A>(r: E.Either<unknown, A>): A {
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left)}`);
  return r.right;
}

/** Unwraps a Left or fails the test. */
export function left<A>(r: E.Either<IndexError, A>): IndexError {
  if (E.isRight(r)) throw new Error(`expected Left, got Right ${JSON.stringify(r.right).slice(0, 200)}`);
  return r.left;
}

/** Strings that are FTS5, tsquery, SQL or regex syntax, plus sizes and Unicode that break naive code. */
export const NASTY_QUERIES: readonly string[] = [
  "",
  " ",
  '"',
  '""',
  "'",
  "''",
  "' OR 1=1 --",
  "'; DROP TABLE cc_segments; --",
  "AND",
  "OR",
  "NOT",
  "NEAR",
  "NEAR(a b, 2)",
  "a AND b OR NOT c",
  "*",
  "a*",
  "^a",
  ":",
  "summary:secret",
  "{summary content}: x",
  "(",
  ")",
  "((a)",
  "a & b | !c <-> d",
  "!!",
  "a:*",
  "\\",
  "\\'",
  "$1",
  "%",
  "_",
  "\u0000",
  "\uD800",
  "\uDC00x",
  "数据库连接失败",
  "🔥💥 crash",
  "Ω≈ç√∫",
  "x".repeat(100_000),
  "a ".repeat(50_000),
  "-",
  "+a -b",
  "[",
  ".*",
];

const corpus: readonly IndexEntry[] = [
  entry({
    id: "e1",
    summary: "Read src/app.py: defines main() and parse_config",
    content: "def parse_config(path):\n    return load(path)\n",
    kind: "file",
  }),
  entry({
    id: "e2",
    summary: "pytest run failed",
    content: "FAILED tests/test_io.py::test_roundtrip - ValueError: bad header",
    kind: "tool_result",
  }),
  entry({
    id: "e3",
    summary: "User asked to fix the CSV reader",
    content: "Please fix the csv reader so it handles quoted newlines.",
    kind: "message",
  }),
  entry({
    id: "e4",
    summary: "数据库连接失败 when starting the service",
    content: "错误: 数据库连接失败 (timeout 30s) 🔥",
    kind: "tool_result",
  }),
  entry({
    id: "e5",
    summary: "grep output",
    content: "NEAR AND OR NOT * : ( ) ' \" matched lines",
    kind: "tool_result",
  }),
];

function termsOf(e: IndexEntry): Set<string> {
  return new Set([...tokenize(e.summary), ...tokenize(e.content)]);
}

/** True when every hit shares at least one query term with its entry (nothing matched "everything"). */
function honest(hits: readonly SearchHit[], query: string, byId: ReadonlyMap<string, IndexEntry>): boolean {
  const q = queryTerms(query);
  return hits.every((h) => {
    const e = byId.get(h.id);
    if (e === undefined) return false;
    const t = termsOf(e);
    return q.some((term) => t.has(term));
  });
}

/** Registers the contract suite for one backend. `makeIndex` returns a fresh, empty index. */
export function indexContract(name: string, makeIndex: () => Promise<SegmentIndex>): void {
  describe(`SegmentIndex contract: ${name}`, () => {
    losslessContract(makeIndex);
    rankingContract(makeIndex);

    const seeded = async (): Promise<SegmentIndex> => {
      const index = await makeIndex();
      right(await index.write(corpus)());
      return index;
    };

    it("a search across every namespace, once loaded, follows a namespace delete and a write to another namespace", async () => {
      const index = await makeIndex();
      right(await index.write([entry({ id: "x1", namespace: "gone", summary: "", content: "reader.py" })])());
      expect(right(await index.search("py")()).map((h) => h.id)).toEqual(["x1"]);
      right(await index.deleteNamespace("gone")());
      right(await index.write([entry({ id: "x2", namespace: "kept", summary: "", content: "writer.py" })])());
      expect(right(await index.search("py")()).map((h) => `${h.namespace}/${h.id}`)).toEqual(["kept/x2"]);
      right(await index.close()());
    });

    it("finds an entry by a summary term and by a content term, and expands it to the exact original", async () => {
      const index = await seeded();
      const bySummary = right(await index.search("parse_config")());
      expect(bySummary[0]?.id).toBe("e1");
      const byContent = right(await index.search("roundtrip")());
      expect(byContent.map((h) => h.id)).toEqual(["e2"]);
      expect(byContent[0]?.snippet).toContain("**roundtrip**");
      expect(right(await index.expand("e2")())).toEqual(corpus[1]);
      expect(right(await index.expand("missing")())).toBeUndefined();
      right(await index.close()());
    });

    it("ranks an entry matching more query terms first, and a summary match above a content match", async () => {
      const index = await makeIndex();
      right(
        await index.write([
          entry({ id: "one", summary: "alpha", content: "filler text here" }),
          entry({ id: "two", summary: "alpha beta", content: "filler text here" }),
          entry({ id: "s", summary: "gamma notes", content: "unrelated words only" }),
          entry({ id: "c", summary: "other notes", content: "unrelated gamma only" }),
        ])(),
      );
      expect(right(await index.search("alpha beta")()).map((h) => h.id)).toEqual(["two", "one"]);
      expect(right(await index.search("gamma")()).map((h) => h.id)).toEqual(["s", "c"]);
      right(await index.close()());
    });

    it("upserts by (namespace, id) when the original is the same: the newest summary replaces the old one", async () => {
      const index = await seeded();
      const old = right(await index.expand("e3")())!;
      right(await index.write([{ ...old, summary: "rewritten completely", evictedAt: old.evictedAt + 1 }])());
      expect(right(await index.count()())).toBe(corpus.length);
      expect(right(await index.search("completely")()).map((h) => h.id)).toEqual(["e3"]);
      expect(right(await index.expand("e3")())).toEqual({
        ...old,
        summary: "rewritten completely",
        evictedAt: old.evictedAt + 1,
      });
      right(await index.close()());
    });

    it("refuses a write that would replace a different original under the same (namespace, id): IdConflict naming the id, nothing of the batch written", async () => {
      const index = await seeded();
      const old = right(await index.expand("e3")())!;
      const r = await index.write([
        entry({ id: "fresh-1", summary: "fresh" }),
        entry({ id: "e3", summary: "rewritten", content: "completely new text" }),
      ])();
      expect(left(r)).toMatchObject({
        _tag: "IdConflict",
        namespace: "default",
        id: "e3",
        message: expect.stringContaining('"e3"'),
      });
      expect(right(await index.expand("e3")())).toEqual(old);
      expect(right(await index.expand("fresh-1")())).toBeUndefined();
      expect(right(await index.count()())).toBe(corpus.length);
      // The same id in another namespace is another entry.
      right(
        await index.write([entry({ id: "e3", namespace: "other", summary: "x", content: "completely new text" })])(),
      );
      // Rewriting the identical entry stays idempotent.
      right(await index.write([old])());
      right(await index.write([old])());
      expect(right(await index.expand("e3")())).toEqual(old);
      right(await index.close()());
    });

    it("property: a write succeeds exactly when no id already holds a different original, and never changes an original", async () => {
      // One index for the whole property, a fresh namespace per run: the same contract, without
      // paying a new table per run on the database backends.
      const index = await makeIndex();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.array(
              fc.record({ id: fc.constantFrom("a", "b", "c", "d"), content: fc.constantFrom("one", "two", "three") }),
              { maxLength: 4 },
            ),
            { maxLength: 5 },
          ),
          async (batches) => {
            const namespace = `conflict-${run++}`;
            const model = new Map<string, string>();
            for (const raw of batches) {
              const seen = new Set<string>();
              const batch = raw
                .filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)))
                .map((e) => entry({ id: e.id, namespace, summary: `about ${e.id}`, content: e.content }));
              const clash = batch.some((e) => model.has(e.id) && model.get(e.id) !== e.content);
              const r = await index.write(batch)();
              if (clash) expect(left(r)._tag).toBe("IdConflict");
              else {
                right(r);
                for (const e of batch) model.set(e.id, e.content);
              }
              for (const [id, content] of model)
                expect(right(await index.expand(id, namespace)())?.content).toBe(content);
            }
          },
        ),
        { numRuns: runs(15) },
      );
      right(await index.close()());
    }, 300_000);

    it("filters by namespace and kinds, limits to k, and deletes one namespace only", async () => {
      const index = await makeIndex();
      const many = Array.from({ length: 30 }, (_, i) =>
        entry({
          id: `m${i}`,
          namespace: i % 2 === 0 ? "alice" : "bob",
          kind: i % 3 === 0 ? "file" : "tool_result",
          summary: `shared token ${i}`,
        }),
      );
      right(await index.write(many)());
      expect(right(await index.search("shared", { k: 5 })())).toHaveLength(5);
      const alice = right(await index.search("shared", { k: 100, namespace: "alice" })());
      expect(alice).toHaveLength(15);
      expect(alice.every((h) => h.namespace === "alice")).toBe(true);
      const files = right(await index.search("shared", { k: 100, kinds: ["file"] })());
      expect(files).toHaveLength(10);
      expect(files.every((h) => h.kind === "file")).toBe(true);
      expect(right(await index.search("shared", { kinds: [] })())).toEqual([]);
      expect(right(await index.deleteNamespace("alice")())).toBe(15);
      expect(right(await index.count("alice")())).toBe(0);
      expect(right(await index.count("bob")())).toBe(15);
      expect(right(await index.deleteNamespace("nobody")())).toBe(0);
      expect(right(await index.expand("m1", "bob")())?.summary).toBe("shared token 1");
      right(await index.close()());
    });

    it("rejects bad search options with a message naming the field", async () => {
      const index = await seeded();
      for (const k of [0, -1, Number.NaN, 1.5, Number.POSITIVE_INFINITY, 1e9]) {
        const err = left(await index.search("main", { k })());
        expect(err).toMatchObject({ _tag: "InvalidOptions", subject: "search options" });
        expect(JSON.stringify(err)).toContain("k:");
      }
      right(await index.close()());
    });

    it("rejects a bad batch atomically, naming each index and field, and keeps what was there", async () => {
      const index = await seeded();
      const bad: unknown[] = [
        entry({ id: "ok1", summary: "fine" }),
        entry({ id: "", summary: "empty id" }),
        entry({ id: "nan", tokenCost: Number.NaN }),
        entry({ id: "neg", createdAt: -5 }),
        entry({ id: "huge", tokenCost: Number.POSITIVE_INFINITY }),
        entry({ id: "kind", kind: 7 as unknown as string }),
        entry({ id: "meta", metadata: { n: Number.NaN } }),
        entry({ id: "ok1", summary: "duplicate" }),
        { id: "shape" },
      ];
      const err = left(await index.write(bad as IndexEntry[])());
      expect(err).toMatchObject({ _tag: "InvalidInput", subject: "index entries" });
      const text = JSON.stringify(err);
      for (const needle of [
        "entries[1].id",
        "entries[2].tokenCost",
        "entries[3].createdAt",
        "entries[4].tokenCost",
        "entries[5].kind: expected a string",
        "entries[6].metadata.n",
        "entries[7].id: duplicate",
        "entries[8]",
      ]) {
        expect(text).toContain(needle);
      }
      expect(right(await index.count()())).toBe(corpus.length);
      expect(right(await index.expand("ok1")())).toBeUndefined();
      right(await index.close()());
    });

    it("stores CJK, emoji, combining marks and 1 MB of content losslessly, and finds them", async () => {
      const index = await makeIndex();
      const big = `${"line of log output\n".repeat(55_000)}needle_at_the_end`;
      const odd = entry({
        id: "ü-🔥-键",
        summary: "Ünïcödé 🔥 e\u0301 שלום",
        content: "数据库连接失败",
        metadata: { nested: { list: [1, "二", null, true] } },
      });
      right(await index.write([odd, entry({ id: "big", content: big, tokenCost: 250_000 })])());
      expect(right(await index.expand("ü-🔥-键")())).toEqual(odd);
      expect(right(await index.expand("big")())?.content).toBe(big);
      expect(right(await index.search("连接")()).map((h) => h.id)).toEqual(["ü-🔥-键"]);
      expect(right(await index.search("needle")()).map((h) => h.id)).toEqual(["big"]);
      expect(right(await index.search("שלום")()).map((h) => h.id)).toEqual(["ü-🔥-键"]);
      right(await index.close()());
    });

    it("indexes an entry of many distinct long terms (past PostgreSQL's 1 MB tsvector) like every backend: terms capped, original kept whole", async () => {
      const index = await makeIndex();
      // 30,000 distinct 60-letter terms (about 1.8 MB): more than any backend indexes in one field.
      const term = (i: number): string => `w${i.toString(36).padStart(4, "0")}${"x".repeat(55)}`;
      const content = Array.from({ length: 30_000 }, (_, i) => term(i)).join(" ");
      const summary = Array.from({ length: 20_000 }, (_, i) => term(i + 100_000)).join(" ");
      const big = entry({ id: "many-terms", summary, content });
      right(await index.write([big, entry({ id: "small", summary: "small neighbour", content: term(0) })])());
      expect(right(await index.expand("many-terms")())).toEqual(big);
      // An early term is indexed in both fields; a term past the cap is not, on every backend alike.
      expect(
        right(await index.search(term(0))())
          .map((h) => h.id)
          .sort(),
      ).toEqual(["many-terms", "small"]);
      expect(right(await index.search(term(100_001))()).map((h) => h.id)).toEqual(["many-terms"]);
      expect(right(await index.search(term(29_999))())).toEqual([]);
      expect(right(await index.search(term(119_999))())).toEqual([]);
      // Rewriting it (an upsert of the same size) works too.
      right(await index.write([big])());
      expect(right(await index.count()())).toBe(2);
      right(await index.close()());
    });

    it("returns no hits for an empty or punctuation-only query, and writes an empty batch as 0", async () => {
      const index = await seeded();
      for (const q of ["", "   ", "*", '"', "()", ":"]) expect(right(await index.search(q)())).toEqual([]);
      expect(right(await index.write([])())).toEqual({ written: 0 });
      right(await index.close()());
    });

    it("answers IndexClosed after close", async () => {
      const index = await seeded();
      right(await index.close()());
      expect(left(await index.search("main")())._tag).toBe("IndexClosed");
      expect(left(await index.write([entry({ id: "late" })])())._tag).toBe("IndexClosed");
    });

    it("treats query syntax as data: nasty queries never fail, never match everything, never drop data", async () => {
      const index = await seeded();
      const byId = new Map(corpus.map((e) => [e.id, e]));
      for (const q of NASTY_QUERIES) {
        const hits = right(await index.search(q, { k: 100 })());
        expect(honest(hits, q, byId), `query ${JSON.stringify(q.slice(0, 40))}`).toBe(true);
      }
      expect(right(await index.search("NEAR NOT")()).map((h) => h.id)).toEqual(["e5"]);
      expect(right(await index.count()())).toBe(corpus.length);
      right(await index.close()());
    });

    it("property: any string as a query returns Right with honest hits and leaves the data intact", async () => {
      const index = await seeded();
      const byId = new Map(corpus.map((e) => [e.id, e]));
      const query = fc.oneof(
        fc.string(),
        fc.string({ unit: "binary" }),
        fc
          .array(fc.constantFrom(...NASTY_QUERIES.filter((q) => q.length < 100), "main", "csv", "数据"), {
            maxLength: 6,
          })
          .map((xs) => xs.join(" ")),
      );
      await fc.assert(
        fc.asyncProperty(query, fc.integer({ min: 1, max: 50 }), async (q, k) => {
          const r = await index.search(q, { k })();
          expect(E.isRight(r)).toBe(true);
          const hits = right(r);
          expect(hits.length).toBeLessThanOrEqual(k);
          expect(honest(hits, q, byId)).toBe(true);
        }),
        { numRuns: runs(200) },
      );
      expect(right(await index.count()())).toBe(corpus.length);
      right(await index.close()());
    });
  });
}
