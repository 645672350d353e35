import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import { createContextManager } from "@cc/context";
import { entry, memoryIndex } from "@cc/hierarchical";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";

const exact = tiktokenCounter();
afterAll(() => exact.dispose());

function conversation(cycles: number): Message[] {
  const out: Message[] = [{ role: "system", content: "You are a coding agent." }, { role: "user", content: "Fix the failing test in src/app.py" }];
  for (let i = 0; i < cycles; i++) {
    out.push({ role: "assistant", content: `step ${i}`, toolCalls: [{ id: `c${i}`, name: "bash", arguments: `{"command":"cat f${i}.py"}` }] });
    out.push({ role: "tool", content: `t${i}\n${"line of output with some_identifier and words 12345\n".repeat(60)}`, toolCallId: `c${i}` });
  }
  out.push({ role: "user", content: "Now run the tests again." });
  return out;
}

describe("an index that refuses a write with IdConflict", () => {
  it("is reported by the context manager as a typed IndexWriteFailed naming the id; the history is not lost", async () => {
    const options = { maxTokens: 3000, counter: exact, namespace: "s1", now: () => 1_700_000_000_000 } as const;
    const first = await createContextManager({ ...options, index: memoryIndex() }).compact(conversation(10));
    const id = first.evicted[0]!.id;
    // Another index already holds a different original under that id.
    const index = memoryIndex();
    expect(E.isRight(await index.write([entry({ id, namespace: "s1", summary: "something else", content: "a different original" })])())).toBe(true);
    const r = await createContextManager({ ...options, index }).compactTE(conversation(10))();
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "IndexWriteFailed", subject: "index", problems: [expect.stringContaining(`IdConflict: id "${id}"`)] });
    expect(await index.expand(id, "s1")()).toMatchObject(E.right({ content: "a different original" }));
  });

  it("content-addressed ids never trigger it in normal use: compacting the same and a growing conversation again into one index", async () => {
    const index = memoryIndex();
    const options = { maxTokens: 3000, counter: exact, namespace: "s1", now: () => 1_700_000_000_000, index } as const;
    for (const cycles of [10, 10, 12, 14]) {
      const r = await createContextManager(options).compactTE(conversation(cycles))();
      expect(E.isRight(r)).toBe(true);
    }
  });
});
