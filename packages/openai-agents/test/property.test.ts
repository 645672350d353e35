// Property: for random item lists in the SDK's shape (parallel calls of every callId kind with
// results in any order, reasoning items, images, opaque items, orphaned results, pending calls),
// converting, compacting and converting back never splits a unit and returns kept items unchanged.
import { createContextManager } from "@cc/context";
import { SUMMARY_PREFIX, type Message } from "@cc/messages";
import type { AgentInputItem } from "@openai/agents";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { createAgentsCompaction, isNoteItem, itemKind, itemsToMessages } from "../src/index.js";
import { orphanedResults } from "./fixtures.js";

// A fast, deterministic counter (the property is about structure, not exact counts).
const count = (s: string): number => Math.ceil(s.length / 4);
const counter = {
  encoding: "o200k_base" as const,
  count,
  countMessages: (ms: readonly Message[]): number =>
    ms.length === 0
      ? 0
      : 3 +
        ms.reduce(
          (n, m) =>
            n +
            4 +
            count(m.content) +
            (m.role === "assistant"
              ? (m.toolCalls ?? []).reduce((k, c) => k + 3 + count(c.name) + count(c.arguments), 0)
              : 0),
          0,
        ),
  dispose: (): void => undefined,
};

const words = fc.integer({ min: 1, max: 60 }).map((n) => Array.from({ length: n }, (_, i) => `w${i}`).join(" "));
type Step = (id: () => string) => AgentInputItem[];

const callOf = (kind: number, callId: string, text: string): AgentInputItem => {
  switch (kind) {
    case 0:
      return { type: "function_call", callId, name: "read", arguments: JSON.stringify({ text }), status: "completed" };
    case 1:
      return {
        type: "computer_call",
        callId,
        status: "completed",
        action: { type: "click", x: 1, y: 2, button: "left" },
      };
    case 2:
      return { type: "shell_call", callId, status: "completed", action: { commands: [text] } };
    case 3:
      return { type: "apply_patch_call", callId, status: "completed", operation: { type: "delete_file", path: text } };
    default:
      return { type: "program", callId, code: text, fingerprint: "f" };
  }
};
const resultOf = (kind: number, callId: string, text: string): AgentInputItem => {
  switch (kind) {
    case 0:
      return { type: "function_call_result", callId, name: "read", status: "completed", output: text };
    case 1:
      return { type: "computer_call_result", callId, output: { type: "computer_screenshot", data: "aGk=" } };
    case 2:
      return {
        type: "shell_call_output",
        callId,
        output: [{ stdout: text, stderr: "", outcome: { type: "exit", exitCode: 0 } }],
      };
    case 3:
      return { type: "apply_patch_call_output", callId, status: "completed", output: text };
    default:
      return { type: "program_output", callId, output: text, status: "completed" };
  }
};
const reasoning = (text: string): AgentInputItem => ({
  type: "reasoning",
  content: [{ type: "input_text", text }],
  providerData: { encrypted: "x" },
});

const step: fc.Arbitrary<Step> = fc.oneof(
  words.map((t): Step => () => [{ role: "user", content: t }]),
  words.map((t): Step => () => [
    {
      role: "user",
      content: [
        { type: "input_text", text: t },
        { type: "input_image", image: "https://x/y.png", detail: "auto" },
      ],
    },
  ]),
  fc
    .tuple(fc.boolean(), words)
    .map(([r, t]): Step => () => [
      ...(r ? [reasoning(t)] : []),
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: t }] },
    ]),
  fc
    .tuple(
      fc.boolean(),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), words, fc.boolean()), { minLength: 1, maxLength: 4 }),
      fc.boolean(),
      words,
    )
    .map(([r, calls, reverse, t]): Step => (id) => {
      const ids = calls.map(() => id());
      const results = calls.flatMap(([k, text, answered], i) =>
        answered || calls.length === 1 ? [resultOf(k, ids[i]!, text)] : [],
      );
      return [
        ...(r ? [reasoning(t)] : []),
        ...calls.map(([k, text], i) => callOf(k, ids[i]!, text)),
        ...(reverse ? results.reverse() : results),
      ];
    }),
  words.map((t): Step => () => [{ type: "unknown", providerData: { note: t } } as AgentInputItem]),
  words.map((t): Step => () => [
    { type: "hosted_tool_call", name: "web_search", arguments: t, status: "completed", output: t },
  ]),
  words.map((t): Step => () => [{ type: "compaction", encrypted_content: t }]),
  words.map((t): Step => (id) => [
    { type: "function_call_result", callId: `orphan-${id()}`, name: "read", status: "completed", output: t },
  ]),
);

const conversation = fc.array(step, { minLength: 1, maxLength: 14 }).map((steps) => {
  let n = 0;
  return steps.flatMap((s) => s(() => `c${n++}`));
});

describe("convert → compact → convert back", () => {
  it("never splits a unit and returns kept items unchanged", async () => {
    let evicting = 0;
    await fc.assert(
      fc.asyncProperty(
        conversation,
        fc.integer({ min: 60, max: 1500 }),
        fc.integer({ min: 0, max: 4 }),
        async (items, maxTokens, preserveLast) => {
          const snapshot = structuredClone(items);
          const cc = createAgentsCompaction({
            manager: createContextManager({ maxTokens, preserveLast, counter, noteTokens: 40 }),
          });
          const r = await cc.compactItems(items, "Be brief.")();
          if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
          const out = r.right.items;
          if (r.right.report.turn.evicted.length > 0) evicting++;
          // Kept items: the input objects themselves, in order, unchanged.
          const kept = out.filter((i) => !isNoteItem(i) || items.includes(i));
          const positions = kept.map((i) => items.indexOf(i));
          expect(positions.every((p) => p >= 0)).toBe(true);
          expect([...positions].sort((a, b) => a - b)).toEqual(positions);
          expect(items).toEqual(snapshot);
          // At most one new item: the note.
          const added = out.filter((i) => !items.includes(i));
          expect(added.length).toBeLessThanOrEqual(1);
          for (const a of added) expect((a as { content: string }).content.startsWith(SUMMARY_PREFIX)).toBe(true);
          // Units stay whole: a call and its results, a reasoning item and the item it precedes, a
          // response's text and the calls right after it.
          const keptSet = new Set(kept);
          const kinds = items.map(itemKind);
          for (const [i, k] of kinds.entries()) {
            if (k.kind === "call") {
              const results = items.filter(
                (_, j) => j > i && kinds[j]!.kind === "result" && (kinds[j] as { callId: string }).callId === k.callId,
              );
              for (const res of results) expect(keptSet.has(res), `result of ${k.callId}`).toBe(keptSet.has(items[i]!));
            }
            if (k.kind === "message" && k.role === "assistant" && kinds[i + 1]?.kind === "call") {
              expect(keptSet.has(items[i + 1]!), `calls after assistant text ${i}`).toBe(keptSet.has(items[i]!));
            }
            if (k.kind === "reasoning") {
              const next = items.slice(i + 1).find((_, j) => kinds[i + 1 + j]!.kind !== "reasoning");
              if (next !== undefined)
                expect(keptSet.has(next), `item after reasoning ${i}`).toBe(keptSet.has(items[i]!));
            }
          }
          // No result reaches the model without its call; each one left out is reported.
          expect(orphanedResults(out)).toEqual([]);
          const dropped = r.right.report.warnings.filter((w) => w._tag === "OrphanedResultDropped").length;
          expect(dropped).toBe(orphanedResults(items).length);
          // The round trip is a valid message list again (empty only when every item was such a result).
          if (dropped < items.length) expect(itemsToMessages(out).messages.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 120 },
    );
    // Not vacuous: most generated conversations exceed their budget and lose units.
    expect(evicting).toBeGreaterThan(30);
  }, 120_000);
});
