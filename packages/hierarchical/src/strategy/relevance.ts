/**
 * Relevance to the current step: how much a unit shares with the agent's working set — its latest
 * messages (their text and tool-call arguments) — as BM25 similarity over the terms the index
 * itself uses (`tokenize`), so what a unit is scored by is what a search would find it by.
 *
 * Pure and linear: each unit's text is sampled (head and tail of {@link RELEVANCE_SCAN_CHARS}
 * characters), the working set's distinct terms are the query. A unit's relevance is
 * `s / (1 + s)` for its BM25 score `s` (in [0, 1), 0 with no shared term): adding a term of the
 * unit to the working set never lowers it, since every term adds a non-negative part and the
 * statistics (N, df, lengths) are those of the units, which the query does not change.
 *
 * @module strategy/relevance
 */
import type { Message, MessageUnit } from "@cc/messages";
import { unitText } from "@cc/messages";
import { idf, MAX_QUERY_TERMS, tfPart, tokenize } from "@cc/search/internal";

/** Characters of a unit's text read from its head and from its tail (one huge output costs a bounded scan). */
export const RELEVANCE_SCAN_CHARS = 4000;

/**
 * Messages of the working set when a pass does not say.
 *
 * @example DEFAULT_RELEVANCE_WINDOW // 6
 */
export const DEFAULT_RELEVANCE_WINDOW = 6;

const sample = (text: string): string =>
  text.length > 2 * RELEVANCE_SCAN_CHARS
    ? `${text.slice(0, RELEVANCE_SCAN_CHARS)}\n${text.slice(-RELEVANCE_SCAN_CHARS)}`
    : text;

/** A message's text as the working set reads it: content and tool-call arguments. */
const said = (m: Message): string =>
  m.role === "assistant" ? [m.content, ...(m.toolCalls ?? []).map((c) => c.arguments)].join("\n") : m.content;

/**
 * The distinct query terms of the working set: the latest `window` non-system messages.
 *
 * @example workingSetTerms([{ role: "user", content: "fix src/app.py" }], 6) // ["fix", "src", "app", "py", …]
 */
export function workingSetTerms(messages: readonly Message[], window: number): readonly string[] {
  const recent: string[] = [];
  for (let i = messages.length - 1; i >= 0 && recent.length < window; i--) {
    const m = messages[i]!;
    if (m.role !== "system") recent.push(sample(said(m)));
  }
  const seen = new Set<string>();
  for (const text of recent) {
    for (const term of tokenize(text)) {
      if (seen.size >= MAX_QUERY_TERMS * 4) break;
      seen.add(term);
    }
  }
  return [...seen];
}

/**
 * The relevance of each unit to the query `terms` (pure), in [0, 1): BM25 of the unit's sampled
 * text, with N, df and the average length over `units`, mapped by `s / (1 + s)`.
 *
 * @example unitRelevance(messageUnits(history), workingSetTerms(history, 6))[0] // 0.62
 */
export function unitRelevance(units: readonly MessageUnit[], terms: readonly string[]): readonly number[] {
  if (units.length === 0 || terms.length === 0) return units.map(() => 0);
  const query = new Set(terms);
  const docs = units.map((u) => {
    const tf = new Map<string, number>();
    let len = 0;
    for (const term of tokenize(sample(unitText(u)))) {
      len++;
      if (query.has(term)) tf.set(term, (tf.get(term) ?? 0) + 1);
    }
    return { tf, len };
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const term of d.tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const avg = Math.max(1, docs.reduce((n, d) => n + d.len, 0) / docs.length);
  return docs.map((d) => {
    let s = 0;
    for (const [term, f] of d.tf) s += idf(docs.length, df.get(term) ?? 0) * tfPart(f, d.len, avg);
    return s > 0 && Number.isFinite(s) ? s / (1 + s) : 0;
  });
}
