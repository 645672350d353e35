// A scripted Provider for tests (a hosted LLM cannot run here): it records every request and
// answers with the next scripted reply — text, a typed error, a throw or a rejection.
import * as E from "fp-ts/lib/Either.js";
import type { Completion, CompletionRequest, ModelInfo, Provider, ProviderError } from "@cc/messages";

/** One scripted reply. */
export type Reply =
  | { readonly text: string; readonly inputTokens?: number }
  | { readonly error: ProviderError }
  | { readonly throws: string }
  | { readonly rejects: string };

/** A provider that replays `replies` in order (the last one repeats) and records requests. */
export interface ScriptedProvider extends Provider {
  readonly requests: CompletionRequest[];
}

export function scriptedProvider(
  replies: readonly Reply[],
  models: readonly ModelInfo[] = [{ id: "small", outputCostPerMTok: 1, strength: "low" }],
): ScriptedProvider {
  const requests: CompletionRequest[] = [];
  return {
    name: "scripted",
    requests,
    complete: (request) => {
      requests.push(request);
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)];
      if (reply === undefined) throw new Error("no scripted reply");
      if ("throws" in reply) throw new Error(reply.throws);
      return () => {
        if ("rejects" in reply) return Promise.reject(new Error(reply.rejects));
        if ("error" in reply) return Promise.resolve(E.left(reply.error));
        const completion: Completion = {
          text: reply.text,
          model: request.model,
          usage: { inputTokens: reply.inputTokens ?? 0, outputTokens: 1 },
        };
        return Promise.resolve(E.right(completion));
      };
    },
    listModels: () => () => Promise.resolve(E.right(models)),
  };
}

/** The text of the single prompt message of a recorded request. */
export const promptText = (request: CompletionRequest | undefined): string =>
  request?.messages.map((m) => m.content).join("\n") ?? "";
