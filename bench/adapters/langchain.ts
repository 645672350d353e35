/**
 * LangChain.js contenders: the built-ins `trimMessages` (@langchain/core; strategy "last",
 * startOn human, includeSystem) and `summarizationMiddleware` (langchain; its summary written by
 * a fake model), and `@cc/langchain`'s compaction middleware. Each takes our `Message[]`, converts
 * it to LangChain messages, runs, and maps what the model would be sent back to our messages —
 * kept ones are the very history messages, only a summary or note is new. Every token count (the
 * built-ins' `tokenCounter` included) is the exact o200k counter.
 */
import { createContextManager } from "@cc/context";
import { compactionMiddleware, fromLangChain, messageText, newLangChainMessage } from "@cc/langchain";
import type { Message } from "@cc/messages";
import { tiktokenCounter, type TokenCounter } from "@cc/tokens";
import { AIMessage, trimMessages, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent, summarizationMiddleware, type AgentMiddleware } from "langchain";
import type { Contender } from "./contender.js";

let shared: TokenCounter | undefined;
/** One exact counter for every run (creating an encoder per run costs 0.3–1 s). */
const counter = (): TokenCounter => (shared ??= tiktokenCounter());

/**
 * Our history as LangChain messages with ids `h<i>`, and the way back: the same object, or a copy
 * with the same id, type and text (`summarizationMiddleware` gives its summary the id of the first
 * message it replaced, so an id alone does not identify a kept message).
 */
interface Bridge {
  readonly messages: BaseMessage[];
  readonly back: (out: readonly BaseMessage[]) => readonly Message[];
  readonly count: (messages: readonly BaseMessage[]) => number;
}

function bridge(history: readonly Message[]): Bridge {
  const byObject = new Map<BaseMessage, Message>();
  const byId = new Map<string, BaseMessage>();
  const messages = history.map((m, i) => {
    const lc = newLangChainMessage({ ...m, id: `h${i}` });
    byObject.set(lc, m);
    byId.set(`h${i}`, lc);
    return lc;
  });
  const one = (m: BaseMessage): Message[] => {
    const same = byObject.get(m);
    if (same !== undefined) return [same];
    const twin = typeof m.id === "string" ? byId.get(m.id) : undefined;
    if (twin !== undefined && twin.type === m.type && messageText(twin) === messageText(m))
      return [byObject.get(twin)!];
    // A message the framework wrote (summary, note); an empty system prompt is not sent.
    const converted = fromLangChain([m]).messages;
    return converted.filter((c) => !(c.role === "system" && c.content === ""));
  };
  const back = (out: readonly BaseMessage[]): readonly Message[] => out.flatMap(one);
  const count = (ms: readonly BaseMessage[]): number => (ms.length === 0 ? 0 : counter().countMessages(back(ms)));
  return { messages, back, count };
}

/** Runs `history` through `createAgent` with `middleware` and a fake model; returns what the model received. */
async function throughAgent(b: Bridge, middleware: readonly AgentMiddleware[]): Promise<readonly Message[]> {
  let received: BaseMessage[] = [];
  const model = fakeModel().respond((messages) => {
    received = messages;
    return new AIMessage("ok");
  });
  const agent = createAgent({ model, tools: [], middleware });
  await agent.invoke({ messages: b.messages });
  return b.back(received);
}

const trim: Contender = {
  framework: "langchain",
  name: "trimMessages (built-in)",
  builtIn: true,
  run: async (history, maxTokens) => {
    const b = bridge(history);
    const out: readonly (BaseMessage | undefined)[] = await trimMessages(b.messages, {
      maxTokens,
      strategy: "last",
      tokenCounter: (ms) => b.count(ms),
      startOn: "human",
      includeSystem: true,
    });
    // When not even the system message fits, @langchain/core 1.4.0 returns `[undefined]`: nothing is sent.
    return b.back(out.filter((m): m is BaseMessage => m !== undefined));
  },
};

/** The summary the fake summarisation model writes: the start of the prompt it got, about a tenth of the budget. */
const summaryModel = (maxTokens: number) =>
  fakeModel()
    .respond(
      (messages) =>
        new AIMessage(
          `Earlier: ${messages
            .map((m) => m.text)
            .join(" ")
            .slice(0, Math.max(200, maxTokens * 0.4))}`,
        ),
    )
    .respond(
      (messages) =>
        new AIMessage(
          `Earlier: ${messages
            .map((m) => m.text)
            .join(" ")
            .slice(0, Math.max(200, maxTokens * 0.4))}`,
        ),
    );

const summarize: Contender = {
  framework: "langchain",
  name: "summarizationMiddleware (built-in, fake summary model)",
  builtIn: true,
  run: async (history, maxTokens) => {
    const b = bridge(history);
    const config = {
      model: summaryModel(maxTokens),
      trigger: { tokens: Math.floor(maxTokens * 0.8) },
      keep: { tokens: Math.floor(maxTokens * 0.5) },
      tokenCounter: (ms: BaseMessage[]): number => b.count(ms),
    };
    // The declared parameter type is inferred from a zod/v3 schema and collapses to `never` here;
    // the fields above are those of the installed summarization.d.ts (model, trigger, keep, tokenCounter).
    const middleware = summarizationMiddleware(config as never);
    return throughAgent(b, [middleware]);
  },
};

let runs = 0;
const ours: Contender = {
  framework: "langchain",
  name: "@cc/langchain compactionMiddleware",
  builtIn: false,
  run: async (history, maxTokens) => {
    const b = bridge(history);
    const manager = createContextManager({ maxTokens, counter: counter(), namespace: `bench-${runs++}` });
    const errors: string[] = [];
    const out = await throughAgent(b, [compactionMiddleware({ manager, onError: (e) => void errors.push(e.message) })]);
    if (errors.length > 0) throw new Error(`@cc/langchain reported: ${errors.join("; ")}`);
    return out;
  },
};

/** The LangChain.js contenders: two built-ins and ours. */
export const contenders: readonly Contender[] = [trim, summarize, ours];
