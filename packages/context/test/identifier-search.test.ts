// Search over what the manager evicted ranks the entry that holds an identifier first, for every
// shape of the identifier an agent types (`module_3`, `src/module_3.py`, `SECRET_3`,
// `handler_3_7`), on every index backend. The entries share their common words and digits (every
// file defines `handler_N_3`), so only the identifiers themselves tell them apart.
import { randomBytes } from "node:crypto";
import { createContextManager } from "@cc/context";
import { memoryIndex, openPostgresIndex, openSqliteIndex, type SegmentIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, inject, it } from "vitest";

const FILES = 20;
const HANDLERS = 12;

/** `src/module_N.py` as a `read_file` tool would return it. */
function moduleFile(n: number): string {
  const lines = [`# src/module_${n}.py`, `SECRET_${n} = ${3000 + n}`, ""];
  for (let i = 1; i <= HANDLERS; i++)
    lines.push(`def handler_${n}_${i}(request, context):`, `    return dispatch(request, ${n}, ${i})`, "");
  return lines.join("\n");
}

/** A task, then one `read_file` call and its result per module. */
function readingSession(): Message[] {
  const out: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Find which handler leaks the secret." },
  ];
  for (let n = 1; n <= FILES; n++) {
    out.push({
      role: "assistant",
      content: "",
      toolCalls: [{ id: `call_${n}`, name: "read_file", arguments: JSON.stringify({ path: `src/module_${n}.py` }) }],
    });
    out.push({ role: "tool", toolCallId: `call_${n}`, content: moduleFile(n) });
  }
  return out;
}

const queries = (n: number): readonly string[] => [
  `module_${n}`,
  `src/module_${n}.py`,
  `SECRET_${n}`,
  `handler_${n}_7`,
];

async function evictAndSearch(index: SegmentIndex): Promise<void> {
  const manager = createContextManager({ maxTokens: 2_000, index, namespace: `ids-${randomBytes(4).toString("hex")}` });
  const turn = await manager.compact(readingSession());
  expect(turn.budgetMet).toBe(true);
  // Which module each evicted unit holds, from its original.
  const moduleOf = new Map<string, number>();
  for (const unit of [...turn.evicted, ...turn.masked]) {
    const original = (await manager.expand(unit.id)) ?? "";
    const m = /# src\/module_(\d+)\.py/.exec(original);
    if (m !== null) moduleOf.set(unit.id, Number(m[1]));
  }
  expect(new Set(moduleOf.values()).size).toBeGreaterThanOrEqual(FILES - 4);
  const wrong: string[] = [];
  // A module may have two entries (its masked output, and the unit with the call when that left
  // too): either expands to the module, so the top hit must be one of the module's own.
  for (const n of new Set(moduleOf.values())) {
    for (const q of queries(n)) {
      const hits = await manager.search(q, 5);
      if (hits[0] === undefined || moduleOf.get(hits[0].id) !== n)
        wrong.push(`${q} → ${hits.map((h) => `${moduleOf.get(h.id) ?? "?"}:${h.score.toFixed(3)}`).join(" ")}`);
    }
  }
  expect(wrong).toEqual([]);
}

describe("identifier search through the manager", () => {
  it("memory index: module_N's entry ranks first for each of the four query shapes", async () => {
    await evictAndSearch(memoryIndex());
  });

  it("SQLite index: the same", async () => {
    const opened = await openSqliteIndex()();
    if (E.isLeft(opened)) throw new Error(JSON.stringify(opened.left));
    try {
      await evictAndSearch(opened.right);
    } finally {
      await opened.right.close?.();
    }
  });

  it("PostgreSQL index: the same", async () => {
    const url = inject("pgUrl");
    expect(inject("pgError")).toBe("");
    const table = `ids_${randomBytes(6).toString("hex")}`;
    const opened = await openPostgresIndex({ connection: url, table })();
    if (E.isLeft(opened)) throw new Error(JSON.stringify(opened.left));
    try {
      await evictAndSearch(opened.right);
    } finally {
      await opened.right.close?.();
    }
  });
});
