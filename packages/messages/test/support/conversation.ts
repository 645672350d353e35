// Builders and generators of conversations for the tests.
import fc from "fast-check";
import type { Message } from "@cc/messages";
import { runsFor } from "../../../../.ci/support/runs.js";

export const runs = runsFor(200, 1000);

export const u = (content = "user turn"): Message => ({ role: "user", content });
export const sys = (content = "you are an agent"): Message => ({ role: "system", content });
export const a = (content = "assistant turn"): Message => ({ role: "assistant", content });
export const call = (...ids: string[]): Message => ({
  role: "assistant",
  content: "",
  toolCalls: ids.map((id) => ({ id, name: "bash", arguments: `{"command":"ls ${id}"}` })),
});
export const tool = (id: string, content = `result of ${id}`): Message => ({
  role: "tool",
  toolCallId: id,
  name: "bash",
  content,
});

/** Random conversations: optional system prefix, then user/assistant turns and tool chains of 1–3 parallel calls. */
export const conversationArb: fc.Arbitrary<readonly Message[]> = fc
  .tuple(
    fc.integer({ min: 0, max: 2 }),
    fc.array(
      fc.oneof(
        fc.constant<"user" | "assistant">("user"),
        fc.constant<"user" | "assistant">("assistant"),
        fc.integer({ min: 1, max: 3 }),
      ),
      { maxLength: 40 },
    ),
    fc.string({ maxLength: 30 }),
  )
  .map(([systems, steps, text]) => {
    const out: Message[] = [];
    for (let i = 0; i < systems; i++) out.push(sys(`system ${i}`));
    let n = 0;
    for (const step of steps) {
      if (step === "user") out.push(u(`u${out.length} ${text}`));
      else if (step === "assistant") out.push(a(`a${out.length} ${text}`));
      else {
        const ids = Array.from({ length: step }, () => `c${n++}`);
        out.push(call(...ids));
        for (const id of ids) out.push(tool(id, `${text} ${id}`));
      }
    }
    return out;
  });

/** Call ids issued by assistant messages in `messages`. */
export const issued = (messages: readonly Message[]): Set<string> =>
  new Set(messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [])));
