/**
 * Counting large texts without blocking the event loop.
 *
 * @module async
 */
import * as E from "fp-ts/lib/Either.js";
import type { TokenCounter } from "./counter.js";
import { defaultChunkLimits, planChunks } from "./chunking/plan.js";
import { decodeCountAsyncOptions } from "./options.js";
import { CcError } from "@cc/validate";

/** Options of {@link countAsync}. */
export interface CountAsyncOptions {
  /**
   * Largest slice counted between two yields, in UTF-16 units: a safe integer ≥ 1, raised to 258
   * if smaller (a slice must hold a whole bounded piece).
   * @default 16384
   */
  readonly sliceChars?: number;
  /** Stops between slices; the promise then rejects with `signal.reason`. */
  readonly signal?: AbortSignal;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Tokens of `text`, counted in slices cut at safe positions (see `planChunks`) with a yield to
 * the event loop before each slice. Texts no longer than one slice are counted at once. For the
 * exact counter the result equals `counter.count(text)` unless the text holds a run of more than
 * 256 units with no safe cut (base64 without line breaks, a long digit run): such a run is cut to
 * keep slices bounded, about ±1 token per cut; `counter.count` itself never cuts. For the
 * estimate it may be a few tokens
 * higher (each slice is rounded up). Invalid options (an unknown key, a bad `sliceChars`) reject
 * with a `CcError` (from @cc/validate, carrying the typed `InvalidOptions`) naming the field.
 *
 * @example
 * const n = await countAsync(counter, "x".repeat(5_000_000)); // a huge tool output, counted off the event loop
 */
export async function countAsync(
  counter: TokenCounter,
  text: string,
  options: CountAsyncOptions = {},
): Promise<number> {
  const decoded = decodeCountAsyncOptions(options);
  if (E.isLeft(decoded)) throw new CcError({ ...decoded.left, message: `${"countAsync: "}${decoded.left.message}` });
  const asked = decoded.right.sliceChars ?? defaultChunkLimits.maxChunkChars;
  const slice = Math.max(asked, defaultChunkLimits.maxPieceChars + 2);
  options.signal?.throwIfAborted();
  if (text.length <= slice) return counter.count(text);
  const { bounds } = planChunks(text, { maxPieceChars: defaultChunkLimits.maxPieceChars, maxChunkChars: slice });
  let total = 0;
  for (let k = 1; k < bounds.length; k++) {
    await yieldToLoop();
    options.signal?.throwIfAborted();
    total += counter.count(text.slice(bounds[k - 1], bounds[k]));
  }
  return total;
}
