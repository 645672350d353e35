/**
 * The offline, deterministic extractive summariser: a {@link Provider} that needs no network and
 * no key, the embedded default. It reads the request (the delimited transcript and whether the
 * instructions ask for bullet points) and writes a structured summary of what a later turn needs:
 * the goal, files touched, identifiers, the last outcome of each command, error lines, decisions
 * and the latest state — within the request's `maxTokens` and a share of the source's size.
 *
 * @module providers/offline
 */
import { estimateCounter, type TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { extractFacts } from "./offline/facts.js";
import { parseTranscript, sourceOf, styleOf, type SummaryStyle } from "./offline/parse.js";
import { renderSummary } from "./offline/render.js";
import type { Completion, ModelInfo, Provider, ProviderError } from "@cc/messages";
import { decodeOrThrow, decodeWith, intIn, numberIn, objectCodec, withMethods } from "@cc/validate";

export type { SummaryStyle } from "./offline/parse.js";

/**
 * Options of {@link offlineProvider} and {@link extractiveSummary}.
 *
 * @example const provider = offlineProvider({ detailedShare: 0.3, maxLineChars: 160 } satisfies OfflineProviderOptions);
 */
export interface OfflineProviderOptions {
  /**
   * Counts tokens to honour `maxTokens`.
   * @default the weighted estimate counter of `@cc/tokens`
   */
  readonly counter?: TokenCounter;
  /**
   * Output budget when a request sets no `maxTokens`.
   * @default 1024
   */
  readonly defaultMaxTokens?: number;
  /**
   * Longest line kept, in characters (longer lines are cut with "…").
   * @default 240
   */
  readonly maxLineChars?: number;
  /**
   * A detailed summary aims at this share of the source's tokens (never above `maxTokens`).
   * @default 0.25
   */
  readonly detailedShare?: number;
  /**
   * A bullet summary aims at this share of the source's tokens (never above `maxTokens`).
   * @default 0.12
   */
  readonly bulletShare?: number;
  /**
   * The share-based aim is never below this many tokens (still capped by `maxTokens`).
   * @default 128
   */
  readonly minTokens?: number;
}

/**
 * io-ts codec of {@link OfflineProviderOptions} (closed): a misspelt field, NaN, ±Infinity, a
 * negative or out-of-range number is refused by name, never replaced by the default.
 */
export const OfflineProviderOptionsCodec = objectCodec(
  "OfflineProviderOptions",
  {},
  {
    counter: withMethods<TokenCounter>("TokenCounter", ["count", "countMessages"]),
    defaultMaxTokens: intIn(0, 1_000_000_000),
    maxLineChars: intIn(16, 100_000_000),
    detailedShare: numberIn(0, 1000),
    bulletShare: numberIn(0, 1000),
    minTokens: intIn(0, 1_000_000_000),
  },
  { expected: "an options object" },
);

const decodeOfflineOptions = decodeWith(OfflineProviderOptionsCodec, "InvalidOptions", "offline provider options");

/** The model id the offline provider reports. */
export const OFFLINE_MODEL = "offline-extractive";

/** Below this many tokens of budget no summary is attempted (the reply is empty). */
export const OFFLINE_MIN_BUDGET = 8;

const finite = (x: number | undefined, fallback: number): number =>
  x !== undefined && Number.isFinite(x) && x >= 0 ? x : fallback;

/**
 * The token budget the summariser aims at (pure): `min(maxTokens − margin, max(minTokens,
 * share × sourceTokens))`, the margin being 2% of `maxTokens` (at least 1) so another counter's
 * rounding cannot push the reply over.
 *
 * @example summaryBudget(1000, 8000, "detailed", {}) // 980: min(1000 − 20, max(128, 0.25 × 8000))
 */
export function summaryBudget(
  maxTokens: number,
  sourceTokens: number,
  style: SummaryStyle,
  options: OfflineProviderOptions,
): number {
  const max = Math.max(0, Math.floor(finite(maxTokens, 0)));
  const cap = max - Math.max(1, Math.ceil(max * 0.02));
  const share = style === "bullet" ? finite(options.bulletShare, 0.12) : finite(options.detailedShare, 0.25);
  const aim = Math.max(finite(options.minTokens, 128), Math.ceil(share * sourceTokens));
  return Math.max(0, Math.min(cap, aim));
}

/**
 * Summarises a serialised transcript `source` (pure, deterministic, linear apart from ranking the
 * distinct identifiers). The reply never exceeds `maxTokens` as `counter` counts it, and is empty
 * when the budget is below {@link OFFLINE_MIN_BUDGET} or the source holds nothing.
 *
 * @example
 * extractiveSummary("[user]\nfix src/a.ts\n\n[assistant]\n→ call bash #1: npm test\n\n[tool result bash #1]\nError: boom", 200, counter)
 * // "Goal: fix src/a.ts\nFiles touched: …\nCommands (last outcome of each):\n- `bash npm test` → Error: boom\n…"
 */
export function extractiveSummary(
  source: string,
  maxTokens: number,
  counter: TokenCounter,
  options: OfflineProviderOptions & { readonly style?: SummaryStyle } = {},
): string {
  const style = options.style ?? "detailed";
  const budget = summaryBudget(maxTokens, counter.count(source), style, options);
  if (budget < OFFLINE_MIN_BUDGET) return "";
  const facts = extractFacts(parseTranscript(source), Math.max(16, Math.floor(finite(options.maxLineChars, 240))));
  return renderSummary(facts, style, budget, counter);
}

/**
 * Creates the offline extractive summariser. Invalid options (an unknown field, NaN, ±Infinity,
 * a negative or out-of-range number) throw a `CcError` of @cc/validate carrying the
 * typed `InvalidOptions` (subject "offline provider options"), naming the field.
 *
 * @example
 * import { summaryPrompt } from "../prompts.js";
 * const provider = offlineProvider();
 * const transcript = "[user]\nfix the CSV reader\n\n[assistant]\nreading src/csv.py";
 * const r = await provider.complete({ model: OFFLINE_MODEL, messages: summaryPrompt("detailed", transcript, 500), maxTokens: 500 })();
 * // right({ text: "Goal: …", usage: {...}, model: "offline-extractive" })
 */
export function offlineProvider(options: OfflineProviderOptions = {}): Provider {
  decodeOrThrow(decodeOfflineOptions, options);
  const counter = options.counter ?? estimateCounter();
  const defaultMax = finite(options.defaultMaxTokens, 1024);
  const models: readonly ModelInfo[] = [
    { id: OFFLINE_MODEL, inputCostPerMTok: 0, outputCostPerMTok: 0, strength: "very_low" },
  ];
  return {
    name: "offline",
    complete: (request) => () => {
      if (request.signal?.aborted === true)
        return Promise.resolve(E.left<ProviderError, Completion>({ _tag: "ProviderAborted" }));
      const source = sourceOf(request.messages);
      const max =
        request.maxTokens !== undefined && Number.isFinite(request.maxTokens)
          ? Math.max(0, Math.floor(request.maxTokens))
          : defaultMax;
      const text = extractiveSummary(source, max, counter, { ...options, style: styleOf(request.messages) });
      const usage = { inputTokens: counter.count(source), outputTokens: counter.count(text) };
      return Promise.resolve(E.right<ProviderError, Completion>({ text, model: request.model, usage }));
    },
    listModels: () => TE.right(models),
  };
}
