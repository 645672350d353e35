/**
 * The deterministic fallback summary: when the summariser fails or returns nothing, the
 * material it would have summarised (previous summary + folded transcript) is cut to the summary
 * budget with the core's level-3 head+tail truncation. It always fits and needs no LLM, so
 * compaction still frees context while a provider is down; the next successful compaction gets
 * it as its previous summary and replaces it with a real summary.
 *
 * @module session/fallback
 */
import type { TokenCounter } from "@cc/tokens";
import { truncateToBudget } from "@cc/lcm";
import { summarySource, NEW_MESSAGES_HEADING } from "./template.js";

/**
 * How a compaction whose summariser failed continues: `none` = no summary, `truncate` = a truncated summary.
 *
 * @example createSessionCompactor({ store, provider, config: { maxTokens: 32000, fallback: "none" } })
 */
export type SummaryFallback = "none" | "truncate";

/** What produced a saved summary: the summariser (`detailed`) or the deterministic fallback (`truncate`). */
export type SummaryLevel = "detailed" | "truncate";

/** First line of a truncated summary: says what it is to the model that reads it. */
export const TRUNCATED_SUMMARY_HEADING = "[Excerpt, summariser unavailable: start and end of earlier turns, verbatim]";

/** What {@link truncatedSummary} is built from. */
export interface TruncatedSummaryInput {
  /** The serialised messages being folded (see `serialiseTranscript`). */
  readonly transcript: string;
  /** The active summary, when there is one. */
  readonly previousSummary?: string;
  /** Budget of the whole summary, heading included. */
  readonly maxTokens: number;
  readonly counter: TokenCounter;
}

/** A truncated summary and its size. */
export interface TruncatedSummary {
  readonly text: string;
  readonly tokens: number;
  /** UTF-16 units of the source left out. */
  readonly omittedChars: number;
}

/** Budget below which the heading is left out so the body keeps some room. */
const MIN_BODY_TOKENS = 8;

/**
 * Builds the fallback summary (pure): {@link TRUNCATED_SUMMARY_HEADING}, then the head and
 * tail of the summary source cut by `truncateToBudget`, at most `maxTokens` tokens in all.
 * A previous summary that is itself a truncated summary is continued rather than nested, so
 * repeated fallbacks do not pile up headings. `undefined` when nothing non-blank fits.
 *
 * @example
 * truncatedSummary({ transcript: "[user]\nfix it", maxTokens: 256, counter })?.text.startsWith(TRUNCATED_SUMMARY_HEADING) // true
 */
export function truncatedSummary(input: TruncatedSummaryInput): TruncatedSummary | undefined {
  const { counter } = input;
  const maxTokens = Number.isFinite(input.maxTokens) ? Math.floor(input.maxTokens) : 0;
  if (maxTokens <= 0) return undefined;
  const previous = input.previousSummary;
  const source =
    previous !== undefined && previous.startsWith(`${TRUNCATED_SUMMARY_HEADING}\n`)
      ? `${previous.slice(TRUNCATED_SUMMARY_HEADING.length + 1)}\n\n${NEW_MESSAGES_HEADING}\n${input.transcript}`
      : summarySource(input);
  const headingTokens = counter.count(`${TRUNCATED_SUMMARY_HEADING}\n`);
  const withHeading = maxTokens - headingTokens >= MIN_BODY_TOKENS;
  const sourceTokens = counter.count(source);
  let bodyBudget = withHeading ? maxTokens - headingTokens : maxTokens;
  // Token counts are not always additive across the join; shrink the body until the whole fits.
  for (let attempt = 0; attempt < 8 && bodyBudget > 0; attempt++) {
    const cut = truncateToBudget(source, bodyBudget, counter, { sourceTokens });
    if (cut.text.trim() === "") return undefined;
    const text = withHeading ? `${TRUNCATED_SUMMARY_HEADING}\n${cut.text}` : cut.text;
    const tokens = withHeading ? counter.count(text) : cut.tokens;
    if (tokens <= maxTokens) return { text, tokens, omittedChars: cut.omittedChars };
    bodyBudget -= Math.max(1, tokens - maxTokens);
  }
  return undefined;
}
