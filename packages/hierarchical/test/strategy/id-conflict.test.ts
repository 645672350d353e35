// Unit ids carry 128 bits, and an id another original already holds in the index costs only that
// unit its first-choice id: it is written under a deterministic alternative (or, when every
// alternative is taken too, stays in context); every other unit of the pass is written.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSegments, evictUnits, indexWriter, withNote } from "@cc/hierarchical";
import { entry, memoryIndex, openPostgresIndex, openSqliteIndex, type SegmentIndex } from "@cc/search";
import { alternativeId, ID_ALTERNATIVES, MASK_PREFIX, unitId } from "@cc/test-support/hierarchical";
import { stubId } from "../../src/strategy/mask.js";
import { type Message } from "@cc/messages";
import { estimateCounter } from "@cc/tokens";
import { testDatabase, type TestDatabase } from "../../../search/test/support/postgres.js";
import { runsFor } from "../../../../.ci/support/runs.js";

const counter = estimateCounter();
const NOW = 1_700_000_000_000;
const sys: Message = { role: "system", content: "You are a coding agent." };
const conversation = (n: number): Message[] => {
  const out: Message[] = [sys, { role: "user", content: "Fix the failing test" }];
  for (let i = 0; i < n; i++) {
    out.push({
      role: "assistant",
      content: `run t${i}`,
      toolCalls: [{ id: `t${i}`, name: "bash", arguments: `{"cmd":"cat src/t${i}.py"}` }],
    });
    out.push({
      role: "tool",
      content: `${"line of output\n".repeat(60)} src/t${i}.py`,
      toolCallId: `t${i}`,
      name: "bash",
    });
  }
  out.push({ role: "user", content: "run the tests again" });
  return out;
};
const settings = { targetTokens: 1500, preserveLast: 2, namespace: "ns", noteTokens: 200, concurrency: 2 };

let dir: string;
let pgdb: TestDatabase;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cc-id-conflict-"));
  pgdb = await testDatabase();
});
afterAll(async () => {
  await pgdb.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("unit ids", () => {
  it("carry 128 bits: `u` + 32 hex digits of the SHA-256 of the unit's messages", () => {
    const segs = buildSegments(conversation(3), { counter, now: NOW, preserveLast: 2 });
    for (const s of segs) expect(s.id).toMatch(/^u[0-9a-f]{32}(\.\d+)?$/);
    const first = segs[0]!;
    expect(first.id).toBe(
      `u${createHash("sha256").update(JSON.stringify(first.unit.messages)).digest("hex").slice(0, 32)}`,
    );
    expect(unitId(first.unit)).toBe(first.id);
    const bits = (first.id.length - 1) * 4;
    expect(bits).toBeGreaterThanOrEqual(128);
  });

  it("alternatives are deterministic, distinct and never the form of a first-choice id", () => {
    const id = unitId({ start: 0, end: 1, messages: [sys] });
    const alts = Array.from({ length: ID_ALTERNATIVES }, (_, i) => alternativeId(id, i + 1));
    expect(alts).toEqual(Array.from({ length: ID_ALTERNATIVES }, (_, i) => `${id}~${i + 1}`));
    expect(new Set([id, ...alts]).size).toBe(ID_ALTERNATIVES + 1);
    for (const a of alts) expect(a).not.toMatch(/^u[0-9a-f]{32}(\.\d+)?$/);
  });
});

/** Ids and contents a pass over `m` evicts into an empty index (the pass is deterministic). */
async function firstChoice(m: readonly Message[]): Promise<ReadonlyMap<string, string>> {
  const scratch = memoryIndex();
  const r = await evictUnits(m, settings, { index: scratch, counter, now: NOW })();
  if (E.isLeft(r)) throw new Error(r.left.message);
  const out = new Map<string, string>();
  for (const e of r.right.evicted) {
    const x = await scratch.expand(e.id, "ns")();
    if (E.isLeft(x) || x.right === undefined) throw new Error(`scratch entry ${e.id} missing`);
    out.set(e.id, x.right.content);
  }
  return out;
}

const backends: readonly (readonly [string, () => Promise<SegmentIndex>])[] = [
  ["memory", async () => memoryIndex()],
  [
    "sqlite",
    async () =>
      E.getOrElseW((e) => {
        throw new Error(JSON.stringify(e));
      })(await openSqliteIndex({ path: join(dir, `${Math.random().toString(36).slice(2)}.db`) })()),
  ],
  [
    "postgres",
    async () =>
      E.getOrElseW((e) => {
        throw new Error(JSON.stringify(e));
      })(await openPostgresIndex({ connection: pgdb.client(), table: `t_${Math.random().toString(36).slice(2)}` })()),
  ],
];

const foreign = (id: string): ReturnType<typeof entry> =>
  entry({ id, namespace: "ns", summary: "another writer's entry", content: `another original under ${id}` });

describe.each(backends)(
  "a pass over a %s index that already holds another original under one unit's id",
  (_name, open) => {
    it("writes that unit under its first free alternative, reports it, and writes every other unit", async () => {
      const m = conversation(8);
      const ids = await firstChoice(m);
      expect(ids.size).toBeGreaterThan(2);
      const [taken] = [...ids.keys()];
      const index = await open();
      expect(E.isRight(await index.write([foreign(taken!)])())).toBe(true);
      const r = await evictUnits(m, settings, { index, counter, now: NOW })();
      if (E.isLeft(r)) throw new Error(r.left.message);
      const ev = r.right;
      expect(ev.failures).toEqual([]);
      expect(ev.disambiguated).toEqual([{ id: taken, writtenAs: alternativeId(taken!, 1) }]);
      expect(ev.evicted.map((e) => e.id).sort()).toEqual(
        [...ids.keys()].map((id) => (id === taken ? alternativeId(id, 1) : id)).sort(),
      );
      for (const [id, content] of ids) {
        const at = id === taken ? alternativeId(id, 1) : id;
        expect(E.map((x: { content: string } | undefined) => x?.content)(await index.expand(at, "ns")())).toEqual(
          E.right(content),
        );
      }
      expect(E.map((x: { content: string } | undefined) => x?.content)(await index.expand(taken!, "ns")())).toEqual(
        E.right(`another original under ${taken}`),
      );
      expect(ev.note).toContain(`- ${alternativeId(taken!, 1)} (`);
      expect(ev.note).not.toContain(`- ${taken} (`);
      expect(counter.countMessages(withNote(ev.kept, ev.note)) <= settings.targetTokens).toBe(ev.budgetMet);
      // The same pass again (another session with the same units) lands on the same ids: upserts.
      const again = await evictUnits(m, settings, { index, counter, now: NOW })();
      expect(E.isRight(again) && again.right.evicted.map((e) => e.id)).toEqual(ev.evicted.map((e) => e.id));
      expect(E.isRight(again) && again.right.disambiguated).toEqual(ev.disambiguated);
      expect(await index.count("ns")()).toEqual(E.right(ids.size + 1));
      right(await index.close()());
    });

    it("keeps the unit in context, with an IdConflict failure, when every alternative is taken too", async () => {
      const m = conversation(8);
      const ids = await firstChoice(m);
      const [taken] = [...ids.keys()];
      const index = await open();
      const all = [taken!, ...Array.from({ length: ID_ALTERNATIVES }, (_, i) => alternativeId(taken!, i + 1))];
      expect(E.isRight(await index.write(all.map(foreign))())).toBe(true);
      const r = await evictUnits(m, settings, { index, counter, now: NOW })();
      if (E.isLeft(r)) throw new Error(r.left.message);
      const ev = r.right;
      expect(ev.disambiguated).toEqual([]);
      expect(ev.failures).toEqual([{ id: taken, reason: expect.stringContaining("IdConflict") }]);
      const unit = ev.segments.find((s) => s.id === taken)!;
      for (const message of unit.unit.messages) expect(ev.kept).toContain(message);
      for (const id of ids.keys()) if (id !== taken) expect(ev.evicted.map((e) => e.id)).toContain(id);
      for (const id of all)
        expect(E.map((x: { content: string } | undefined) => x?.content)(await index.expand(id, "ns")())).toEqual(
          E.right(`another original under ${id}`),
        );
      expect(counter.countMessages(withNote(ev.kept, ev.note)) <= settings.targetTokens).toBe(ev.budgetMet);
      right(await index.close()());
    });
  },
);

describe("conflicting entries, any subset of a pass", () => {
  it("property: every other unit is written and findable; each conflicting one is reported once and expands under its new id or is still kept", async () => {
    const cache = new Map<number, ReadonlyMap<string, string>>();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 4, max: 10 }),
        fc.array(fc.constantFrom("free", "id", "all"), { minLength: 10, maxLength: 10 }),
        async (n, modes) => {
          const m = conversation(n);
          const ids = cache.get(n) ?? (await firstChoice(m));
          cache.set(n, ids);
          const mode = new Map([...ids.keys()].map((id, i) => [id, modes[i]!]));
          const index = memoryIndex();
          const planted = [...mode].flatMap(([id, k]) =>
            k === "free"
              ? []
              : k === "id"
                ? [id]
                : [id, ...Array.from({ length: ID_ALTERNATIVES }, (_, i) => alternativeId(id, i + 1))],
          );
          if (planted.length > 0) right(await index.write(planted.map(foreign))());
          const ev = right(await evictUnits(m, settings, { index, counter, now: NOW })());
          const evicted = new Set(ev.evicted.map((e) => e.id));
          const hits = new Set(
            right(await index.search("line output", { namespace: "ns", k: 1000 })()).map((h) => h.id),
          );
          for (const [id, k] of mode) {
            const reports = [...ev.disambiguated.filter((d) => d.id === id), ...ev.failures.filter((f) => f.id === id)];
            if (k === "free") {
              expect(reports).toEqual([]);
              expect(evicted.has(id) && hits.has(id)).toBe(true);
              expect(right(await index.expand(id, "ns")())?.content).toBe(ids.get(id));
              continue;
            }
            expect(reports).toHaveLength(1);
            const d = ev.disambiguated.find((x) => x.id === id);
            if (d !== undefined) {
              expect(k).toBe("id");
              expect(evicted.has(d.writtenAs) && hits.has(d.writtenAs)).toBe(true);
              expect(right(await index.expand(d.writtenAs, "ns")())?.content).toBe(ids.get(id));
            } else {
              expect(k).toBe("all");
              // The unit stays: each message as it was, or (when the pass was still over its target)
              // clipped to a stub whose original expands byte for byte.
              for (const message of ev.segments.find((x) => x.id === id)!.unit.messages) {
                if (ev.kept.includes(message)) continue;
                const stub = ev.kept.find(
                  (k) =>
                    k.role === message.role &&
                    k.content.startsWith(MASK_PREFIX) &&
                    (k.role !== "tool" || message.role !== "tool" || k.toolCallId === message.toolCallId),
                );
                const sid = stub === undefined ? undefined : stubId(stub.content);
                expect(sid).toBeDefined();
                expect(right(await index.expand(sid!, "ns")())?.content).toBe(message.content);
              }
            }
          }
          for (const id of planted)
            expect(right(await index.expand(id, "ns")())?.content).toBe(`another original under ${id}`);
          expect(counter.countMessages(withNote(ev.kept, ev.note)) <= settings.targetTokens).toBe(ev.budgetMet);
        },
      ),
      { numRuns: runsFor(50, 200) },
    );
  }, 300_000);
});

describe("indexWriter", () => {
  it("refuses a conflicting write by default (an id the caller chose is the caller's to fix)", async () => {
    const index = memoryIndex();
    right(await index.write([foreign("t1")])());
    const r = await indexWriter(index, { namespace: "ns" }).writeSummary({ id: "t1", content: "mine" }, "s", {
      evictedAt: NOW,
      signal: new AbortController().signal,
    })();
    expect(r).toMatchObject(E.left({ _tag: "IndexWriteFailed", error: { _tag: "IdConflict", id: "t1" } }));
    expect(await index.count()()).toEqual(E.right(1));
  });

  it('with idConflicts: "disambiguate" writes under the first alternative that is free or holds the same original', async () => {
    const index = memoryIndex();
    right(
      await index.write([
        foreign("t1"),
        foreign(alternativeId("t1", 1)),
        entry({ id: alternativeId("t1", 2), namespace: "ns", content: "mine" }),
      ])(),
    );
    const writer = indexWriter(index, { namespace: "ns", idConflicts: "disambiguate" });
    const r = await writer.writeSummary({ id: "t1", content: "mine" }, "new summary", {
      evictedAt: NOW,
      signal: new AbortController().signal,
    })();
    expect(r).toEqual(E.right({ id: alternativeId("t1", 2) }));
    expect(await index.expand(alternativeId("t1", 2), "ns")()).toMatchObject(
      E.right({ content: "mine", summary: "new summary" }),
    );
    expect(await index.count()()).toEqual(E.right(3));
    expect(
      await writer.writeSummary({ id: "t9", content: "free" }, "s", {
        evictedAt: NOW,
        signal: new AbortController().signal,
      })(),
    ).toEqual(E.right({ id: "t9" }));
  });

  it("refuses an unknown idConflicts value (InvalidOptions naming the field)", async () => {
    const writer = indexWriter(memoryIndex(), { idConflicts: "rename" as "refuse" });
    const r = await writer.writeSummary({ id: "t1", content: "x" }, "s", {
      evictedAt: NOW,
      signal: new AbortController().signal,
    })();
    expect(r).toMatchObject(
      E.left({ _tag: "IndexWriteFailed", error: { _tag: "InvalidOptions", problems: [{ path: "idConflicts" }] } }),
    );
  });
});

function right<A>(r: E.Either<unknown, A>): A {
  if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
  return r.right;
}
