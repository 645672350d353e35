/**
 * Plans how a text is handed to a BPE encoder so that counting stays near-linear on any input
 * and exact on ordinary text.
 *
 * Byte-pair merging is quadratic in the length of one pre-tokenised piece: 64 k of `a` takes
 * about 3 s in @dqbd/tiktoken, 64 k of one CJK character about 23 s. The plan walks the text once,
 * notes every safe cut (see `isSafeCut`), and when `maxPieceChars` code units pass without
 * one, forces a cut there. No piece the encoder sees is then longer than `maxPieceChars` (+1 for an
 * astral code point), so the cost is at most linear with a constant set by that limit. Chunks
 * end on cuts and are at most `maxChunkChars` long, so an async caller can yield between them.
 *
 * A plan without forced cuts counts exactly what the whole text counts. A forced cut splits one
 * long piece in two and may change the count by about one token per cut (measured and
 * documented in the README).
 *
 * @module chunking/plan
 */
import * as E from "fp-ts/lib/Either.js";
import { decodeChunkLimits } from "../options.js";
import { bmpClasses, classifyCodePoint, safeCutTable, type CodeClass } from "./classes.js";
import { CcError } from "@cc/validate";

/** Limits of a {@link ChunkPlan}. Both are counts of UTF-16 code units. */
export interface ChunkLimits {
  /**
   * Longest run without a cut before one is forced: an integer in [1, 2³⁰].
   * @default 256
   */
  readonly maxPieceChars: number;
  /**
   * Longest chunk handed to the encoder in one call: an integer in [1, 2³⁰] (normally larger
   * than `maxPieceChars`; a smaller one makes every safe cut a chunk boundary).
   * @default 16384
   */
  readonly maxChunkChars: number;
}

/** Throws a `CcError` (from @cc/validate, carrying the typed failure) naming the field when `limits` are not valid {@link ChunkLimits}. */
export function assertChunkLimits(limits: ChunkLimits): void {
  if (limits === defaultChunkLimits) return;
  const decoded = decodeChunkLimits(limits);
  if (E.isLeft(decoded)) throw new CcError(decoded.left);
}

/** Default limits: no shared trajectory and no ordinary prose or code comes near a forced cut. */
export const defaultChunkLimits: ChunkLimits = { maxPieceChars: 256, maxChunkChars: 16_384 };

/** Where a text is cut before encoding. */
export interface ChunkPlan {
  /** Chunk boundaries: `[0, …, text.length]`, strictly increasing (a single `0` for ""). */
  readonly bounds: readonly number[];
  /** Positions of forced (possibly inexact) cuts, ascending; empty means the count is exact. */
  readonly forced: readonly number[];
}

/**
 * Cuts `text` into chunks under `limits`. Pure and linear in `text.length`. Invalid limits (not
 * integers in [1, 2³⁰], or an unknown key) are a programming error: `CcError` (from @cc/validate).
 *
 * @example
 * planChunks("a".repeat(600), defaultChunkLimits).forced; // [256, 512]
 */
export function planChunks(text: string, limits: ChunkLimits = defaultChunkLimits): ChunkPlan {
  assertChunkLimits(limits);
  const n = text.length;
  const { maxPieceChars: piece, maxChunkChars: chunk } = limits;
  if (n === 0) return { bounds: [0], forced: [] };
  if (n <= piece && n <= chunk) return { bounds: [0, n], forced: [] };
  const table = bmpClasses();
  const bounds: number[] = [0];
  const forced: number[] = [];
  let chunkStart = 0;
  let lastCut = 0;
  let prev: CodeClass = 0;
  let i = 0;
  while (i < n) {
    const cu = text.charCodeAt(i);
    let width = 1;
    let cls: CodeClass;
    if (cu >= 0xd800 && cu <= 0xdbff && i + 1 < n) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        width = 2;
        cls = classifyCodePoint(((cu - 0xd800) << 10) + (lo - 0xdc00) + 0x10000);
      } else cls = table[cu] as CodeClass;
    } else cls = table[cu] as CodeClass;
    if (i > 0) {
      if (safeCutTable[prev * 8 + cls] === 1) {
        if (i - chunkStart > chunk) {
          bounds.push(lastCut);
          chunkStart = lastCut;
        }
        lastCut = i;
      } else if (i - lastCut >= piece) {
        if (i - chunkStart > chunk) bounds.push(lastCut);
        bounds.push(i);
        forced.push(i);
        chunkStart = i;
        lastCut = i;
      }
    }
    prev = cls;
    i += width;
  }
  if (n - chunkStart > chunk && lastCut > chunkStart) bounds.push(lastCut);
  bounds.push(n);
  return { bounds, forced };
}

/** The chunks of `text` under `plan`, in order. */
export function chunksOf(text: string, plan: ChunkPlan): string[] {
  const out: string[] = [];
  for (let k = 1; k < plan.bounds.length; k++) out.push(text.slice(plan.bounds[k - 1], plan.bounds[k]));
  return out;
}
