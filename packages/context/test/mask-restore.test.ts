// A unit that leaves with a stub in it is stored with its original output; the originals of
// earlier passes' stubs are read back from the index only for the units that leave — a unit that
// stays costs no index read.
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import { createContextManager } from "@cc/context";
import { memoryIndex, type SegmentIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";

const counter = tiktokenCounter();
afterAll(() => counter.dispose());
const NOW = 1_750_000_000_000;

const output = (n: number): string =>
  [
    `# src/module_${n}.py`,
    ...Array.from({ length: 40 }, (_, i) => `def handler_${n}_${i}(request): return dispatch(request, ${n}, ${i})`),
  ].join("\n");

function reads(from: number, to: number): Message[] {
  const out: Message[] = [];
  for (let n = from; n <= to; n++) {
    out.push({
      role: "assistant",
      content: `Reading module ${n}.`,
      toolCalls: [{ id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path: `src/module_${n}.py` }) }],
    });
    out.push({ role: "tool", toolCallId: `c${n}`, content: output(n) });
  }
  return out;
}

describe("originals behind stubs", () => {
  it("are read back only for the units that leave, and every evicted unit expands to its real outputs", async () => {
    const task: Message[] = [
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: "Find the handler that leaks the secret." },
    ];
    const stubIds = (msgs: readonly Message[]): string[] =>
      msgs.flatMap((x) => /^\[output masked to the journal: (\S+),/.exec(x.content)?.[1] ?? []);
    /** Two turns: the first masks outputs, the second (at `budget`) evicts some of the units holding them. */
    const run = async (budget: number) => {
      const base = memoryIndex();
      const read: string[] = [];
      const index: SegmentIndex = {
        ...base,
        expand: (id, ns) => {
          read.push(id);
          return base.expand(id, ns);
        },
      };
      const m = createContextManager({
        maxTokens: 6000,
        counter,
        index,
        now: () => NOW,
        mask: { keepRecent: 2, minTokens: 100, stubTokens: 40 },
      });
      const first = await m.compact([...task, ...reads(1, 14)]);
      read.length = 0;
      const second = await m.compact([...first.messages, ...reads(15, 20)], { maxTokens: budget });
      const earlier = new Set(stubIds(first.messages));
      const kept = new Set(stubIds(second.messages));
      return {
        m,
        index,
        first,
        second,
        read,
        stayed: [...earlier].filter((id) => kept.has(id)),
        left: [...earlier].filter((id) => !kept.has(id)),
      };
    };
    // The largest budget at which some of the earlier stubs' units leave and some stay.
    let r = await run(6000);
    for (let budget = 6000; budget >= 2000 && (r.left.length === 0 || r.stayed.length === 0); budget -= 250)
      r = await run(budget);
    const { m, index, first, second, read, stayed, left } = r;
    expect(first.masked.length).toBeGreaterThan(0);
    expect(stayed.length).toBeGreaterThan(0);
    expect(left.length).toBeGreaterThan(0);
    // No read for a stub whose unit stayed; at most one per stub whose unit left.
    const readBack = read.filter((id) => stayed.includes(id) || left.includes(id));
    expect(readBack.filter((id) => stayed.includes(id))).toEqual([]);
    expect(readBack.length).toBeLessThanOrEqual(left.length);
    for (const e of second.evicted) {
      const text = await m.expand(e.id);
      expect(text).toBeDefined();
      expect(text!.includes("[output masked to the journal:")).toBe(false);
    }
    expect(E.isRight(await index.search("handler_3_7", { k: 5, namespace: "default" })())).toBe(true);
  });
});
