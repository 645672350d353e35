/**
 * AI SDK contenders: the SDK's own `pruneMessages` (ai v7) and our `prepareStep`, each given the
 * transcript as AI SDK `ModelMessage`s and returning what the model would be sent, converted back.
 *
 * Converting back: a message the contender returns unchanged (the same object) maps to the
 * original `Message` it was made from, so kept messages are exactly the input's; a message the
 * contender rewrote (pruneMessages drops parts) or added (our note) is read with
 * `fromModelMessages`.
 *
 * `pruneMessages` has no token budget. Its budget-fitting setting here: `reasoning:
 * "before-last-message"`, `toolCalls: "before-last-N-messages"` (tool calls, results and approvals
 * before the last N messages are removed), `emptyMessages: "remove"`, with N the largest that makes
 * the prompt fit `maxTokens` (found by bisection; the token count only grows with N). The whole
 * history is sent when it already fits; when even N = 0 (`toolCalls: "all"`) does not fit, that
 * most-pruned prompt is returned over budget — pruneMessages never removes user or assistant text.
 *
 * Our contender runs `createAiSdkContext({ manager })` with the exact o200k counter and the
 * defaults (hierarchical strategy, threshold 0.8: a compacted prompt is brought to 80 % of the
 * budget, leaving room for the next steps) and calls its `prepareStep` once.
 */
import { createAiSdkContext, fromModelMessages } from "@cc/ai-sdk";
import { createContextManager } from "@cc/context";
import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import { pruneMessages, type ModelMessage } from "ai";
import type { Contender } from "./contender.js";

const counter = tiktokenCounter();

const parseInput = (args: string): unknown => {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
};

/** Our messages as AI SDK messages, one each, and the way back for the unchanged ones. */
export function toModelMessages(history: readonly Message[]): {
  readonly messages: ModelMessage[];
  readonly origin: ReadonlyMap<ModelMessage, Message>;
} {
  const names = new Map<string, string>();
  const origin = new Map<ModelMessage, Message>();
  const messages = history.map((m): ModelMessage => {
    let out: ModelMessage;
    switch (m.role) {
      case "system":
        out = { role: "system", content: m.content };
        break;
      case "user":
        out = { role: "user", content: m.content };
        break;
      case "assistant": {
        const calls = m.toolCalls ?? [];
        for (const c of calls) names.set(c.id, c.name);
        out =
          calls.length === 0
            ? { role: "assistant", content: m.content }
            : {
                role: "assistant",
                content: [
                  ...(m.content === "" ? [] : [{ type: "text" as const, text: m.content }]),
                  ...calls.map((c) => ({
                    type: "tool-call" as const,
                    toolCallId: c.id,
                    toolName: c.name,
                    input: parseInput(c.arguments),
                  })),
                ],
              };
        break;
      }
      case "tool":
        out = {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: m.toolCallId,
              toolName: m.name ?? names.get(m.toolCallId) ?? "tool",
              output: { type: "text", value: m.content },
            },
          ],
        };
        break;
    }
    origin.set(out, m);
    return out;
  });
  return { messages, origin };
}

/** The AI SDK messages a contender returned, as our messages. */
export function backToMessages(
  out: readonly ModelMessage[],
  origin: ReadonlyMap<ModelMessage, Message>,
): readonly Message[] {
  return out.flatMap((m) => {
    const original = origin.get(m);
    return original === undefined ? fromModelMessages([m]) : [original];
  });
}

const tokensOf = (out: readonly ModelMessage[], origin: ReadonlyMap<ModelMessage, Message>): number =>
  counter.countMessages(backToMessages(out, origin));

/** pruneMessages with tool calls kept in the last `n` messages only (`n = 0`: none kept). */
const pruned = (messages: ModelMessage[], n: number): ModelMessage[] =>
  pruneMessages({
    messages,
    reasoning: "before-last-message",
    toolCalls: n === 0 ? "all" : `before-last-${n}-messages`,
    emptyMessages: "remove",
  });

/** The largest `n` whose pruned prompt fits `maxTokens` (and that prompt), or the `n = 0` prompt. */
export function pruneToBudget(
  messages: ModelMessage[],
  origin: ReadonlyMap<ModelMessage, Message>,
  maxTokens: number,
): readonly ModelMessage[] {
  if (tokensOf(messages, origin) <= maxTokens) return messages;
  let lo = 0;
  let hi = messages.length;
  let best = pruned(messages, 0);
  if (tokensOf(best, origin) > maxTokens) return best;
  // Invariant: pruned(lo) fits; pruned(hi) = the whole history does not.
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const candidate = pruned(messages, mid);
    if (tokensOf(candidate, origin) <= maxTokens) {
      lo = mid;
      best = candidate;
    } else hi = mid;
  }
  return best;
}

/** The AI SDK contenders. */
export const contenders: readonly Contender[] = [
  {
    framework: "ai-sdk",
    name: "pruneMessages (built-in)",
    builtIn: true,
    run: async (history, maxTokens) => {
      const { messages, origin } = toModelMessages(history);
      return backToMessages(pruneToBudget(messages, origin, maxTokens), origin);
    },
  },
  {
    framework: "ai-sdk",
    name: "@cc/ai-sdk prepareStep",
    builtIn: false,
    run: async (history, maxTokens) => {
      const { messages, origin } = toModelMessages(history);
      const cc = createAiSdkContext({ manager: createContextManager({ maxTokens, counter }) });
      const step = await cc.prepareStep({ messages, stepNumber: 0 });
      return backToMessages(step?.messages ?? messages, origin);
    },
  },
];
