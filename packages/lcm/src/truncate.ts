/**
 * Level-3 truncation: a deterministic head+tail cut that always fits its budget. Linear time,
 * surrogate-safe, and marked where text was left out.
 *
 * @module truncate
 */
import type { TokenCounter } from "@cc/tokens";
import { decodeOrThrow, decodeWith, nonNegativeInt, numberIn, objectCodec } from "@cc/validate";
import { headOf, omissionMarker, tailOf } from "./clip.js";

/**
 * The outcome of {@link truncateToBudget}.
 *
 * @example
 * const longLog = "GET /health 200\n".repeat(5000);
 * const t: Truncation = truncateToBudget(longLog, 200, counter); // t.text fits 200 tokens
 */
export interface Truncation {
  /** The kept text: a prefix of the source, a marker, and a suffix of the source (or the source). */
  readonly text: string;
  /** True when anything was left out. */
  readonly cut: boolean;
  /** UTF-16 units left out of the source. */
  readonly omittedChars: number;
  /** Tokens of `text`. */
  readonly tokens: number;
}

/**
 * Options of {@link truncateToBudget}.
 *
 * @example truncateToBudget("GET /health 200\n".repeat(5000), 200, counter, { headShare: 0.3 } satisfies TruncateOptions)
 */
export interface TruncateOptions {
  /**
   * Share of the kept characters taken from the start (the rest from the end).
   * @default 0.5
   */
  readonly headShare?: number;
  /**
   * Token count of `source` when the caller already knows it (saves one count).
   * @default counted from `source`
   */
  readonly sourceTokens?: number;
}

/** io-ts codec of {@link TruncateOptions} (closed). */
export const TruncateOptionsCodec = objectCodec(
  "TruncateOptions",
  {},
  { headShare: numberIn(0, 1), sourceTokens: nonNegativeInt },
  { expected: "an options object" },
);

const decodeTruncateOptions = decodeWith(TruncateOptionsCodec, "InvalidOptions", "truncate options");

/** Markers tried, longest first, when no source text fits next to a marker. */
const SHORT_MARKERS = ["[…]", "…", "."] as const;

/**
 * Cuts `source` to at most `maxTokens` tokens, keeping its start and end with an omission marker
 * between them. Returns the source unchanged (`cut: false`) when it already fits. With
 * `maxTokens` ≤ 0 the result is empty. Invalid options (an unknown field, a share outside [0, 1],
 * a negative or fractional `sourceTokens`) throw a `CcError` of @cc/validate naming
 * the field.
 *
 * Cost: one count of the source plus a bounded number of counts of outputs no larger than the
 * budget — linear in the source. Never splits a surrogate pair.
 *
 * @example truncateToBudget("a long text …", 5, counter).text // "a lo\n[… 9 chars omitted …]\n…"
 */
export function truncateToBudget(
  source: string,
  maxTokens: number,
  counter: TokenCounter,
  options: TruncateOptions = {},
): Truncation {
  decodeOrThrow(decodeTruncateOptions, options);
  const budget = Number.isFinite(maxTokens) ? Math.floor(maxTokens) : 0;
  const sourceTokens = options.sourceTokens ?? counter.count(source);
  if (sourceTokens <= budget) return { text: source, cut: false, omittedChars: 0, tokens: sourceTokens };
  if (budget <= 0) return { text: "", cut: source.length > 0, omittedChars: source.length, tokens: 0 };
  const headShare = Math.min(1, Math.max(0, options.headShare ?? 0.5));
  const charsPerToken = source.length / Math.max(1, sourceTokens);
  const markerChars = omissionMarker(source.length).length + 2;
  let keep = Math.min(source.length - 1, Math.floor(budget * charsPerToken) - markerChars);
  for (let step = 0; step < 64 && keep > 0; step++) {
    const head = headOf(source, Math.floor(keep * headShare));
    const tail = tailOf(source, keep - head.length);
    const omitted = source.length - head.length - tail.length;
    const text = `${head}\n${omissionMarker(omitted)}\n${tail}`;
    const tokens = counter.count(text);
    if (tokens <= budget) return { text, cut: true, omittedChars: omitted, tokens };
    keep = Math.min(keep - 1, Math.floor(keep * (budget / tokens) * 0.9));
  }
  for (const marker of [omissionMarker(source.length), ...SHORT_MARKERS]) {
    const tokens = counter.count(marker);
    if (tokens <= budget) return { text: marker, cut: true, omittedChars: source.length, tokens };
  }
  return { text: "", cut: true, omittedChars: source.length, tokens: 0 };
}
