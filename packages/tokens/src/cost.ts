/**
 * Filling `tokenCost` on segment-shaped values.
 *
 * @module cost
 */
import type { TokenCounter } from "./counter.js";

/** Anything with text content and an optional token cost (a segment, a message …). */
export interface Costable {
  readonly content: string;
  readonly tokenCost?: number | undefined;
}

/** A `tokenCost` the caller already set that is kept: a finite integer ≥ 0. */
export function isValidTokenCost(cost: unknown): cost is number {
  return typeof cost === "number" && Number.isSafeInteger(cost) && cost >= 0;
}

/**
 * New objects with `tokenCost` set to `counter.count(content)`; an existing valid cost (finite
 * integer ≥ 0) is kept, an invalid one (NaN, negative, fractional, infinite) is recomputed. The
 * input is never mutated.
 *
 * @example
 * withTokenCost([{ id: "a", content: "hello world" }], counter); // [{ id: "a", content: "hello world", tokenCost: 2 }]
 */
export function withTokenCost<T extends Costable>(
  items: readonly T[],
  counter: Pick<TokenCounter, "count">,
): readonly (T & { readonly tokenCost: number })[] {
  return items.map((item) => ({
    ...item,
    tokenCost: isValidTokenCost(item.tokenCost) ? item.tokenCost : counter.count(item.content),
  }));
}
