// BaseMessage ⇄ Message: the originals come back unchanged, reasoning stays with its tool call,
// and (property) compaction of random LangChain-shaped conversations never splits a unit.
import { createContextManager, type ContextManager } from "@cc/context";
import { SUMMARY_PREFIX } from "@cc/messages";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { fromLangChain, messageText, NOTE_SOURCE, toLangChain } from "../src/index.js";
import { orderProblems } from "./support.js";

const managers: ContextManager[] = [];
afterAll(() => managers[0]?.options.counter.dispose());
function manager(namespace: string): ContextManager {
  const m = createContextManager({
    maxTokens: 100_000,
    preserveLast: 2,
    namespace,
    ...(managers[0] === undefined ? {} : { counter: managers[0].options.counter }),
  });
  managers.push(m);
  return m;
}

describe("fromLangChain / toLangChain", () => {
  const reasoning = new AIMessage({
    id: "r1",
    content: [{ type: "reasoning", reasoning: "The file is probably in src." }],
  });
  const calling = new AIMessage({
    id: "a1",
    content: [{ type: "text", text: "Reading both." }],
    tool_calls: [
      { id: "c1", name: "read", args: { path: "a" }, type: "tool_call" },
      { id: "c2", name: "read", args: { path: "b" }, type: "tool_call" },
    ],
    additional_kwargs: { provider_field: 1 },
    response_metadata: { model_name: "m" },
  });
  const history: BaseMessage[] = [
    new SystemMessage({ id: "s", content: "Be brief." }),
    new HumanMessage({
      id: "h1",
      content: [
        { type: "text", text: "What is here?" },
        { type: "image", url: "https://example.com/x.png" },
      ],
    }),
    reasoning,
    calling,
    new ToolMessage({ id: "t1", content: "A", tool_call_id: "c1", name: "read", artifact: { bytes: 1 } }),
    new ToolMessage({ id: "t2", content: "B", tool_call_id: "c2", status: "error" }),
    new AIMessage({ id: "a2", content: "Done." }),
  ];

  it("maps every LangChain message to ours: roles, text, calls, ids; a reasoning-only message joins the tool call after it", () => {
    const view = fromLangChain(history);
    expect(view.messages).toEqual([
      { role: "system", content: "Be brief.", id: "s" },
      { role: "user", content: "What is here?\n[image]", id: "h1" },
      {
        role: "assistant",
        content: "The file is probably in src.\nReading both.",
        id: "a1",
        toolCalls: [
          { id: "c1", name: "read", arguments: '{"path":"a"}' },
          { id: "c2", name: "read", arguments: '{"path":"b"}' },
        ],
      },
      { role: "tool", content: "A", toolCallId: "c1", id: "t1", name: "read" },
      { role: "tool", content: "B", toolCallId: "c2", id: "t2" },
      { role: "assistant", content: "Done.", id: "a2" },
    ]);
    expect(view.groups[2]).toEqual([reasoning, calling]);
  });

  it("maps the kept messages back to the very same objects; only the note is new", () => {
    const view = fromLangChain(history);
    const note = { role: "user" as const, content: `${SUMMARY_PREFIX}earlier work` };
    const back = toLangChain([view.messages[0]!, note, ...view.messages.slice(2)], view);
    expect(back[0]).toBe(history[0]);
    expect(back.slice(2)).toEqual(history.slice(2));
    back.slice(2).forEach((m, i) => expect(m).toBe(history[i + 2]));
    expect(back[1]).toBeInstanceOf(HumanMessage);
    expect(back[1]!.content).toBe(note.content);
    expect(back[1]!.additional_kwargs).toEqual({ lc_source: NOTE_SOURCE });
    expect(back[1]!.id).toMatch(/^cc-[0-9a-f]{16}$/);
  });

  it("reads reasoning_content, thinking blocks and invalid tool calls", () => {
    const m = new AIMessage({
      content: [{ type: "thinking", thinking: "hmm", signature: "sig" }],
      additional_kwargs: { reasoning_content: "why" },
      invalid_tool_calls: [{ id: "bad", name: "x", args: "{oops", error: "parse", type: "invalid_tool_call" }],
    });
    expect(messageText(m)).toBe("why\nhmm");
    expect(fromLangChain([m]).messages[0]).toEqual({
      role: "assistant",
      content: "why\nhmm",
      toolCalls: [{ id: "bad", name: "x", arguments: "{oops" }],
    });
  });
});

// ---- property: random conversations in LangChain's shape --------------------------------------

interface Gen {
  readonly messages: BaseMessage[];
  /** Unit of each message: messages with the same unit number must stay or go together. */
  readonly unitOf: number[];
}

const words = fc
  .array(fc.constantFrom("parser", "error", "src/app.ts", "ok", "retry", "timeout", "värde", "数据", "🙂", "42"), {
    minLength: 1,
    maxLength: 60,
  })
  .map((w) => w.join(" "));

const step = fc.record({
  calls: fc.integer({ min: 0, max: 3 }),
  reasoningBefore: fc.boolean(),
  reasoningBlock: fc.boolean(),
  text: words,
  results: fc.array(words, { minLength: 3, maxLength: 3 }),
  reverse: fc.boolean(),
});
const turn = fc.record({ text: words, image: fc.boolean(), steps: fc.array(step, { minLength: 0, maxLength: 3 }) });
const conversation = fc.record({ system: fc.boolean(), turns: fc.array(turn, { minLength: 1, maxLength: 6 }) });

type Conversation = typeof conversation extends fc.Arbitrary<infer T> ? T : never;

function build(c: Conversation): Gen {
  const messages: BaseMessage[] = [];
  const unitOf: number[] = [];
  let unit = 0;
  let n = 0;
  const push = (m: BaseMessage, u: number): void => {
    messages.push(m);
    unitOf.push(u);
  };
  if (c.system) push(new SystemMessage({ id: `m${n++}`, content: "You are a coding agent." }), unit++);
  for (const t of c.turns) {
    push(
      new HumanMessage({
        id: `m${n++}`,
        content: t.image
          ? [
              { type: "text", text: t.text },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            ]
          : t.text,
      }),
      unit++,
    );
    for (const s of t.steps) {
      const u = unit++;
      if (s.calls === 0) {
        push(new AIMessage({ id: `m${n++}`, content: s.text }), u);
        continue;
      }
      if (s.reasoningBefore)
        push(
          new AIMessage({
            id: `m${n++}`,
            content: [{ type: "reasoning", reasoning: `thinking about ${s.text.slice(0, 20)}` }],
          }),
          u,
        );
      const ids = Array.from({ length: s.calls }, () => `call_${n++}`);
      const content = s.reasoningBlock
        ? [
            { type: "reasoning", reasoning: "plan" },
            { type: "text", text: s.text },
          ]
        : s.text;
      push(
        new AIMessage({
          id: `m${n++}`,
          content,
          tool_calls: ids.map((id, k) => ({
            id,
            name: k % 2 === 0 ? "read_file" : "bash",
            args: { arg: k },
            type: "tool_call" as const,
          })),
        }),
        u,
      );
      const order = s.reverse ? [...ids].reverse() : ids;
      order.forEach((id, k) =>
        push(new ToolMessage({ id: `m${n++}`, content: s.results[k % 3]!, tool_call_id: id, name: "read_file" }), u),
      );
    }
  }
  return { messages, unitOf };
}

/**
 * Whether position `at` of `out` is right after its leading system messages, or right after the
 * pinned task: the last of the human messages that open `original` (never a note), with only
 * system messages and the other opening messages before it.
 */
function afterOpening(out: readonly BaseMessage[], original: readonly BaseMessage[], at: number): boolean {
  const before = out.slice(0, at);
  if (before.every((y) => y.type === "system")) return true;
  const start = original.findIndex((y) => y.type !== "system");
  let end = start;
  while (
    end >= 0 &&
    end < original.length &&
    original[end]!.type === "human" &&
    original[end]!.additional_kwargs["lc_source"] !== NOTE_SOURCE
  )
    end++;
  const opening = new Set(original.slice(start, end));
  return (
    end > start && before.at(-1) === original[end - 1] && before.every((y) => y.type === "system" || opening.has(y))
  );
}

describe("property: converted → compacted → converted back", () => {
  it("never splits a unit, keeps the originals unchanged and in order, and the order stays valid", async () => {
    const m = manager("prop");
    let evictions = 0;
    await fc.assert(
      fc.asyncProperty(conversation, fc.integer({ min: 60, max: 1500 }), async (c, budget) => {
        const { messages, unitOf } = build(c);
        const before = messages.map((x) => JSON.stringify(x.toDict()));
        const view = fromLangChain(messages);
        const turn = await m.compact(view.messages, { force: true, maxTokens: budget });
        if (turn.evicted.length > 0) evictions++;
        const back = toLangChain(turn.messages, view);
        const positions = back.map((x) => messages.indexOf(x));
        // Only the note is new; it sits right after the leading system messages, or right after
        // the task they are followed by when the task is pinned.
        back.forEach((x, i) => {
          if (positions[i] !== -1) return;
          expect(x.additional_kwargs).toEqual({ lc_source: NOTE_SOURCE });
          expect(String(x.content).startsWith(SUMMARY_PREFIX)).toBe(true);
          expect(afterOpening(back, messages, i)).toBe(true);
        });
        const kept = positions.filter((p) => p !== -1);
        expect(kept).toEqual([...kept].sort((a, b) => a - b));
        // Whole units only.
        const keptUnits = new Set(kept.map((p) => unitOf[p]!));
        unitOf.forEach((u, i) => expect(kept.includes(i), `message ${i} of unit ${u}`).toBe(keptUnits.has(u)));
        // Kept messages are unchanged.
        for (const p of kept) expect(JSON.stringify(messages[p]!.toDict())).toBe(before[p]);
        expect(orderProblems(back)).toEqual([]);
      }),
      { numRuns: 80 },
    );
    expect(evictions).toBeGreaterThan(20);
  });
});

describe('property: the persisted history of mode "state", pass after pass', () => {
  it("holds one note right after the system prompt, folding the earlier notes, and never splits a unit", async () => {
    const m = manager("passes");
    let folded = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(conversation, { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 150, max: 900 }),
        async (parts, budget) => {
          let thread: BaseMessage[] = [];
          const unitOf = new Map<BaseMessage, string>();
          const evictedEver = new Set<string>();
          let passesEvicting = 0;
          for (const [p, part] of parts.entries()) {
            const { messages, unitOf: units } = build({ ...part, system: p === 0 && part.system });
            messages.forEach((x, i) => {
              x.id = `p${p}-${x.id ?? ""}`;
              unitOf.set(x, `${p}:${units[i]!}`);
            });
            const view = fromLangChain([...thread, ...messages]);
            const turn = await m.compact(view.messages, { force: true, maxTokens: budget });
            for (const e of turn.evicted) evictedEver.add(e.id);
            if (turn.evicted.length > 0) passesEvicting++;
            thread = toLangChain(turn.messages, view);
            const notes = thread.filter((x) => x.additional_kwargs["lc_source"] === NOTE_SOURCE);
            expect(notes.length).toBeLessThanOrEqual(1);
            if (notes.length === 1)
              expect(afterOpening(thread, [...unitOf.keys()], thread.indexOf(notes[0]!))).toBe(true);
            expect(orderProblems(thread)).toEqual([]);
            // Units are whole: every unit present in the thread has all its messages there.
            const present = new Map<string, number>();
            for (const x of thread)
              if (unitOf.has(x)) present.set(unitOf.get(x)!, (present.get(unitOf.get(x)!) ?? 0) + 1);
            for (const [u, n] of present)
              expect(n, `unit ${u}`).toBe([...unitOf.values()].filter((v) => v === u).length);
          }
          if (passesEvicting > 1) folded++;
          // The one note names every id evicted in any pass (or counts it as "… N more").
          const note = thread.find((x) => x.additional_kwargs["lc_source"] === NOTE_SOURCE);
          if (evictedEver.size > 0) {
            expect(note).toBeDefined();
            const text = String(note!.content);
            const listed = [...evictedEver].filter((id) => text.includes(id)).length;
            const more = [...text.matchAll(/… (\d+) more/g)].reduce((s, x) => s + Number(x[1]), 0);
            expect(listed + more).toBeGreaterThanOrEqual(evictedEver.size);
          }
        },
      ),
      { numRuns: 25 },
    );
    expect(folded).toBeGreaterThan(5);
  });
});
