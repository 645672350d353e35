/**
 * The model prompt Mastra hands to `processLLMRequest` (the AI SDK provider prompt,
 * `LanguageModelV2Prompt`) to our message model: system, user and assistant messages map one to
 * one (tool-call parts become calls; reasoning counts as text), a tool message becomes one tool
 * message per result. Kept prompt messages are returned as the original objects; only the note is
 * new (a user message).
 *
 * @module convert/prompt
 */
import type { ProcessLLMRequestArgs } from "@mastra/core/processors";
import type { Message, ToolCall } from "@cc/messages";
import { jsonText, type Converted } from "./converted.js";

/**
 * The provider prompt `processLLMRequest` receives and returns.
 *
 * @example const prompt: LLMPrompt = [{ role: "system", content: "Be brief." }, { role: "user", content: [{ type: "text", text: "hi" }] }];
 */
export type LLMPrompt = ProcessLLMRequestArgs["prompt"];
/**
 * One message of an {@link LLMPrompt}.
 *
 * @example const m: LLMPromptMessage = { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "grep", output: { type: "text", value: "3 matches" } }] };
 */
export type LLMPromptMessage = LLMPrompt[number];
type ResultOutput = Extract<
  Extract<LLMPromptMessage, { role: "tool" }>["content"][number],
  { type: "tool-result" }
>["output"];

/** The text of a tool result output (the model reads exactly this, or its JSON). */
export function outputText(output: ResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return jsonText(output.value);
    case "content":
      return output.value.map((v) => (v.type === "text" ? v.text : `[media ${v.mediaType}]`)).join("\n");
  }
}

function promptMessageToMessages(m: LLMPromptMessage): Message[] {
  switch (m.role) {
    case "system":
      return [{ role: "system", content: m.content }];
    case "user": {
      // A note this adapter wrote keeps its seal as its id (the manager verifies it against the text).
      const seal = sealOf(m);
      return [
        {
          role: "user",
          content: m.content.map((p) => (p.type === "text" ? p.text : `[file ${p.mediaType}]`)).join("\n"),
          ...(seal === undefined ? {} : { id: seal }),
        },
      ];
    }
    case "tool":
      return m.content.map((p) => ({
        role: "tool",
        content: outputText(p.output),
        toolCallId: p.toolCallId,
        name: p.toolName,
      }));
    case "assistant": {
      const text: string[] = [];
      const calls: ToolCall[] = [];
      const results: Message[] = [];
      for (const p of m.content) {
        if (p.type === "text" || p.type === "reasoning") text.push(p.text);
        else if (p.type === "file") text.push(`[file ${p.mediaType}]`);
        else if (p.type === "tool-call")
          calls.push({ id: p.toolCallId, name: p.toolName, arguments: jsonText(p.input) });
        else results.push({ role: "tool", content: outputText(p.output), toolCallId: p.toolCallId, name: p.toolName });
      }
      return [
        {
          role: "assistant",
          content: text.filter((s) => s !== "").join("\n"),
          ...(calls.length > 0 ? { toolCalls: calls } : {}),
        },
        ...results,
      ];
    }
  }
}

/**
 * Converts a provider prompt to our messages, each remembering the prompt message it came from.
 *
 * @example
 * const { messages } = fromLLMPrompt([{ role: "system", content: "Be brief." }]); // [{ role: "system", content: "Be brief." }]
 */
export function fromLLMPrompt(prompt: LLMPrompt): Converted {
  const messages: Message[] = [];
  const origin: number[] = [];
  prompt.forEach((m, i) => {
    for (const d of promptMessageToMessages(m)) {
      messages.push(d);
      origin.push(i);
    }
  });
  return { messages, origin };
}

/**
 * Where a note keeps its seal in a prompt message: `providerOptions.cc.note` holds the note's id
 * (no provider reads it), so the note is known again when the prompt is converted back.
 */
export const NOTE_OPTIONS_KEY = "cc";

/** The seal a prompt message carries in `providerOptions.cc.note`, if any. */
function sealOf(m: LLMPromptMessage): string | undefined {
  const note = (m.providerOptions?.[NOTE_OPTIONS_KEY] as Readonly<Record<string, unknown>> | undefined)?.["note"];
  return typeof note === "string" ? note : undefined;
}

/**
 * The note as a prompt message: a user message with one text part; the seal of `note` (its id,
 * when the manager sealed it) goes in `providerOptions.cc.note`.
 */
export function promptNote(text: string, note?: Message): LLMPromptMessage {
  const seal = note?.id;
  return {
    role: "user",
    content: [{ type: "text", text }],
    ...(seal === undefined ? {} : { providerOptions: { [NOTE_OPTIONS_KEY]: { note: seal } } }),
  };
}
