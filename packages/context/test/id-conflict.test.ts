// A shared index that already holds another original under the id of a unit the turn evicts
// costs that unit its first-choice id, never the turn: the unit is written under a deterministic
// alternative (a typed warning says which), or stays in the prompt when every alternative is
// taken; every other unit of the turn is written.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextManager, type TurnResult } from "@cc/context";
import { decodeSnapshot, digestOf } from "@cc/test-support/context";
import { entry, memoryIndex, openPostgresIndex, openSqliteIndex, type SegmentIndex } from "@cc/search";
import { alternativeId, ID_ALTERNATIVES, noteId } from "@cc/test-support/hierarchical";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import { testDatabase, type TestDatabase } from "../../search/test/support/postgres.js";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = runsFor(25, 100);
const exact = tiktokenCounter();
let dir: string;
let pgdb: TestDatabase;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cc-context-ids-"));
  pgdb = await testDatabase();
});
afterAll(async () => {
  exact.dispose();
  await pgdb.drop();
  rmSync(dir, { recursive: true, force: true });
});

function conversation(cycles: number): Message[] {
  const out: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Fix the failing test in src/app.py" },
  ];
  for (let i = 0; i < cycles; i++) {
    out.push({
      role: "assistant",
      content: `step ${i}`,
      toolCalls: [{ id: `c${i}`, name: "bash", arguments: `{"command":"cat f${i}.py"}` }],
    });
    out.push({
      role: "tool",
      content: `t${i}\n${"line of output with some_identifier and words 12345\n".repeat(60)}`,
      toolCallId: `c${i}`,
    });
  }
  out.push({ role: "user", content: "Now run the tests again." });
  return out;
}

const NOW = 1_700_000_000_000;
const options = { maxTokens: 3000, counter: exact, namespace: "s1", now: () => NOW } as const;
const right = <A>(r: E.Either<unknown, A>): A => {
  if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
  return r.right;
};
const contentAt = async (index: SegmentIndex, id: string): Promise<string | undefined> =>
  right(await index.expand(id, "s1")())?.content;
const foreign = (id: string): ReturnType<typeof entry> =>
  entry({ id, namespace: "s1", summary: "something else", content: `a different original under ${id}` });
const sqlite = async (): Promise<SegmentIndex> =>
  right(await openSqliteIndex({ path: join(dir, `${Math.random().toString(36).slice(2)}.db`) })());
const postgres = async (): Promise<SegmentIndex> =>
  right(await openPostgresIndex({ connection: pgdb.client(), table: `t_${Math.random().toString(36).slice(2)}` })());

/** The ids and originals a turn over `history` evicts into an empty index (turns are deterministic). */
async function firstChoice(history: readonly Message[]): Promise<ReadonlyMap<string, string>> {
  const index = memoryIndex();
  const r = await createContextManager({ ...options, index }).compact(history);
  const out = new Map<string, string>();
  for (const e of r.evicted) out.set(e.id, (await contentAt(index, e.id))!);
  return out;
}

/** The budget figures of a turn are those of the prompt it returns. */
function budgetHolds(r: TurnResult): void {
  expect(r.tokensAfter).toBe(exact.countMessages(r.messages));
  expect(r.budgetMet).toBe(r.tokensAfter <= r.maxTokens);
}

describe.each([
  ["memory", async () => memoryIndex()],
  ["sqlite", sqlite],
  ["postgres", postgres],
] as const)("a %s index holding another original under an evicted unit's id", (_name, open) => {
  it("the turn succeeds: that unit is evicted under its first alternative with an UnitIdDisambiguated warning, every other unit is written", async () => {
    const history = conversation(10);
    const ids = await firstChoice(history);
    expect(ids.size).toBeGreaterThan(2);
    const taken = [...ids.keys()][1]!;
    const index = await open();
    right(await index.write([foreign(taken)])());
    const manager = createContextManager({ ...options, index });
    const r = await manager.compactTE(history)();
    const turn = right(r);
    const writtenAs = alternativeId(taken, 1);
    expect(turn.warnings).toEqual([{ _tag: "UnitIdDisambiguated", id: taken, writtenAs }]);
    expect(turn.evicted.map((e) => e.id).sort()).toEqual(
      [...ids.keys()].map((id) => (id === taken ? writtenAs : id)).sort(),
    );
    for (const [id, content] of ids) expect(await manager.expand(id === taken ? writtenAs : id)).toBe(content);
    expect(await contentAt(index, taken)).toBe(`a different original under ${taken}`);
    expect(turn.summary).toContain(`- ${writtenAs} (`);
    budgetHolds(turn);
    // The next turn over the same index (the same units again) does not fail either.
    expect(right(await manager.compactTE(history)()).evicted.map((e) => e.id)).toEqual(turn.evicted.map((e) => e.id));
    right(await index.close()());
  });

  it("when every alternative is taken too, that unit stays in the prompt (UnitKept naming the IdConflict) and the rest is written", async () => {
    const history = conversation(10);
    const ids = await firstChoice(history);
    const taken = [...ids.keys()][0]!;
    const index = await open();
    right(
      await index.write(
        [taken, ...Array.from({ length: ID_ALTERNATIVES }, (_, i) => alternativeId(taken, i + 1))].map(foreign),
      )(),
    );
    const turn = right(await createContextManager({ ...options, index }).compactTE(history)());
    expect(turn.warnings.filter((w) => w._tag !== "BudgetNotMet")).toEqual([
      { _tag: "UnitKept", id: taken, reason: expect.stringContaining("IdConflict") },
    ]);
    const original = ids.get(taken)!;
    expect(turn.messages.some((m) => m.content !== "" && original.includes(m.content))).toBe(true);
    for (const id of ids.keys()) if (id !== taken) expect(await contentAt(index, id)).toBe(ids.get(id));
    budgetHolds(turn);
    right(await index.close()());
  });
});

describe("conflicting entries, any subset of a turn", () => {
  it("property: every other unit is written and findable; each conflicting one has exactly one warning and expands under its reported id or is still in the prompt", async () => {
    const cache = new Map<number, ReadonlyMap<string, string>>();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 6, max: 12 }),
        fc.array(fc.constantFrom("free", "id", "all"), { minLength: 12, maxLength: 12 }),
        async (cycles, modes) => {
          const history = conversation(cycles);
          const ids = cache.get(cycles) ?? (await firstChoice(history));
          cache.set(cycles, ids);
          const mode = new Map([...ids.keys()].map((id, i) => [id, modes[i % modes.length]!]));
          const index = memoryIndex();
          const planted = [...mode].flatMap(([id, m]) =>
            m === "free"
              ? []
              : m === "id"
                ? [id]
                : [id, ...Array.from({ length: ID_ALTERNATIVES }, (_, i) => alternativeId(id, i + 1))],
          );
          if (planted.length > 0) right(await index.write(planted.map(foreign))());
          const turn = right(await createContextManager({ ...options, index }).compactTE(history)());
          const evicted = new Set(turn.evicted.map((e) => e.id));
          for (const [id, m] of mode) {
            const warnings = turn.warnings.filter(
              (w) => (w._tag === "UnitIdDisambiguated" || w._tag === "UnitKept") && w.id === id,
            );
            if (m === "free") {
              expect(warnings).toEqual([]);
              expect(evicted.has(id)).toBe(true);
              expect(await contentAt(index, id)).toBe(ids.get(id));
              expect(
                right(await index.search("some_identifier", { namespace: "s1", k: 1000 })()).map((h) => h.id),
              ).toContain(id);
              continue;
            }
            expect(warnings).toHaveLength(1);
            const w = warnings[0]!;
            if (w._tag === "UnitIdDisambiguated") {
              expect(evicted.has(w.writtenAs)).toBe(true);
              expect(await contentAt(index, w.writtenAs)).toBe(ids.get(id));
            } else {
              expect(turn.messages.some((msg) => msg.content !== "" && ids.get(id)!.includes(msg.content))).toBe(true);
            }
          }
          for (const id of planted) expect(await contentAt(index, id)).toBe(`a different original under ${id}`);
          budgetHolds(turn);
        },
      ),
      { numRuns: runs },
    );
  }, 600_000);
});

describe("ids written by the previous version (u + 16 hex digits)", () => {
  it("an index and a snapshot holding them: the resumed manager compacts on, the old ids still expand, new ids carry 128 bits", async () => {
    const path = join(dir, "previous.db");
    // Without a fact line the note's entries have the whole note: this checks how they fold.
    const opts = { ...options, maxTokens: 2500, policy: { kind: "threshold" as const }, noteFacts: false };
    // What the previous version left: entries under 64-bit ids, and a snapshot whose prompt's note names them.
    const scratch = memoryIndex();
    const a = createContextManager({ ...opts, index: scratch });
    const history = conversation(8);
    const first = await a.compact(history, { force: true });
    expect(first.evicted.length).toBeGreaterThan(1);
    const old = (id: string): string => id.replace(/^(u[0-9a-f]{16})[0-9a-f]{16}/, "$1");
    const previous = right(await openSqliteIndex({ path })());
    for (const e of first.evicted) {
      const x = right(await scratch.expand(e.id, "s1")())!;
      right(await previous.write([{ ...x, id: old(e.id) }])());
    }
    right(await previous.close()());
    const snapshot = a.snapshot()!;
    // The note names the 64-bit ids and stays sealed with the snapshot's note key (a note is
    // recognised by its seal, never by its text).
    const rendered = snapshot.rendering!.rendered.map((m) => {
      if (!m.content.includes("Evicted to the journal")) return m;
      const content = m.content.replace(/u[0-9a-f]{32}/g, (id) => old(id));
      return { ...m, content, id: noteId(snapshot.noteKey!, content) };
    });
    expect(JSON.stringify(rendered)).not.toMatch(/u[0-9a-f]{32}/);
    const saved = JSON.stringify({
      ...snapshot,
      rendering: { ...snapshot.rendering!, rendered, renderedDigest: digestOf(rendered, rendered.length) },
    });

    const index = right(await openSqliteIndex({ path })());
    const b = createContextManager({ ...opts, index, resume: right(decodeSnapshot(JSON.parse(saved))) });
    const later = conversation(4)
      .slice(2, -1)
      .map((m) => ({ ...m, content: `later ${m.content}` }));
    const next = [...history, ...later, { role: "user" as const, content: "And once more." }];
    const turn = await b.compact(next, { force: true });
    expect(turn.warnings.filter((w) => w._tag !== "BudgetNotMet")).toEqual([]);
    expect(turn.evicted.length).toBeGreaterThan(0);
    for (const e of turn.evicted) expect(e.id).toMatch(/^u[0-9a-f]{32}(\.\d+)?$/);
    // The note of the previous version is folded into the new one: its ids are listed (or counted when the note is full).
    const listed = first.evicted.filter((e) => turn.summary.includes(`- ${old(e.id)} (`));
    expect(listed.length).toBeGreaterThan(0);
    if (listed.length < first.evicted.length) expect(turn.summary).toMatch(/… \d+ more in the journal$/);
    for (const e of first.evicted) expect(await b.expand(old(e.id))).toBe(await contentAt(scratch, e.id));
    right(await index.close()());
  });
});

describe("content-addressed ids in normal use", () => {
  it("never conflict: compacting the same and a growing conversation again into one index", async () => {
    const index = memoryIndex();
    for (const cycles of [10, 10, 12, 14]) {
      const r = await createContextManager({ ...options, index }).compactTE(conversation(cycles))();
      expect(E.isRight(r) && r.right.warnings).toEqual([]);
    }
  });
});
