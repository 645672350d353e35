/**
 * Bit-exact generator of the shared eviction workload (the one the Go original was measured on).
 *
 * mulberry32, seed 42, one stream for the whole workload, four draws per segment in this order:
 * length `50 + r % 3951`, age `r % 14400001` ms, accessCount `r % 21`, pinned `r % 100 < 5`.
 * Variant "tokencost" sets `tokenCost = floor((L + 3) / 4)` and empty content; variant "content"
 * sets no tokenCost and `L` ASCII characters of content. The n = 1,000 workload is a prefix of
 * every larger one.
 */
import type { ScoringOptions, Segment } from "@cc/importance";

/** 2025-01-01T00:00:00Z, the injected clock of the workload. */
export const WORKLOAD_NOW = 1_735_689_600_000;

/** The two workload variants. */
export type WorkloadVariant = "tokencost" | "content";

/** mulberry32 returning the unsigned 32-bit value (not divided by 2^32). */
export function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** A generated workload: its segments, the options and the target of the benchmark. */
export interface Workload {
  readonly segments: readonly Segment[];
  readonly totalTokens: number;
  readonly pinned: number;
  readonly options: ScoringOptions;
  /** `maxTokens = floor(totalTokens / 2)`, `minKeep = 0`. */
  readonly target: { readonly maxTokens: number; readonly minKeep: number };
}

/** Generates the first `n` segments of the workload in the given variant. */
export function generateWorkload(n: number, variant: WorkloadVariant): Workload {
  const r = mulberry32(42);
  const filler = "x".repeat(4000);
  const segments: Segment[] = new Array<Segment>(n);
  let totalTokens = 0;
  let pinned = 0;
  for (let i = 0; i < n; i++) {
    const length = 50 + (r() % 3951);
    const ageMs = r() % 14_400_001;
    const accessCount = r() % 21;
    const isPinned = r() % 100 < 5;
    const at = WORKLOAD_NOW - ageMs;
    const tokens = Math.floor((length + 3) / 4);
    totalTokens += tokens;
    if (isPinned) pinned++;
    segments[i] =
      variant === "tokencost"
        ? {
            id: `s${i}`,
            content: "",
            tokenCost: tokens,
            createdAt: at,
            lastAccessed: at,
            accessCount,
            pinned: isPinned,
          }
        : {
            id: `s${i}`,
            content: filler.slice(0, length),
            createdAt: at,
            lastAccessed: at,
            accessCount,
            pinned: isPinned,
          };
  }
  return {
    segments,
    totalTokens,
    pinned,
    options: { now: () => WORKLOAD_NOW, recencyHalfLifeMs: 30 * 60 * 1000 },
    target: { maxTokens: Math.floor(totalTokens / 2), minKeep: 0 },
  };
}
