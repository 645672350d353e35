/**
 * Mastra contenders: the built-in `TokenLimiterProcessor` (its prompt-stage hook, which is what an
 * Agent runs on @mastra/core 1.x) and the `@cc/mastra` processor's prompt-stage hook. Both get the
 * transcript as the provider prompt Mastra builds (one prompt message per message of ours), and
 * what they return is mapped back: kept prompt messages to the very messages they came from, the
 * note (ours only) converted.
 */
import type { Message } from "@cc/messages";
import { createCompactionProcessor } from "@cc/mastra";
import { fromLLMPrompt, type LLMPrompt, type LLMPromptMessage } from "@cc/test-support/mastra";
import {
  TokenLimiterProcessor,
  type ProcessLLMRequestArgs,
  type ProcessLLMRequestResult,
} from "@mastra/core/processors";
import type { Contender } from "./contender.js";

const parseArgs = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** One prompt message per message of ours (a tool message carries its one result). */
function toPromptMessage(m: Message): LLMPromptMessage {
  switch (m.role) {
    case "system":
      return { role: "system", content: m.content };
    case "user":
      return { role: "user", content: [{ type: "text", text: m.content }] };
    case "tool":
      return {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: m.toolCallId,
            toolName: m.name ?? "tool",
            output: { type: "text", value: m.content },
          },
        ],
      };
    case "assistant":
      return {
        role: "assistant",
        content: [
          ...(m.content === "" ? [] : [{ type: "text" as const, text: m.content }]),
          ...(m.toolCalls ?? []).map((c) => ({
            type: "tool-call" as const,
            toolCallId: c.id,
            toolName: c.name,
            input: parseArgs(c.arguments),
          })),
        ],
      };
  }
}

/** Runs a prompt-stage hook on `history` and maps its prompt back to our messages. */
async function viaPrompt(
  history: readonly Message[],
  hook: (args: ProcessLLMRequestArgs) => Promise<ProcessLLMRequestResult>,
): Promise<readonly Message[]> {
  const prompt: LLMPrompt = history.map(toPromptMessage);
  const source = new Map<LLMPromptMessage, Message>(prompt.map((p, i) => [p, history[i]!]));
  const args = {
    prompt,
    model: {} as ProcessLLMRequestArgs["model"],
    stepNumber: 0,
    steps: [],
    state: {},
    retryCount: 0,
    abort: (reason?: string): never => {
      throw new Error(reason ?? "aborted");
    },
  };
  const out = (await hook(args))?.prompt ?? prompt;
  return out.flatMap((p) => {
    const kept = source.get(p);
    return kept === undefined ? fromLLMPrompt([p]).messages : [kept];
  });
}

/** Mastra's built-in limiter and the @cc/mastra processor. */
export const contenders: readonly Contender[] = [
  {
    framework: "mastra",
    name: "TokenLimiterProcessor (built-in)",
    builtIn: true,
    run: async (history, maxTokens) => {
      const limiter = new TokenLimiterProcessor({ limit: maxTokens });
      return viaPrompt(history, (args) => limiter.processLLMRequest(args));
    },
  },
  {
    framework: "mastra",
    name: "@cc/mastra processor (processLLMRequest)",
    builtIn: false,
    run: async (history, maxTokens) => {
      const processor = createCompactionProcessor({ maxTokens, toolResultMaxTokens: 0 });
      return viaPrompt(history, (args) => processor.processLLMRequest(args));
    },
  },
];
