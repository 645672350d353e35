/**
 * The retention replay (protocol in bench/README.md, "Retention"): a session arrives message by
 * message into a context of at most `budget` tokens (an absolute size, the running context —
 * never a fraction of the future session). Before message `j` joins, each of its re-accesses and
 * grounding targets is scored against the context (once the first compaction has happened):
 * kept when a message in the context holds the key; else, with an index, recovered when a top-k
 * hit of a query formed from the context holds it, and by grep likewise. Then the agent's
 * references update the access statistics of every message in the context holding the key
 * (`accessCount + 1`, `lastAccessed = t_j`, `lastAccessedTurn = j`), `j` joins, and when the
 * context exceeds the budget the policy evicts (system prompts are pinned). Evicted messages go
 * to the index and never come back.
 */
import type { IndexEntry, SegmentIndex } from "@cc/hierarchical";
import type { ImportanceOptions } from "@cc/importance";
import * as E from "fp-ts/lib/Either.js";
import { contextText, storable, summaryOf } from "./evaluate.js";
import { contextQuery, grepEvicted, heldBy, type Holdings, type MetricMessage, type Use } from "./metrics.js";
import type { Candidate, Policy } from "./policies.js";

/** A session ready to replay: messages, what each holds, what the agent uses. */
export interface PreparedSession {
  readonly name: string;
  readonly corpus: string;
  readonly split: "dev" | "eval";
  readonly messages: readonly MetricMessage[];
  readonly holdings: Holdings;
  readonly reaccesses: readonly Use[];
  readonly grounding: readonly Use[];
  /** Tokens of each message (one count shared by every policy). */
  readonly tokens: readonly number[];
  /** Time of each message (epoch ms): recorded, else synthetic. */
  readonly times: readonly number[];
}

/** One replay's settings. */
export interface ReplaySettings {
  readonly budget: number;
  readonly seed: number;
  readonly importance: ImportanceOptions;
  /** Row label. */
  readonly label: string;
  /** Index of evicted messages (recovery by search); none → no recovery scoring. */
  readonly index?: SegmentIndex;
  readonly k: number;
}

/** Counts of one metric in one replay. */
export interface MetricCounts {
  /** Uses scored (after the first compaction). */
  readonly n: number;
  readonly kept: number;
  /** Not kept, but a top-k index hit of the context query holds the key. */
  readonly index: number;
  /** Not kept, but a top-k grep hit of the context query holds the key. */
  readonly grep: number;
}

/** What one replay measured. */
export interface ReplayScore {
  readonly session: string;
  readonly corpus: string;
  readonly split: "dev" | "eval";
  readonly policy: string;
  readonly seed: number;
  readonly budget: number;
  readonly reaccess: MetricCounts;
  readonly grounding: MetricCounts;
  readonly compactions: number;
  readonly evictions: number;
  /** Evictions of the message that had just arrived. */
  readonly arrivalEvictions: number;
}

interface Counter {
  n: number;
  kept: number;
  index: number;
  grep: number;
}

const counter = (): Counter => ({ n: 0, kept: 0, index: 0, grep: 0 });

/**
 * Replays one session under one policy and budget.
 *
 * @example const r = await replaySession(prepared, lruPolicy, { budget: 16_000, seed: 1, importance: {}, label: "lru", k: 5 });
 */
export async function replaySession(s: PreparedSession, policy: Policy, o: ReplaySettings): Promise<E.Either<string, ReplayScore>> {
  const n = s.messages.length;
  const held = s.holdings.held;
  const inContext = new Uint8Array(n);
  const context: number[] = [];
  const evicted: number[] = [];
  const accessCount = new Array<number>(n).fill(0);
  const lastAccessed = [...s.times];
  const lastTurn = Array.from({ length: n }, (_, i) => i);
  const byAt = (uses: readonly Use[]): Map<number, Use[]> => {
    const m = new Map<number, Use[]>();
    for (const u of uses) m.set(u.at, [...(m.get(u.at) ?? []), u]);
    return m;
  };
  const reaccessAt = byAt(s.reaccesses);
  const groundingAt = byAt(s.grounding);
  const re = counter();
  const gr = counter();
  let used = 0;
  let compactions = 0;
  let evictions = 0;
  let arrival = 0;
  const score = async (uses: readonly Use[], c: Counter): Promise<E.Either<string, void>> => {
    let query: string[] | undefined;
    let hits: readonly number[] | undefined;
    for (const u of uses) {
      c.n++;
      if (heldBy(u.key, context, held)) {
        c.kept++;
        continue;
      }
      query ??= contextQuery(context, held, 2, 8);
      if (grepEvicted(query, evicted, held, o.k).some((i) => held[i]?.has(u.key) === true)) c.grep++;
      if (o.index === undefined || query.length === 0) continue;
      if (hits === undefined) {
        const r = await o.index.search(query.join(" "), { k: o.k, namespace: s.name })();
        if (E.isLeft(r)) return E.left(`${s.name}: index search failed: ${JSON.stringify(r.left)}`);
        hits = r.right.map((h) => Number(h.id));
      }
      if (hits.some((i) => held[i]?.has(u.key) === true)) c.index++;
    }
    return E.right(undefined);
  };
  for (let j = 0; j < n; j++) {
    if (compactions > 0) {
      const a = await score(reaccessAt.get(j) ?? [], re);
      if (E.isLeft(a)) return a;
      const b = await score(groundingAt.get(j) ?? [], gr);
      if (E.isLeft(b)) return b;
    }
    for (const u of reaccessAt.get(j) ?? []) {
      for (const i of context) {
        if (held[i]?.has(u.key) !== true) continue;
        accessCount[i] = accessCount[i]! + 1;
        lastAccessed[i] = s.times[j]!;
        lastTurn[i] = j;
      }
    }
    inContext[j] = 1;
    context.push(j);
    used += s.tokens[j]!;
    if (used <= o.budget) continue;
    compactions++;
    const candidates: Candidate[] = context.map((i) => ({
      index: i,
      tokens: s.tokens[i]!,
      createdAt: s.times[i]!,
      lastAccessed: lastAccessed[i]!,
      accessCount: accessCount[i]!,
      pinned: s.holdings.kinds[i] === "system",
      content: "",
      kind: s.holdings.kinds[i]!,
      turn: i,
      lastAccessedTurn: lastTurn[i]!,
    }));
    const out = [...new Set(policy.evict({ candidates, budget: o.budget, now: s.times[j]!, seed: o.seed, importance: o.importance }))].filter(
      (i) => inContext[i] === 1 && s.holdings.kinds[i] !== "system",
    );
    if (out.length === 0) continue;
    if (o.index !== undefined) {
      const entries: IndexEntry[] = out.map((i) => ({
        id: String(i),
        namespace: s.name,
        kind: s.messages[i]!.role,
        summary: summaryOf(s.messages[i]!),
        content: storable(contextText(s.messages[i]!)),
        tokenCost: s.tokens[i]!,
        createdAt: s.times[i]!,
        evictedAt: s.times[j]!,
        metadata: {},
      }));
      const w = await o.index.write(entries)();
      if (E.isLeft(w)) return E.left(`${s.name}: index write failed: ${JSON.stringify(w.left)}`);
    }
    for (const i of out) {
      inContext[i] = 0;
      used -= s.tokens[i]!;
      evicted.push(i);
      if (i === j) arrival++;
    }
    evictions += out.length;
    for (let k = context.length - 1; k >= 0; k--) if (inContext[context[k]!] === 0) context.splice(k, 1);
  }
  return E.right({
    session: s.name,
    corpus: s.corpus,
    split: s.split,
    policy: o.label,
    seed: o.seed,
    budget: o.budget,
    reaccess: { ...re },
    grounding: { ...gr },
    compactions,
    evictions,
    arrivalEvictions: arrival,
  });
}
