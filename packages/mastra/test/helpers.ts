// Test helpers: a scripted AI SDK mock model for Mastra agents and prompt checks in our message model.
import { SUMMARY_PREFIX, type Message } from "@cc/messages";
import type { Agent } from "@mastra/core/agent";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { fromLLMPrompt, type LLMPrompt } from "@cc/test-support/mastra";

/** One scripted model reply: a tool call or a text. */
export type Reply =
  { readonly tool: string; readonly input: Readonly<Record<string, unknown>> } | { readonly text: string };

type LanguageModelV3StreamPart =
  Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The model option of a Mastra `Agent`. */
export type AgentModel = ConstructorParameters<typeof Agent>[0]["model"];

/**
 * The mock as an Agent's model. @mastra/core 1.71 runs "v3" models (checked at run time by
 * `isSupportedLanguageModel`), but its bundled copy of the provider types differs from the one
 * `ai` 7 ships, so the same object needs this one cast to type-check.
 */
export const asAgentModel = (model: MockLanguageModelV3): AgentModel => model as unknown as AgentModel;

/**
 * A mock model whose reply is chosen from the prompt it receives (`script(prompt, call)`), so a
 * run's steps follow the conversation; every prompt is kept in `doGenerateCalls`.
 */
export function scriptedModel(script: (prompt: LLMPrompt, call: number) => Reply): MockLanguageModelV3 {
  let call = 0;
  const next = (prompt: unknown): { readonly reply: Reply; readonly id: string } => {
    const reply = script(prompt as LLMPrompt, call);
    call++;
    return { reply, id: `call-${call}` };
  };
  const finishReason = (reply: Reply) => ({
    unified: "tool" in reply ? ("tool-calls" as const) : ("stop" as const),
    raw: undefined,
  });
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const { reply, id } = next(options.prompt);
      const content =
        "tool" in reply
          ? [{ type: "tool-call" as const, toolCallId: id, toolName: reply.tool, input: JSON.stringify(reply.input) }]
          : [{ type: "text" as const, text: reply.text }];
      return { content, finishReason: finishReason(reply), usage, warnings: [] };
    },
    doStream: async (options) => {
      const { reply, id } = next(options.prompt);
      const body: LanguageModelV3StreamPart[] =
        "tool" in reply
          ? [{ type: "tool-call", toolCallId: id, toolName: reply.tool, input: JSON.stringify(reply.input) }]
          : [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: reply.text },
              { type: "text-end", id: "t" },
            ];
      const parts: LanguageModelV3StreamPart[] = [
        { type: "stream-start", warnings: [] },
        ...body,
        { type: "finish", finishReason: finishReason(reply), usage },
      ];
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

/** Tool results whose call is not issued by an earlier assistant message, and calls without a result. */
export function pairingProblems(messages: readonly Message[]): string[] {
  const issued = new Set<string>();
  const answered = new Set<string>();
  const problems: string[] = [];
  for (const m of messages) {
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) issued.add(c.id);
    if (m.role === "tool") {
      if (!issued.has(m.toolCallId)) problems.push(`orphaned result ${m.toolCallId}`);
      answered.add(m.toolCallId);
    }
  }
  for (const id of issued) if (!answered.has(id)) problems.push(`call without result ${id}`);
  return problems;
}

/** The prompt in our message model. */
export const asMessages = (prompt: LLMPrompt): readonly Message[] => fromLLMPrompt(prompt).messages;

/** The eviction note of a prompt, if any. */
export function noteOf(messages: readonly Message[]): string | undefined {
  return messages.find((m) => m.role === "user" && m.content.startsWith(SUMMARY_PREFIX))?.content;
}

/** The text of the last message of a prompt (what the scripted model reacts to). */
export function lastText(prompt: LLMPrompt): { readonly role: string; readonly text: string } {
  const m = prompt[prompt.length - 1]!;
  if (m.role === "system") return { role: m.role, text: m.content };
  return {
    role: m.role,
    text: asMessages([m])
      .map((x) => x.content)
      .join("\n"),
  };
}
