/**
 * Price sheets of common providers, as data: USD per million tokens for uncached input, cached
 * input (a prompt-cache hit), a cache write (the first time a prefix is sent with caching on) and
 * output. Only the ratios matter to the cost model; the absolute figures make reports readable.
 *
 * Each row quotes the provider's published price page (standard tier, checked 2025; prices change —
 * pass your own {@link PriceSheet} to the policy when they do). Not modelled: Gemini's cache
 * storage fee per hour, long-context surcharges, batch discounts, Anthropic's 1-hour cache tier.
 *
 * @module policy/prices
 */

/** Prices in USD per million tokens. Every field is finite and ≥ 0. */
export interface PriceSheet {
  /** Input tokens that miss the prompt cache. */
  readonly input: number;
  /** Input tokens read from the prompt cache. */
  readonly cachedInput: number;
  /** Input tokens written to the prompt cache (a prefix sent for the first time). */
  readonly cacheWrite: number;
  /** Output tokens (the summariser's reply when compaction calls an LLM). */
  readonly output: number;
}

/**
 * Published prices (USD / Mtok) of common models, keyed `provider/model`.
 *
 * @example
 * import { PRICE_SHEETS } from "@cc/context";
 * const sheet = PRICE_SHEETS["anthropic/claude-sonnet-4"]; // cached input is 10% of input
 */
export const PRICE_SHEETS = {
  // https://openai.com/api/pricing/ — "Cached input" column; caching is automatic for prompts
  // ≥ 1,024 tokens and a cache write costs the normal input price.
  "openai/gpt-5": { input: 1.25, cachedInput: 0.125, cacheWrite: 1.25, output: 10 },
  "openai/gpt-4.1": { input: 2, cachedInput: 0.5, cacheWrite: 2, output: 8 },
  "openai/gpt-4o": { input: 2.5, cachedInput: 1.25, cacheWrite: 2.5, output: 10 },
  // https://docs.anthropic.com/en/docs/about-claude/pricing — "5m cache writes" are 1.25× base
  // input, "cache hits & refreshes" 0.1× base input.
  "anthropic/claude-opus-4.1": { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  "anthropic/claude-sonnet-4": { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  "anthropic/claude-haiku-3.5": { input: 0.8, cachedInput: 0.08, cacheWrite: 1, output: 4 },
  // https://ai.google.dev/gemini-api/docs/pricing — "Context caching price" (prompts ≤ 200k
  // tokens); the hourly storage fee is not modelled.
  "google/gemini-2.5-pro": { input: 1.25, cachedInput: 0.31, cacheWrite: 1.25, output: 10 },
  "google/gemini-2.5-flash": { input: 0.3, cachedInput: 0.075, cacheWrite: 0.3, output: 2.5 },
  // https://api-docs.deepseek.com/quick_start/pricing — "input (cache hit)" / "input (cache
  // miss)"; the disk cache is automatic, a miss is the write.
  "deepseek/deepseek-chat": { input: 0.28, cachedInput: 0.028, cacheWrite: 0.28, output: 0.42 },
} as const satisfies Readonly<Record<string, PriceSheet>>;

/** A key of {@link PRICE_SHEETS}. */
export type PriceSheetName = keyof typeof PRICE_SHEETS;

/** The sheet the cost policy uses when none is given. */
export const DEFAULT_PRICE_SHEET: PriceSheetName = "anthropic/claude-sonnet-4";

/**
 * The same prices with prompt caching off: every input token pays `input`.
 *
 * @example withoutCaching(PRICE_SHEETS["openai/gpt-4.1"]) // { input: 2, cachedInput: 2, cacheWrite: 2, output: 8 }
 */
export function withoutCaching(sheet: PriceSheet): PriceSheet {
  return { input: sheet.input, cachedInput: sheet.input, cacheWrite: sheet.input, output: sheet.output };
}
