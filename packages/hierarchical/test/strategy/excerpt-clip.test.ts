// Task excerpts and clipped outputs: the last resorts of a pass keep an opening, a pointer and key
// facts within their allowance, never split a code point, and leave the original in the index
// byte for byte.
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import type { Message } from "@cc/messages";
import { memoryIndex } from "@cc/search";
import { tiktokenCounter } from "@cc/tokens";
import { runsFor } from "../../../../.ci/support/runs.js";
import { EVICTION_SCORING } from "../../src/strategy/evict.js";
import { CLIP_MIN_TOKENS, MASK_PREFIX, clipOutputs, stubId } from "../../src/strategy/mask.js";
import {
  TASK_EXCERPT_PREFIX,
  excerptPointer,
  excerptTask,
  excerptText,
  taskExcerpt,
} from "../../src/strategy/task-excerpt.js";
import { indexWriter } from "../../src/writer.js";

const counter = tiktokenCounter();
afterAll(() => counter.dispose());
const count = (t: string): number => counter.count(t);
const NOW = 1_700_000_000_000;

/** True when `s` holds a surrogate without its pair. */
const loneSurrogate = (s: string): boolean =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

// Lines of mixed text: identifiers, paths, emoji and CJK (surrogate pairs and multi-byte tokens).
const line = fc
  .array(
    fc.oneof(
      fc.constantFrom("src/io.py:42", "parse_row", "KeyError: 'port'", "😀", "🧪", "数据", "é", " ", "the reader"),
      fc.string({ unit: "grapheme", maxLength: 12 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(" "));
const text = fc.array(line, { minLength: 1, maxLength: 60 }).map((lines) => lines.join("\n"));

describe("excerptText", () => {
  it("property: an excerpt fits its allowance, holds its pointer, never splits a surrogate pair, and opens with the text's opening", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 400 }), fc.boolean(), (body, allowance, pointerFirst) => {
        const pointer = excerptPointer("t0123", count(body));
        const out = excerptText(body, pointer, allowance, count, pointerFirst);
        if (count(body) <= allowance || count(pointer) + 1 > allowance) {
          expect(out).toBeUndefined();
          return;
        }
        if (out === undefined) return; // not even the pointer with its line fits
        expect(count(out)).toBeLessThanOrEqual(allowance);
        expect(out).toContain(pointer);
        expect(loneSurrogate(out)).toBe(false);
        // The opening is a prefix of the text (whole code points), before or after the pointer.
        // (No opening when not even the first code point fits its share.)
        const opening = out.startsWith(pointer)
          ? pointerFirst && out.startsWith(`${pointer}\n`) && !out.startsWith(`${pointer}\nkey facts: `)
            ? out.slice(pointer.length + 1).split("\nkey facts: ")[0]!
            : ""
          : out.split(`\n${pointer}`)[0]!;
        expect(body.startsWith(opening)).toBe(true);
      }),
      { numRuns: runsFor(200, 100) },
    );
  });

  it("a first line longer than the opening's share is cut at a code point, not inside an emoji", () => {
    const body = `${"😀".repeat(400)}\nsecond line`;
    const out = taskExcerpt(body, "t1", count(body), 120, count);
    expect(out).toBeDefined();
    expect(loneSurrogate(out!)).toBe(false);
    expect(out!.startsWith("😀")).toBe(true);
    expect(count(out!)).toBeLessThanOrEqual(120);
  });
});

describe("excerptTask", () => {
  it("property: the pinned excerpt fits the pin's limit as a message, and the whole task expands byte for byte", async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 60, max: 600 }), async (body, limit) => {
        const task: Message = { role: "user", content: body };
        const messages: readonly Message[] = [
          { role: "system", content: "You are a coding agent." },
          task,
          { role: "assistant", content: "on it" },
        ];
        const tokens = counter.countMessages([task]) - counter.countMessages([]);
        fc.pre(tokens > limit);
        const index = memoryIndex();
        const writer = indexWriter(index, { namespace: "run" });
        const r = await excerptTask(
          messages,
          { _tag: "TooLarge", index: 1, tokens, limit },
          { counter, writer, now: NOW, idPrefix: "" },
        );
        expect(r._tag).not.toBe("Failed");
        if (r._tag !== "Excerpted") return;
        const excerpt = r.messages[1]!;
        expect(counter.countMessages([excerpt]) - counter.countMessages([])).toBeLessThanOrEqual(limit);
        expect(r.task.tokens).toBeLessThanOrEqual(limit);
        expect(excerpt.content).toContain(TASK_EXCERPT_PREFIX);
        expect(loneSurrogate(excerpt.content)).toBe(false);
        expect(r.messages.filter((_, i) => i !== 1)).toEqual(messages.filter((_, i) => i !== 1));
        const whole = await index.expand(r.task.excerpt!.id, "run")();
        expect(E.isRight(whole) && whole.right?.content).toBe(body);
        // An excerpt is never excerpted again.
        const again = await excerptTask(
          r.messages,
          { _tag: "TooLarge", index: 1, tokens, limit: Math.max(1, limit - 10) },
          { counter, writer, now: NOW, idPrefix: "" },
        );
        expect(again._tag).toBe("Unchanged");
      }),
      { numRuns: runsFor(60, 30) },
    );
  });
});

describe("clipOutputs", () => {
  const cycle = (i: number, body: string, reply: string): Message[] => [
    {
      role: "assistant",
      content: reply,
      toolCalls: [{ id: `c${i}`, name: "bash", arguments: `{"command":"cat src/m${i}.py"}` }],
    },
    { role: "tool", content: body, toolCallId: `c${i}` },
  ];

  it("property: the clipped messages fit the goal whenever every clippable text at its smallest allowance would; calls, roles and order stay; every original expands byte for byte", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, fc.oneof(fc.constant("ok"), text)), { minLength: 1, maxLength: 6 }),
        fc.double({ min: 0.05, max: 1.1, noNaN: true }),
        async (steps, share) => {
          const messages: readonly Message[] = [
            { role: "system", content: "You are a coding agent." },
            { role: "user", content: "Fix the reader." },
            ...steps.flatMap(([body, reply], i) => cycle(i, body, reply)),
          ];
          const base = counter.countMessages([]);
          const size = (m: Message): number => counter.countMessages([m]) - base;
          const total = counter.countMessages(messages);
          const goal = Math.floor(total * share);
          const index = memoryIndex();
          const writer = indexWriter(index, { namespace: "run" });
          const r = await clipOutputs(messages, {
            counter,
            writer,
            scoring: { ...EVICTION_SCORING, now: () => NOW },
            now: NOW,
            idPrefix: "",
            taskAt: 1,
            goal,
          });
          expect(r.failures).toEqual([]);
          expect(r.messages.length).toBe(messages.length);
          r.messages.forEach((m, i) => {
            const before = messages[i]!;
            expect(m.role).toBe(before.role);
            if (m.role === "assistant" && before.role === "assistant") expect(m.toolCalls).toEqual(before.toolCalls);
            if (m.role === "tool" && before.role === "tool") expect(m.toolCallId).toBe(before.toolCallId);
            expect(loneSurrogate(m.content)).toBe(false);
            if (m.content !== before.content) expect(m.content.startsWith(MASK_PREFIX)).toBe(true);
          });
          // The floor: every clippable text (outputs and the agent's texts after the task) at its
          // smallest allowance, the rest as it is.
          const floor =
            base +
            messages.reduce((sum, m, i) => {
              if (i <= 1) return sum + size(m);
              const overhead = size({ ...m, content: "" } as Message);
              return sum + Math.min(size(m), CLIP_MIN_TOKENS + overhead);
            }, 0);
          const after = counter.countMessages(r.messages);
          if (total <= goal) expect(r.messages).toBe(messages);
          else expect(after).toBeLessThanOrEqual(Math.max(goal, floor));
          expect(after).toBeLessThanOrEqual(total);
          for (const e of r.masked) {
            expect(stubId(r.messages[e.position]!.content)).toBe(e.id);
            const x = await index.expand(e.id, "run")();
            expect(E.isRight(x) && x.right?.content).toBe(messages[e.position]!.content);
          }
        },
      ),
      { numRuns: runsFor(60, 30) },
    );
  });
});
