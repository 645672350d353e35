/**
 * Shared pieces of the eviction orders: a candidate segment with its access statistics, the
 * greedy eviction in a given order (the scaling benchmark's Go-original compact), and a seeded
 * PRNG with a shuffle (the bootstrap's resamples). The retention benchmark's policies are in
 * rules.ts (the simple rules) and replay.ts (the context manager).
 */

/** One segment in the context, as a policy sees it. */
export interface Candidate {
  /** Position of the message in its session (the segment's identity). */
  readonly index: number;
  readonly tokens: number;
  /** When the message arrived (epoch ms). */
  readonly createdAt: number;
  /** When it was last referred to (epoch ms); `createdAt` when never. */
  readonly lastAccessed: number;
  /** How many later messages referred to it so far. */
  readonly accessCount: number;
  readonly pinned: boolean;
  /** The message text (for the content-length estimate when needed). */
  readonly content: string;
  /** How the metric rules see the message ("task", "action", "observation", …). */
  readonly kind?: string;
  /** Position of the message in its session (its turn). */
  readonly turn?: number;
  /** Position of the last agent message that referred to it; `turn` when never. */
  readonly lastAccessedTurn?: number;
}

/** Evicts non-pinned candidates in `order` until the context fits `budget`. */
export function evictInOrder(all: readonly Candidate[], order: readonly Candidate[], budget: number): number[] {
  let total = all.reduce((s, c) => s + c.tokens, 0);
  const out: number[] = [];
  for (const c of order) {
    if (total <= budget) break;
    if (c.pinned) continue;
    out.push(c.index);
    total -= c.tokens;
  }
  return out;
}

/**
 * A deterministic 32-bit PRNG (mulberry32) returning floats in [0, 1).
 *
 * @example const rnd = seededRandom(42); rnd(); // always the same first value for seed 42
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates shuffle driven by `rnd`. */
export function shuffle<T>(items: readonly T[], rnd: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = out[i]!;
    out[i] = out[j]!;
    out[j] = t;
  }
  return out;
}
