// Generators of conversations with tool chains, for example and property tests.
import fc from "fast-check";
import type { Message } from "@cc/messages";

/** A user turn followed by zero or more assistant→tool cycles and a final assistant answer. */
export const turnArb = (turnNo: number): fc.Arbitrary<Message[]> =>
  fc
    .record({
      ask: fc.string({ maxLength: 40 }),
      cycles: fc.array(fc.record({ calls: fc.integer({ min: 1, max: 3 }), out: fc.string({ maxLength: 60 }) }), {
        maxLength: 3,
      }),
      answer: fc.string({ maxLength: 40 }),
    })
    .map(({ ask, cycles, answer }) => {
      const out: Message[] = [{ role: "user", content: ask }];
      cycles.forEach((cycle, c) => {
        const ids = Array.from({ length: cycle.calls }, (_, k) => `t${turnNo}c${c}k${k}`);
        out.push({
          role: "assistant",
          content: "",
          toolCalls: ids.map((id) => ({ id, name: "bash", arguments: JSON.stringify({ command: `echo ${id}` }) })),
        });
        for (const id of ids) out.push({ role: "tool", content: `${cycle.out} ${id}`, toolCallId: id, name: "bash" });
      });
      out.push({ role: "assistant", content: answer });
      return out;
    });

/** A conversation of 1..`maxTurns` turns. */
export const conversationArb = (maxTurns = 8): fc.Arbitrary<Message[]> =>
  fc
    .integer({ min: 1, max: maxTurns })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => turnArb(i))).map((turns) => turns.flat()));

/** `n` plain alternating user/assistant messages numbered from `from`. */
export function chat(n: number, from = 1): Message[] {
  return Array.from({ length: n }, (_, i): Message => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: `message ${from + i}`,
  }));
}
