/**
 * `AgentInputItem[]` ⇄ our `Message[]`. The conversion never rewrites an item: each message
 * remembers the indices of the items it stands for, and a kept message maps back to exactly those
 * item objects. Only a summary note the compactor adds is a new item.
 *
 * Grouping (what makes `messageUnits` keep a unit whole): reasoning items join the item that
 * follows them, and so does an assistant message directly followed by calls; a run of consecutive call items (parallel calls of any kind that carries a
 * `callId`) becomes one assistant message with one tool call per item; each result item becomes a
 * tool message answering its `callId`. Calls and their results therefore form one pair-safe unit
 * together with the reasoning before the calls. Opaque items (unknown kinds, compaction items,
 * hosted tool calls) are single messages whose text is their JSON, so their cost is counted.
 *
 * @module convert/messages
 */
import type { AgentInputItem } from "@openai/agents";
import { SUMMARY_PREFIX, type Message, type ToolCall } from "@cc/messages";
import { itemKind, type ItemKind, type ItemRecord } from "./kinds.js";

/**
 * Items as messages, with the item indices behind each message.
 *
 * @example
 * const c = itemsToMessages(items); // c.sources[i]: the items behind c.messages[i]
 */
export interface ItemConversion {
  /** The messages, `instructions` first (as a system message) when given. */
  readonly messages: readonly Message[];
  /** For each message, the indices of the items it stands for (empty for the instructions). */
  readonly sources: readonly (readonly number[])[];
  /** Whether `messages[0]` is the instructions. */
  readonly hasInstructions: boolean;
}

const idOf = (item: AgentInputItem): string | undefined => {
  const id = (item as ItemRecord)["id"];
  return typeof id === "string" ? id : undefined;
};

const withId = <M extends Message>(m: M, id: string | undefined): M => (id === undefined ? m : { ...m, id });

/**
 * Converts items (and the run's instructions) to messages for the compactor.
 *
 * @example
 * const { messages, sources } = itemsToMessages([{ role: "user", content: "hi" }], "Be brief.");
 * // messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "hi" }]; sources: [[], [0]]
 */
export function itemsToMessages(items: readonly AgentInputItem[], instructions?: string): ItemConversion {
  const messages: Message[] = [];
  const sources: number[][] = [];
  const hasInstructions = instructions !== undefined && instructions !== "";
  if (hasInstructions) {
    messages.push({ role: "system", content: instructions });
    sources.push([]);
  }
  const kinds: readonly ItemKind[] = items.map(itemKind);
  let reasoning: number[] = [];
  const reasoningText = (): string =>
    reasoning
      .map((i) => (kinds[i] as { readonly text: string }).text)
      .filter((s) => s !== "")
      .join("\n");
  const flushReasoning = (): void => {
    if (reasoning.length === 0) return;
    messages.push(withId({ role: "assistant", content: reasoningText() }, idOf(items[reasoning[0]!]!)));
    sources.push(reasoning);
    reasoning = [];
  };
  let i = 0;
  while (i < items.length) {
    const k = kinds[i]!;
    if (k.kind === "reasoning") {
      reasoning.push(i);
      i++;
      continue;
    }
    if (k.kind === "call") {
      const group = [...reasoning];
      const calls: ToolCall[] = [];
      let j = i;
      for (; j < items.length; j++) {
        const c = kinds[j]!;
        if (c.kind !== "call") break;
        calls.push({ id: c.callId, name: c.name, arguments: c.arguments });
        group.push(j);
      }
      messages.push(withId({ role: "assistant", content: reasoningText(), toolCalls: calls }, idOf(items[group[0]!]!)));
      sources.push(group);
      reasoning = [];
      i = j;
      continue;
    }
    if (k.kind === "message" && k.role === "assistant" && kinds[i + 1]?.kind === "call") {
      // The text of a response that goes on with calls: one assistant turn with its calls.
      reasoning.push(i);
      i++;
      continue;
    }
    if (k.kind === "message" && k.role === "assistant") {
      const group = [...reasoning, i];
      const text = [reasoningText(), k.text].filter((s) => s !== "").join("\n");
      messages.push(withId({ role: "assistant", content: text }, idOf(items[group[0]!]!)));
      sources.push(group);
      reasoning = [];
      i++;
      continue;
    }
    flushReasoning();
    const id = idOf(items[i]!);
    if (k.kind === "message") messages.push(withId({ role: k.role, content: k.text }, id));
    else if (k.kind === "result")
      messages.push(withId({ role: "tool", content: k.text, toolCallId: k.callId, name: k.name }, id));
    else messages.push(withId({ role: "assistant", content: k.text }, id));
    sources.push([i]);
    i++;
  }
  flushReasoning();
  return { messages, sources, hasInstructions };
}

/**
 * Items back from compacted messages.
 *
 * @example
 * const { items: next, kept, added } = messagesToItems(turn.messages, conversion, items);
 */
export interface ItemsBack {
  readonly items: readonly AgentInputItem[];
  /** Whether the instructions message is still there (it always is: leading system messages are pinned). */
  readonly instructionsKept: boolean;
  /** Indices (into the input items) of the items kept, in order. */
  readonly kept: readonly number[];
  /** How many new items (summary notes) were added. */
  readonly added: number;
}

const sameMessage = (a: Message, b: Message): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The item that carries a message the compactor added (a summary note): a user message, or a system message. */
export function noteItem(m: Message): AgentInputItem {
  return m.role === "system"
    ? { type: "message", role: "system", content: m.content }
    : { type: "message", role: "user", content: m.content };
}

/**
 * Maps compacted messages back to items: a message from the conversion gives back its original
 * item objects (by identity, or by equal content in order when a compactor copied it); a new
 * message becomes a new item ({@link noteItem}).
 *
 * @example
 * const back = messagesToItems(turn.messages, conversion, items);
 * // back.items: the kept originals, with the summary note as a new user item
 */
export function messagesToItems(
  out: readonly Message[],
  conversion: ItemConversion,
  items: readonly AgentInputItem[],
): ItemsBack {
  const position = new Map<Message, number>();
  conversion.messages.forEach((m, i) => position.set(m, i));
  const result: AgentInputItem[] = [];
  const kept: number[] = [];
  let next = 0;
  let added = 0;
  let instructionsKept = false;
  for (const m of out) {
    let at = position.get(m);
    if (at === undefined || at < next) {
      at = undefined;
      for (let j = next; j < conversion.messages.length; j++) {
        if (sameMessage(conversion.messages[j]!, m)) {
          at = j;
          break;
        }
      }
    }
    if (at === undefined) {
      result.push(noteItem(m));
      added++;
      continue;
    }
    next = at + 1;
    if (conversion.hasInstructions && at === 0) {
      instructionsKept = true;
      continue;
    }
    for (const s of conversion.sources[at]!) {
      result.push(items[s]!);
      kept.push(s);
    }
  }
  return { items: result, instructionsKept, kept, added };
}

/** Whether an item is a summary note the compactor added (a message whose text starts with the summary prefix). */
export function isNoteItem(item: AgentInputItem): boolean {
  const k = itemKind(item);
  return k.kind === "message" && k.role !== "assistant" && k.text.startsWith(SUMMARY_PREFIX);
}
