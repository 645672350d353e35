/**
 * Eviction policies compared by the retention benchmark. Each is pure: given the segments in the
 * context (with their access statistics), a token budget and the clock, it returns the message
 * indices to evict. All but `importance` evict greedily in their own order (never a pinned
 * segment) until the context fits the budget; `importance` is `@cc/importance` `compact`.
 */
import { compact, score, type ImportanceOptions, type Segment } from "@cc/importance";
import { goStaleOrder } from "./go-order.js";

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

/** What a policy decides on. */
export interface PolicyInput {
  /** The context, oldest first. */
  readonly candidates: readonly Candidate[];
  /** Token budget the context must fit after eviction. */
  readonly budget: number;
  /** The clock at this compaction (epoch ms). */
  readonly now: number;
  /** Seed for policies that draw random numbers. */
  readonly seed: number;
  /** Scoring options of the importance-based policies. */
  readonly importance: ImportanceOptions;
}

/** The policies by name. */
export type PolicyName = "importance" | "fifo" | "lru" | "random" | "go-original" | "task+lru" | "observation-masking";

/** An eviction policy. */
export interface Policy {
  readonly name: PolicyName;
  /** Message indices to evict, in any order. */
  evict(input: PolicyInput): readonly number[];
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

const toSegment = (c: Candidate): Segment => ({
  id: String(c.index),
  content: c.content,
  tokenCost: c.tokens,
  createdAt: c.createdAt,
  lastAccessed: c.lastAccessed,
  accessCount: c.accessCount,
  pinned: c.pinned,
  ...(c.kind === undefined ? {} : { kind: c.kind }),
  ...(c.turn === undefined ? {} : { turn: c.turn }),
  ...(c.lastAccessedTurn === undefined ? {} : { lastAccessedTurn: c.lastAccessedTurn }),
});

/** `@cc/importance` `compact` with the access statistics known at the compaction point. */
export const importancePolicy: Policy = {
  name: "importance",
  evict: (input) => {
    const segments = input.candidates.map(toSegment);
    const r = compact(segments, { maxTokens: input.budget }, { ...input.importance, now: () => input.now });
    return r.evict.map((s) => Number(s.id));
  },
};

/** First in, first out: the oldest messages go first (a sliding window). */
export const fifoPolicy: Policy = {
  name: "fifo",
  evict: (input) => evictInOrder(input.candidates, input.candidates, input.budget),
};

/** Least recently used: the message referred to (or created) longest ago goes first. */
export const lruPolicy: Policy = {
  name: "lru",
  evict: (input) => {
    const order = [...input.candidates].sort((a, b) => a.lastAccessed - b.lastAccessed || a.index - b.index);
    return evictInOrder(input.candidates, order, input.budget);
  },
};

/** Uniformly random order, seeded by the input's seed and the clock (reproducible). */
export const randomPolicy: Policy = {
  name: "random",
  evict: (input) => {
    const rnd = seededRandom((input.seed ^ Math.floor(input.now / 1000)) >>> 0);
    return evictInOrder(input.candidates, shuffle(input.candidates, rnd), input.budget);
  },
};

/** The Go original: the same scores as `importance`, ranked by its stale-comparator sort. */
export const goOriginalPolicy: Policy = {
  name: "go-original",
  evict: (input) => {
    const options = { ...input.importance, now: () => input.now };
    const scores = input.candidates.map((c) => score(toSegment(c), options));
    return evictInOrder(input.candidates, goStaleOrder(input.candidates, scores), input.budget);
  },
};

/** LRU with the task statement pinned (never evicted while anything else can go). */
export const taskLruPolicy: Policy = {
  name: "task+lru",
  evict: (input) => {
    const order = [...input.candidates].sort((a, b) => Number(a.kind === "task") - Number(b.kind === "task") || a.lastAccessed - b.lastAccessed || a.index - b.index);
    return evictInOrder(input.candidates, order, input.budget);
  },
};

/** Observations kept verbatim by {@link observationMaskingPolicy}. */
export const MASK_KEEP_LAST = 5;

/**
 * Observation masking: observations (tool results, environment replies) older than the last
 * {@link MASK_KEEP_LAST} go first, oldest first; then the remaining observations, oldest first;
 * the agent's own actions only after every observation, oldest first; never the task.
 */
export const observationMaskingPolicy: Policy = {
  name: "observation-masking",
  evict: (input) => {
    const observations = input.candidates.filter((c) => c.kind === "observation" || c.kind === "demonstration");
    const old = observations.slice(0, Math.max(0, observations.length - MASK_KEEP_LAST));
    const recent = observations.slice(old.length);
    const actions = input.candidates.filter((c) => c.kind === "action");
    return evictInOrder(input.candidates, [...old, ...recent, ...actions], input.budget);
  },
};

/** Every policy, in report order. */
export const POLICIES: readonly Policy[] = [importancePolicy, fifoPolicy, lruPolicy, randomPolicy, goOriginalPolicy];
