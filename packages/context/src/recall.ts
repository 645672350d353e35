/**
 * Automatic recall: before the prompt goes to the model, the index is searched with the agent's
 * latest words (its newest assistant message: text and call arguments), and the originals of the
 * top hits that fit a recall allowance come back in one message at the end of the prompt —
 * after everything else, so the prompt's prefix (and a provider's cache of it) is unchanged.
 * The message is sealed with the manager's key: the next turn takes it out of the history
 * before compacting (a recall lives for one prompt), and `isRecalled` tells it apart from any
 * message that only reads like one.
 *
 * @module recall
 */
import { createHmac } from "node:crypto";
import type { IndexError, SegmentIndex } from "@cc/search";
import type { Message, UserMessage } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";

/**
 * How a manager recalls (`ContextManagerOptions.recall`).
 *
 * @example createContextManager({ maxTokens: 8000, recall: { share: 0.1, k: 5 } satisfies RecallOptions })
 */
export interface RecallOptions {
  /**
   * The most a recall may take, as a share of the budget (`maxTokens`); never more than the
   * budget leaves after the compacted prompt. In (0, 1].
   * @default 0.1
   */
  readonly share?: number;
  /**
   * Hits considered (the best first; each comes back whole, or not at all).
   * @default 5
   */
  readonly k?: number;
  /**
   * The lowest BM25 score a hit needs: a hit that matches only words nearly every entry has
   * (scores near 0) says nothing about the step and is not recalled.
   * @default 0.25
   */
  readonly minScore?: number;
}

/** The defaults of {@link RecallOptions}. */
export const RECALL_DEFAULTS: Required<RecallOptions> = { share: 0.1, k: 5, minScore: 0.25 };

/** How a recall message begins. */
export const RECALL_PREFIX =
  "[Recalled from the journal: the originals of evicted entries that match your last step; each is also expandable by id]";
/** Prefix of the `id` that seals a recall message. */
export const RECALL_ID_PREFIX = "cc-recall:";
/** Characters of the agent's newest message used as the query. */
export const RECALL_QUERY_CHARS = 2_000;

/**
 * The seal of a recall message's text under `key` (HMAC-SHA256, hex).
 *
 * @example recallId("k3y", RECALL_PREFIX) // "cc-recall:…"
 */
export function recallId(key: string, text: string): string {
  return `${RECALL_ID_PREFIX}${createHmac("sha256", key).update(`recall\n${text}`).digest("hex")}`;
}

/**
 * Whether `message` is a recall sealed with `key` (its `id` is the seal of its exact text).
 *
 * @example isRecallMessage({ role: "user", content: RECALL_PREFIX }, key) // false: not sealed
 */
export function isRecallMessage(message: Message, key: string): boolean {
  return message.role === "user" && message.id !== undefined && message.id === recallId(key, message.content);
}

/**
 * The query of a recall (pure): the newest assistant message's text and call arguments, cut to
 * {@link RECALL_QUERY_CHARS}; "" when the prompt has no assistant message.
 *
 * @example recallQuery([{ role: "user", content: "fix it" }, { role: "assistant", content: "open src/io.py" }]) // "open src/io.py"
 */
export function recallQuery(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
    const text = [m.content, ...(m.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`)].join("\n").trim();
    return Array.from(text).slice(0, RECALL_QUERY_CHARS).join("");
  }
  return "";
}

/** What a recall brought back. */
export interface Recall {
  /** The recall message, or `undefined` when nothing fitted. */
  readonly message?: UserMessage;
  /** Index ids brought back, best first. */
  readonly ids: readonly string[];
  readonly tokens: number;
}

/** What {@link recall} needs. */
export interface RecallRun {
  readonly index: SegmentIndex;
  readonly namespace: string;
  readonly key: string;
  readonly countMessages: (messages: readonly Message[]) => number;
  /** Tokens the recall message may take (the allowance, already capped by what the budget leaves). */
  readonly allowance: number;
  readonly k: number;
  readonly minScore: number;
}

/**
 * Searches the index with the agent's latest words and builds the recall message from the hits
 * whose originals fit `run.allowance` whole (a hit already in the prompt is skipped). `Left`
 * only when the index fails.
 *
 * @example
 * const r = await recall(history, { index, namespace: "s1", key, countMessages: (ms) => counter.countMessages(ms), allowance: 800, k: 5, minScore: 0 });
 */
export async function recall(prompt: readonly Message[], run: RecallRun): Promise<E.Either<IndexError, Recall>> {
  const none: Recall = { ids: [], tokens: 0 };
  const query = recallQuery(prompt);
  if (query === "" || run.allowance <= 0) return E.right(none);
  const hits = await run.index.search(query, { k: run.k, namespace: run.namespace })();
  if (E.isLeft(hits)) return hits;
  const sections: string[] = [];
  const ids: string[] = [];
  let message: UserMessage | undefined;
  let tokens = 0;
  for (const hit of hits.right) {
    if (!(hit.score >= run.minScore)) continue;
    const entry = await run.index.expand(hit.id, run.namespace)();
    if (E.isLeft(entry)) return entry;
    const content = entry.right?.content;
    if (content === undefined || content === "" || prompt.some((m) => m.content.includes(content))) continue;
    const next = [...sections, `--- ${hit.id} (${hit.kind}) ---\n${content}`];
    const text = `${RECALL_PREFIX}\n\n${next.join("\n\n")}`;
    const candidate: UserMessage = { role: "user", content: text, id: recallId(run.key, text) };
    const cost = run.countMessages([candidate]) - run.countMessages([]);
    if (cost > run.allowance) continue;
    sections.push(next[next.length - 1]!);
    ids.push(hit.id);
    message = candidate;
    tokens = cost;
  }
  return E.right(message === undefined ? none : { message, ids, tokens });
}
