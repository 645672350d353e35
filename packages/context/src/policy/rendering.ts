/**
 * Cache-friendly rendering: after a compaction the manager remembers which history it compacted
 * (the source) and what it sent (the rendered prefix). A later history that extends the same
 * source is sent as the rendered prefix followed by the new messages, byte for byte the same
 * prefix until the next compaction — so the provider's prompt cache keeps hitting. A history
 * that already starts with the rendered prefix (a caller that feeds the last prompt back) is sent
 * as it is. Anything else starts afresh.
 *
 * @module policy/rendering
 */
import { createHash } from "node:crypto";
import { MessageCodec, type Message } from "@cc/messages";
import { nonNegativeInt, objectCodec } from "@cc/validate";
import * as t from "io-ts";

/** The last compaction: what it read and what it produced (JSON-safe, persisted in snapshots). */
export interface Rendering {
  /** Messages of the history the compaction read. */
  readonly sourceLength: number;
  /** SHA-256 of those messages (see {@link digestOf}). */
  readonly sourceDigest: string;
  /** The compacted prompt sent for that history. */
  readonly rendered: readonly Message[];
  readonly renderedDigest: string;
}

const sha = t.refinement(t.string, (s) => /^[0-9a-f]{64}$/.test(s), "Sha256Hex");

/** io-ts codec of a {@link Rendering} (closed). */
export const RenderingCodec = objectCodec(
  "Rendering",
  { sourceLength: nonNegativeInt, sourceDigest: sha, rendered: t.readonlyArray(MessageCodec), renderedDigest: sha },
  {},
  { expected: "a rendering" },
);

/**
 * The digest of the first `n` messages: SHA-256 over each message's JSON, length-prefixed.
 *
 * @example digestOf(history, history.length) // "9f86d0…"
 */
export function digestOf(messages: readonly Message[], n: number): string {
  const h = createHash("sha256");
  for (let i = 0; i < n; i++) {
    const json = JSON.stringify(messages[i]);
    h.update(`${json.length}:`).update(json);
  }
  return h.digest("hex");
}

/**
 * Remembers a compaction of `source` into `rendered`.
 *
 * @example const r = renderingOf(history, turn.messages);
 */
export function renderingOf(source: readonly Message[], rendered: readonly Message[]): Rendering {
  return {
    sourceLength: source.length,
    sourceDigest: digestOf(source, source.length),
    rendered,
    renderedDigest: digestOf(rendered, rendered.length),
  };
}

/** How {@link applyRendering} built the prompt. */
export type Reuse = "source" | "rendered" | "none";

/**
 * The prompt for `history` given the last compaction (pure): the rendered prefix plus what came
 * after its source, the history itself when it already starts with the rendered prefix, else
 * the history unchanged.
 *
 * @example const { prompt, reuse } = applyRendering(renderingOf(history, turn.messages), history);
 */
export function applyRendering(
  r: Rendering | undefined,
  history: readonly Message[],
): { readonly prompt: readonly Message[]; readonly reuse: Reuse } {
  if (r === undefined) return { prompt: history, reuse: "none" };
  if (history.length >= r.rendered.length && digestOf(history, r.rendered.length) === r.renderedDigest)
    return { prompt: history, reuse: "rendered" };
  if (history.length >= r.sourceLength && digestOf(history, r.sourceLength) === r.sourceDigest) {
    return { prompt: [...r.rendered, ...history.slice(r.sourceLength)], reuse: "source" };
  }
  return { prompt: history, reuse: "none" };
}

/**
 * Tokens of the part of `prompt` a compaction leaves byte-identical — its leading system messages,
 * which every strategy pins — so that a provider's prompt cache still hits on them after the
 * rewrite (pure given `count`). The cost model charges the cache write only after them.
 *
 * @example
 * const prompt: Message[] = [{ role: "system", content: "Be brief." }, { role: "user", content: "hi" }, { role: "assistant", content: "hello" }];
 * stablePrefixTokens(prompt, (ms) => counter.countMessages(ms)) // tokens of prompt[0]
 */
export function stablePrefixTokens(
  prompt: readonly Message[],
  count: (messages: readonly Message[]) => number,
): number {
  let n = 0;
  while (n < prompt.length && prompt[n]!.role === "system") n++;
  return n === 0 ? 0 : count(prompt.slice(0, n));
}
