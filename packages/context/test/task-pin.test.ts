// The task (the user message the agent first answered) stays in the prompt on every turn, with
// both strategies, unless it would take more than half the target; `pinTask: false` lets it go.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createContextManager, type TurnResult } from "@cc/context";
import { memoryIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = runsFor(20, 60);
const exact = tiktokenCounter();
afterAll(() => exact.dispose());

const TASK =
  "ISSUE: reading a DICOM file without PixelRepresentation raises KeyError in pydicom/pixel_data_handlers/numpy_handler.py line 283; make the attribute optional.";
const output = (i: number, lines: number): string =>
  `# src/module_${i}.py\n${`def handler_${i}(x): return x + ${i}  # SECRET_${i}\n`.repeat(lines)}`;

/** An agent run: system, a demonstration, the task, then `cycles` tool steps. */
function run(cycles: number, lines: number, from = 0): Message[] {
  const out: Message[] = [];
  for (let i = from; i < from + cycles; i++) {
    out.push({
      role: "assistant",
      content: `step ${i}`,
      toolCalls: [{ id: `c${i}`, name: "read_file", arguments: `{"path":"src/module_${i}.py"}` }],
    });
    out.push({ role: "tool", content: output(i, lines), toolCallId: `c${i}` });
  }
  return out;
}
const opening: readonly Message[] = [
  { role: "system", content: "You are a coding agent." },
  { role: "user", content: `Here is a demonstration of the interface.\n${"demo line\n".repeat(40)}` },
  { role: "user", content: TASK },
];
const holdsTask = (r: TurnResult): boolean => r.messages.some((m) => m.role === "user" && m.content === TASK);

describe("the task is pinned by default", () => {
  for (const strategy of ["lcm", "hierarchical"] as const) {
    it(`${strategy}: turn after turn the task stays verbatim while the steps around it are compacted`, async () => {
      const manager = createContextManager({
        maxTokens: 3000,
        strategy,
        counter: exact,
        index: memoryIndex(),
        now: () => 1_750_000_000_000,
      });
      let history: readonly Message[] = [...opening, ...run(6, 20)];
      for (let turn = 0; turn < 4; turn++) {
        const r = await manager.compact(history);
        expect(r.compacted, `turn ${turn}`).toBe(true);
        expect(r.budgetMet, `turn ${turn}`).toBe(true);
        expect(holdsTask(r), `turn ${turn}`).toBe(true);
        expect(r.warnings.some((w) => w._tag === "TaskNotPinned")).toBe(false);
        history = [...r.messages, ...run(4, 20, 10 * (turn + 1))];
      }
    });

    it(`${strategy}: pinTask false compacts the task like any other message`, async () => {
      // A task of ~1,000 tokens (under half the target, so pinned by default) among older steps.
      const long = `${TASK}\n${"the reader must accept files written by older scanners\n".repeat(90)}`;
      const history: readonly Message[] = [opening[0]!, { role: "user", content: long }, ...run(6, 20)];
      // Whole units only: with masks the outputs would give way first and the task would stay anyway.
      const options = { maxTokens: 3000, strategy, counter: exact, now: () => 1_750_000_000_000, mask: false } as const;
      const pinned = await createContextManager({ ...options, index: memoryIndex() }).compact(history);
      const unpinned = await createContextManager({ ...options, index: memoryIndex(), pinTask: false }).compact(
        history,
      );
      expect(pinned.messages.some((m) => m.content === long)).toBe(true);
      expect(unpinned.compacted).toBe(true);
      expect(unpinned.messages.some((m) => m.content === long)).toBe(false);
    });

    it(`${strategy}: a task over half the target is ${strategy === "lcm" ? "compacted" : "pinned as an excerpt"} and the turn says so`, async () => {
      const huge = `${TASK}\n${"the reader must accept files written by older scanners\n".repeat(200)}`;
      const manager = createContextManager({
        maxTokens: 3000,
        strategy,
        counter: exact,
        index: memoryIndex(),
        now: () => 1_750_000_000_000,
      });
      const r = await manager.compact([opening[0]!, { role: "user", content: huge }, ...run(6, 20)]);
      expect(r.messages.some((m) => m.content === huge)).toBe(false);
      if (strategy === "lcm") {
        expect(r.warnings).toContainEqual(
          expect.objectContaining({
            _tag: "TaskNotPinned",
            limit: expect.any(Number) as number,
            tokens: expect.any(Number) as number,
          }),
        );
        return;
      }
      // The excerpt takes the task's place: its opening, a pointer, within half the target; the
      // whole task expands byte for byte; the turn names the id.
      const warning = r.warnings.find((w) => w._tag === "TaskExcerpted");
      expect(warning).toMatchObject({
        _tag: "TaskExcerpted",
        tokens: exact.countMessages([{ role: "user", content: huge }]) - exact.countMessages([]),
      });
      const id = warning?._tag === "TaskExcerpted" ? warning.id : "";
      const excerpt = r.messages.find((m) => m.role === "user" && m.content.includes(id));
      expect(excerpt?.content.startsWith(TASK.split("\n")[0]!)).toBe(true);
      expect(exact.countMessages([excerpt!]) - exact.countMessages([])).toBeLessThanOrEqual(1500);
      expect(await manager.expand(id)).toBe(huge);
      // The next turn keeps the same excerpt, byte for byte, as the task.
      const next = await manager.compact([...r.messages, ...run(6, 20, 100)]);
      expect(next.messages.some((m) => m.content === excerpt!.content)).toBe(true);
      expect(next.warnings.some((w) => w._tag === "TaskExcerpted" || w._tag === "TaskNotPinned")).toBe(false);
    });
  }

  it("hierarchical with rewrite: false (a caller that maps kept messages back): no excerpt, no clip, every kept message is one of the input's", async () => {
    const huge = `${TASK}\n${"the reader must accept files written by older scanners\n".repeat(200)}`;
    const manager = createContextManager({
      maxTokens: 3000,
      strategy: "hierarchical",
      counter: exact,
      index: memoryIndex(),
      now: () => 1_750_000_000_000,
    });
    const history: readonly Message[] = [opening[0]!, { role: "user", content: huge }, ...run(6, 20)];
    const r = await manager.compact(history, { rewrite: false });
    expect(r.warnings.some((w) => w._tag === "TaskExcerpted")).toBe(false);
    expect(r.warnings).toContainEqual(expect.objectContaining({ _tag: "TaskNotPinned" }));
    const note = r.messages.filter((m) => !history.includes(m));
    expect(note.length).toBeLessThanOrEqual(1);
    await expect(manager.compact(history, { rewrite: "no" } as never)).rejects.toMatchObject({
      _tag: "InvalidOptions",
    });
  });

  it("property: whatever the budget and the run, a task that fits half the target is in every prompt, and every tool result keeps its call", async () => {
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("lcm" as const, "hierarchical" as const),
        fc.integer({ min: 1500, max: 6000 }),
        fc.integer({ min: 4, max: 10 }),
        fc.integer({ min: 10, max: 40 }),
        fc.integer({ min: 0, max: 6 }),
        async (strategy, maxTokens, cycles, lines, preserveLast) => {
          const manager = createContextManager({
            maxTokens,
            strategy,
            preserveLast,
            counter: exact,
            index: memoryIndex(),
            now: () => 1_750_000_000_000,
          });
          const r = await manager.compact([...opening, ...run(cycles, lines)]);
          if (r.compacted) compacted++;
          expect(holdsTask(r)).toBe(true);
          const issued = new Set<string>();
          for (const m of r.messages) {
            if (m.role === "assistant") for (const c of m.toolCalls ?? []) issued.add(c.id);
            if (m.role === "tool") expect(issued.has(m.toolCallId)).toBe(true);
          }
        },
      ),
      { numRuns: runs },
    );
    expect(compacted).toBeGreaterThan(runs / 4);
  });
});
