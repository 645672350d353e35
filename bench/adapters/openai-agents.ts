/**
 * OpenAI Agents SDK contenders. The SDK compacts only sessions stored on OpenAI's servers
 * (`OpenAIResponsesCompactionSession`); for any other session what a user does is read the last N
 * items with `session.getItems(N)`, N the largest that fits the budget. Ours runs the same
 * transcript, as SDK items, through `@cc/openai-agents` (`compactItems`, the core of its
 * `callModelInputFilter` and session wrapper).
 *
 * Transcripts become SDK items the way the SDK stores a run: a user message item, an assistant
 * message item plus one `function_call` item per tool call, a `function_call_result` per tool
 * message. Leading system messages are the agent's instructions (always sent; for ours, pinned
 * system items). Items map back to
 * the original messages; a message only partly kept (some of its calls) comes back as what the
 * model would see: the same role with the kept calls only.
 */
import { createContextManager } from "@cc/context";
import type { AssistantMessage, Message, ToolCall } from "@cc/messages";
import { createAgentsCompaction } from "@cc/openai-agents";
import { tiktokenCounter, type TokenCounter } from "@cc/tokens";
import { MemorySession, type AgentInputItem } from "@openai/agents";
import * as E from "fp-ts/lib/Either.js";
import type { Contender } from "./contender.js";

let shared: TokenCounter | undefined;
const counter = (): TokenCounter => (shared ??= tiktokenCounter());

/** A transcript as SDK items, with the message (and tool call) each item came from. */
interface AsItems {
  readonly instructions: readonly Message[];
  readonly items: readonly AgentInputItem[];
  /** item → [message index, tool call index or -1 for the text part]. */
  readonly origin: ReadonlyMap<AgentInputItem, readonly [number, number]>;
  /** Items each message became. */
  readonly parts: readonly number[];
}

function toItems(history: readonly Message[], systemAsItems: boolean): AsItems {
  let lead = 0;
  while (!systemAsItems && lead < history.length && history[lead]!.role === "system") lead++;
  const items: AgentInputItem[] = [];
  const origin = new Map<AgentInputItem, readonly [number, number]>();
  const parts: number[] = history.map(() => 0);
  const add = (item: AgentInputItem, at: number, call: number): void => {
    items.push(item);
    origin.set(item, [at, call]);
    parts[at] = parts[at]! + 1;
  };
  const names = new Map<string, string>();
  for (let i = lead; i < history.length; i++) {
    const m = history[i]!;
    switch (m.role) {
      case "system":
        add({ type: "message", role: "system", content: m.content }, i, -1);
        break;
      case "user":
        add({ type: "message", role: "user", content: m.content }, i, -1);
        break;
      case "assistant":
        if (m.content !== "" || (m.toolCalls ?? []).length === 0)
          add(
            {
              type: "message",
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: m.content }],
            },
            i,
            -1,
          );
        (m.toolCalls ?? []).forEach((c, k) => {
          names.set(c.id, c.name);
          add({ type: "function_call", callId: c.id, name: c.name, arguments: c.arguments, status: "completed" }, i, k);
        });
        break;
      case "tool":
        add(
          {
            type: "function_call_result",
            callId: m.toolCallId,
            name: m.name ?? names.get(m.toolCallId) ?? "tool",
            status: "completed",
            output: m.content,
          },
          i,
          -1,
        );
        break;
    }
  }
  return { instructions: history.slice(0, lead), items, origin, parts };
}

/** Items back to messages: whole messages are the originals; partly kept ones keep their kept parts; new items are user notes. */
function toMessages(history: readonly Message[], x: AsItems, items: readonly AgentInputItem[]): readonly Message[] {
  const out: Message[] = [...x.instructions];
  let i = 0;
  while (i < items.length) {
    const o = x.origin.get(items[i]!);
    if (o === undefined) {
      const content = (items[i] as { content?: unknown }).content;
      out.push({ role: "user", content: typeof content === "string" ? content : JSON.stringify(content) });
      i++;
      continue;
    }
    const at = o[0];
    const group: (readonly [number, number])[] = [];
    while (i < items.length && x.origin.get(items[i]!)?.[0] === at) group.push(x.origin.get(items[i++]!)!);
    const m = history[at]!;
    if (group.length === x.parts[at]) out.push(m);
    else if (m.role === "assistant") {
      const calls: ToolCall[] = group.filter(([, k]) => k >= 0).map(([, k]) => m.toolCalls![k]!);
      const content = group.some(([, k]) => k < 0) ? m.content : "";
      const partial: AssistantMessage =
        calls.length > 0 ? { ...m, content, toolCalls: calls } : { role: "assistant", content };
      out.push(partial);
    } else out.push(m);
  }
  return out;
}

/** The largest last-N window of a MemorySession that fits (binary search over N; the count grows with N). */
async function lastNFitting(history: readonly Message[], maxTokens: number): Promise<readonly Message[]> {
  const x = toItems(history, false);
  const session = new MemorySession({ initialItems: [...x.items] });
  const fits = async (n: number): Promise<readonly Message[] | undefined> => {
    // getItems returns copies of the last n stored items, in order: map them to ours by position.
    const window = n === 0 ? [] : await session.getItems(n);
    const originals = x.items.slice(x.items.length - window.length);
    if (window.some((item, j) => JSON.stringify(item) !== JSON.stringify(originals[j])))
      throw new Error("session.getItems(n) did not return the last n items");
    const messages = toMessages(history, x, originals);
    return messages.length === 0 || counter().countMessages(messages) <= maxTokens ? messages : undefined;
  };
  let lo = 0;
  let hi = x.items.length;
  let best = (await fits(0)) ?? x.instructions;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const r = await fits(mid);
    if (r === undefined) hi = mid - 1;
    else {
      best = r;
      lo = mid;
    }
  }
  return best;
}

const ours =
  (preserveLast?: number) =>
  async (history: readonly Message[], maxTokens: number): Promise<readonly Message[]> => {
    // Leading system messages go in as system items: they are pinned, and each is counted as sent.
    const x = toItems(history, true);
    const manager = createContextManager({
      maxTokens,
      counter: counter(),
      ...(preserveLast === undefined ? {} : { preserveLast }),
    });
    const cc = createAgentsCompaction({ manager });
    const r = await cc.compactItems(x.items)();
    if (E.isLeft(r)) throw new Error(`@cc/openai-agents: ${r.left._tag}`);
    return toMessages(history, x, r.right.items);
  };

/** The OpenAI Agents SDK contenders: the last-N window of a session (built-in practice) and our adapter. */
export const contenders: readonly Contender[] = [
  {
    framework: "openai-agents",
    name: "session.getItems(N), largest N that fits (built-in)",
    builtIn: true,
    run: lastNFitting,
  },
  {
    framework: "openai-agents",
    name: "@cc/openai-agents compactItems (callModelInputFilter core)",
    builtIn: false,
    run: ours(),
  },
  { framework: "openai-agents", name: "@cc/openai-agents compactItems, preserveLast 2", builtIn: false, run: ours(2) },
];
