/**
 * The retention replay (protocol in bench/README.md, "Retention"): a session arrives message by
 * message; after each arrival a contender — a simple rule (rules.ts) or the context manager —
 * maps the context to the next one under a token budget. The context is a list of messages
 * (text): a contender may keep, drop or replace a message, and scoring is by text containment.
 *
 * Before message `j` joins, once the running context (every message so far) has exceeded the
 * budget, `j`'s uses are scored against the context the agent saw when it wrote `j` (cut to the
 * budget, oldest non-system messages first, when a contender sent more; such steps are counted):
 * - needed facts (needed.ts): KEPT when a message of the context that was not recalled holds the
 *   literal; AVAILABLE when kept or a recalled message (one the manager brought back by itself,
 *   `manager.isRecalled`) holds it; RECOVERABLE when not available but the agent's own words at
 *   `j` without the literal, as a query, find a top-k hit of the contender's index holding it;
 * - re-access and grounding (metrics.ts): kept when a message of the context holds the key.
 * Then, for a rule, the agent's re-accesses at `j` update the access statistics of every message
 * in the context holding the term, and `j` arrives.
 */
import { createContextManager, type ContextManager, type ContextManagerOptions } from "@cc/context";
import { memoryIndex, type IndexEntry } from "@cc/search";
import type { Message } from "@cc/messages";
import type { TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { contextText, storable, summaryOf } from "./evaluate.js";
import { agentText, literalKeys, originText, type RuleKind, type Use } from "./metrics.js";
import { factLiterals, heldText, recoveryQuery, type NeededFact } from "./needed.js";
import { pairsValid, type ContextEntry, type Rule } from "./rules.js";

/** A session ready to replay. */
export interface PreparedSession {
  readonly name: string;
  readonly corpus: string;
  /** The task's identity (the split key). */
  readonly task: string;
  readonly split: "dev" | "eval";
  /** A generated session (reported on its own, never pooled with the real ones). */
  readonly generated: boolean;
  readonly messages: readonly Message[];
  readonly kinds: readonly RuleKind[];
  /** The corpus's template lines (left out of what a message holds for re-access and grounding). */
  readonly template: ReadonlySet<string>;
  readonly reaccesses: readonly Use[];
  readonly grounding: readonly Use[];
  readonly needed: readonly NeededFact[];
  /** Tokens of each message (one count shared by every contender). */
  readonly tokens: readonly number[];
  /** Time of each message (epoch ms): recorded, else synthetic. */
  readonly times: readonly number[];
  /** The peak running context: the tokens of every message, nothing evicted. */
  readonly peak: number;
}

/** One message of a context as the agent sees it. */
export interface Shown {
  readonly message: Message;
  /** Brought back into the context by the contender itself (the manager's automatic recall). */
  readonly recalled: boolean;
}

/** The token count every contender shares. */
export interface Tokens {
  readonly counter: TokenCounter;
  /** Tokens of a message as it sits in a context (`contextText`). */
  count(m: Message): number;
}

/** One contender replaying one session under one budget. */
export interface Contender {
  /** The agent's references at message `j`, before it arrives (rules keep access statistics). */
  refer(j: number): void;
  /** Message `j` arrives; the context after the contender's step. */
  arrive(j: number): Promise<E.Either<string, readonly Shown[]>>;
  /** The original texts of the top-`k` hits of `query` among what left the context. */
  search(query: string, k: number): Promise<E.Either<string, readonly string[]>>;
  close(): Promise<void>;
}

/** Makes a contender for a session and a budget. */
export interface ContenderSpec {
  /** Row label. */
  readonly label: string;
  make(s: PreparedSession, budget: number, tokens: Tokens): Contender;
}

/** Needed facts counted in one replay. */
export interface FactCounts {
  readonly n: number;
  readonly kept: number;
  readonly available: number;
  /** Not available, found by the index. */
  readonly recoverable: number;
}

/** Re-accesses or grounding literals counted in one replay. */
export interface UseCounts {
  readonly n: number;
  readonly kept: number;
}

/** What one replay measured. */
export interface ReplayScore {
  readonly session: string;
  readonly corpus: string;
  readonly split: "dev" | "eval";
  readonly generated: boolean;
  readonly policy: string;
  /** The budget as a share of the session's peak running context. */
  readonly share: number;
  /** The budget in tokens. */
  readonly budget: number;
  readonly needed: FactCounts;
  /** The distant needed facts (a subset of `needed`). */
  readonly distant: FactCounts;
  readonly reaccess: UseCounts;
  readonly grounding: UseCounts;
  /** Steps scored (after the running context first exceeded the budget). */
  readonly steps: number;
  /** Scored steps whose context was over the budget (scored on its cut). */
  readonly overBudget: number;
}

/** The budget in tokens for a share of a session's peak running context (at least 1). */
export function budgetOf(s: Pick<PreparedSession, "peak">, share: number): number {
  return Math.max(1, Math.round(share * s.peak));
}

/** What a message holds, memoised per session (texts repeat across steps and contenders). */
interface Holding {
  literals(m: Message): ReadonlySet<string>;
  keys(m: Message): ReadonlySet<string>;
}

const holdingCache = new WeakMap<PreparedSession, Holding>();
const DEMONSTRATION = /^\s*Here is a demonstration/i;

function holdingOf(s: PreparedSession): Holding {
  const known = holdingCache.get(s);
  if (known !== undefined) return known;
  const lits = new Map<string, ReadonlySet<string>>();
  const keys = new Map<string, ReadonlySet<string>>();
  const none: ReadonlySet<string> = new Set();
  const h: Holding = {
    literals: (m) => {
      const text = heldText(m);
      let v = lits.get(text);
      if (v === undefined) lits.set(text, (v = factLiterals(text)));
      return v;
    },
    keys: (m) => {
      if (m.role === "system" || (m.role === "user" && DEMONSTRATION.test(m.content))) return none;
      const text = originText(m, s.template);
      let v = keys.get(text);
      if (v === undefined) keys.set(text, (v = literalKeys(text)));
      return v;
    },
  };
  holdingCache.set(s, h);
  return h;
}

/** The context cut to the budget: system prompts, then the newest messages that fit. */
export function fitted(context: readonly Shown[], budget: number, count: (m: Message) => number): readonly Shown[] {
  const sizes = context.map((x) => count(x.message));
  if (sizes.reduce((a, b) => a + b, 0) <= budget) return context;
  let used = 0;
  const keep = new Set<number>();
  context.forEach((x, i) => {
    if (x.message.role === "system") {
      keep.add(i);
      used += sizes[i]!;
    }
  });
  for (let i = context.length - 1; i >= 0; i--) {
    if (keep.has(i)) continue;
    if (used + sizes[i]! > budget) break;
    keep.add(i);
    used += sizes[i]!;
  }
  return context.filter((_, i) => keep.has(i));
}

const byAt = <T extends { readonly at: number }>(xs: readonly T[]): Map<number, T[]> => {
  const m = new Map<number, T[]>();
  for (const x of xs) m.set(x.at, [...(m.get(x.at) ?? []), x]);
  return m;
};

/**
 * Replays one session with one contender at one budget share.
 *
 * @example const r = await replaySession(prepared, ruleContender(fifoRule), 0.2, tokens, 5);
 */
export async function replaySession(
  s: PreparedSession,
  spec: ContenderSpec,
  share: number,
  tokens: Tokens,
  k: number,
): Promise<E.Either<string, ReplayScore>> {
  const budget = budgetOf(s, share);
  const contender = spec.make(s, budget, tokens);
  try {
    return await run(s, spec.label, contender, share, budget, tokens, k);
  } finally {
    await contender.close();
  }
}

async function run(
  s: PreparedSession,
  label: string,
  contender: Contender,
  share: number,
  budget: number,
  tokens: Tokens,
  k: number,
): Promise<E.Either<string, ReplayScore>> {
  const h = holdingOf(s);
  const neededAt = byAt(s.needed);
  const reaccessAt = byAt(s.reaccesses);
  const groundingAt = byAt(s.grounding);
  const needed = { n: 0, kept: 0, available: 0, recoverable: 0 };
  const distant = { n: 0, kept: 0, available: 0, recoverable: 0 };
  const reaccess = { n: 0, kept: 0 };
  const grounding = { n: 0, kept: 0 };
  let steps = 0;
  let overBudget = 0;
  let running = 0;
  let context: readonly Shown[] = [];
  for (let j = 0; j < s.messages.length; j++) {
    if (running > budget) {
      steps++;
      const seen = fitted(context, budget, tokens.count);
      if (seen !== context) overBudget++;
      const m = s.messages[j]!;
      for (const f of neededAt.get(j) ?? []) {
        const kept = seen.some((x) => !x.recalled && h.literals(x.message).has(f.literal));
        const available = kept || seen.some((x) => x.recalled && h.literals(x.message).has(f.literal));
        let recoverable = false;
        if (!available) {
          const hits = await contender.search(recoveryQuery(agentText(m), f.literal), k);
          if (E.isLeft(hits)) return hits;
          recoverable = hits.right.some((t) => factLiterals(t).has(f.literal));
        }
        for (const c of f.distant ? [needed, distant] : [needed]) {
          c.n++;
          if (kept) c.kept++;
          if (available) c.available++;
          if (recoverable) c.recoverable++;
        }
      }
      for (const [uses, c] of [
        [reaccessAt.get(j) ?? [], reaccess],
        [groundingAt.get(j) ?? [], grounding],
      ] as const) {
        for (const u of uses) {
          c.n++;
          if (seen.some((x) => h.keys(x.message).has(u.key))) c.kept++;
        }
      }
    }
    contender.refer(j);
    const next = await contender.arrive(j);
    if (E.isLeft(next)) return next;
    context = next.right;
    running += s.tokens[j]!;
  }
  return E.right({
    session: s.name,
    corpus: s.corpus,
    split: s.split,
    generated: s.generated,
    policy: label,
    share,
    budget,
    needed,
    distant,
    reaccess,
    grounding,
    steps,
    overBudget,
  });
}

/**
 * A simple rule as a contender: it keeps the context entries with their access statistics, and
 * writes every original that leaves the context or is replaced into an in-memory index (its
 * recovery store).
 *
 * @example replaySession(s, ruleContender(fifoRule), 0.1, tokens, 5)
 */
export function ruleContender(rule: Rule): ContenderSpec {
  return {
    label: rule.name,
    make: (s, budget, tokens) => {
      const h = holdingOf(s);
      const reaccessAt = byAt(s.reaccesses);
      const index = memoryIndex();
      const written = new Set<number>();
      const toolNames = new Map<string, string>();
      let entries: readonly ContextEntry[] = [];
      return {
        refer: (j) => {
          const uses = reaccessAt.get(j) ?? [];
          if (uses.length === 0) return;
          entries = entries.map((e) => {
            const n = uses.filter((u) => h.keys(e.message).has(u.key)).length;
            return n === 0
              ? e
              : { ...e, accessCount: e.accessCount + n, lastAccessed: s.times[j]!, lastAccessedTurn: j };
          });
        },
        arrive: async (j) => {
          const m = s.messages[j]!;
          if (m.role === "assistant") for (const c of m.toolCalls ?? []) toolNames.set(c.id, c.name);
          const toolName = m.role === "tool" ? toolNames.get(m.toolCallId) : undefined;
          const arrived: ContextEntry = {
            source: j,
            message: m,
            tokens: s.tokens[j]!,
            kind: s.kinds[j]!,
            createdAt: s.times[j]!,
            lastAccessed: s.times[j]!,
            accessCount: 0,
            lastAccessedTurn: j,
            ...(toolName === undefined ? {} : { toolName }),
          };
          const before = [...entries, arrived];
          const after = rule.apply({ context: before, budget, now: s.times[j]!, count: tokens.count });
          const problem = checkStep(before, after);
          if (problem !== undefined) return E.left(`${s.name}: ${rule.name} at message ${j}: ${problem}`);
          const now = new Map(after.map((e) => [e.source, e]));
          const leaving = before.filter(
            (e) => !written.has(e.source) && now.get(e.source)?.message !== s.messages[e.source],
          );
          if (leaving.length > 0) {
            const rows: IndexEntry[] = leaving.map((e) => {
              const original = s.messages[e.source]!;
              return {
                id: String(e.source),
                namespace: s.name,
                kind: original.role,
                summary: summaryOf(original),
                content: storable(contextText(original)),
                tokenCost: s.tokens[e.source]!,
                createdAt: s.times[e.source]!,
                evictedAt: s.times[j]!,
                metadata: {},
              };
            });
            const w = await index.write(rows)();
            if (E.isLeft(w)) return E.left(`${s.name}: index write failed: ${JSON.stringify(w.left)}`);
            for (const e of leaving) written.add(e.source);
          }
          entries = after;
          return E.right(after.map((e) => ({ message: e.message, recalled: false })));
        },
        search: async (query, k) => {
          if (query.trim() === "") return E.right([]);
          const r = await index.search(query, { k, namespace: s.name })();
          if (E.isLeft(r)) return E.left(`${s.name}: index search failed: ${JSON.stringify(r.left)}`);
          return E.right(r.right.map((x) => heldText(s.messages[Number(x.id)]!)));
        },
        close: async () => {
          await index.close()();
        },
      };
    },
  };
}

/** Why a rule's step is not a valid next context (undefined when it is). */
export function checkStep(before: readonly ContextEntry[], after: readonly ContextEntry[]): string | undefined {
  let i = 0;
  for (const e of after) {
    while (i < before.length && before[i]!.source !== e.source) i++;
    if (i === before.length) return `message ${e.source} is not in the context it was given, or out of order`;
    const was = before[i]!.message;
    if (e.message.role !== was.role) return `message ${e.source} changed its role`;
    if (e.message.role === "tool" && was.role === "tool" && e.message.toolCallId !== was.toolCallId)
      return `message ${e.source} lost its toolCallId`;
    i++;
  }
  return pairsValid(before, after) ? undefined : "a tool call and its results were separated";
}

/** `manager.isRecalled` when the manager has it (automatic recall), else undefined. */
function recallTest(manager: ContextManager): ((m: Message) => boolean) | undefined {
  const f: unknown = Reflect.get(manager, "isRecalled");
  if (typeof f !== "function") return undefined;
  return (m) => {
    const r: unknown = Reflect.apply(f, manager, [m]);
    return r === true;
  };
}

/**
 * The context manager as a contender: `createContextManager({ maxTokens: budget, ...options })`
 * with the replay's clock and the shared exact counter, fed each step its previous output plus the
 * new message (as an agent loop does); its output is the context, its index (`search`, `expand`)
 * the recovery store.
 *
 * @example replaySession(s, managerContender("manager", {}), 0.1, tokens, 5)
 */
export function managerContender(
  label: string,
  options: Omit<ContextManagerOptions, "maxTokens" | "counter" | "now">,
): ContenderSpec {
  return {
    label,
    make: (s, budget, tokens) => {
      let clock = s.times[0] ?? 0;
      const manager = createContextManager({
        ...options,
        maxTokens: budget,
        counter: tokens.counter,
        now: () => clock,
      });
      const recalled = recallTest(manager);
      let prompt: readonly Message[] = [];
      return {
        refer: () => undefined,
        arrive: async (j) => {
          clock = s.times[j]!;
          try {
            const turn = await manager.compact([...prompt, s.messages[j]!]);
            prompt = turn.messages;
          } catch (e) {
            return E.left(`${s.name}: ${label} at message ${j}: ${e instanceof Error ? e.message : String(e)}`);
          }
          return E.right(prompt.map((m) => ({ message: m, recalled: recalled?.(m) ?? false })));
        },
        search: async (query, k) => {
          if (query.trim() === "") return E.right([]);
          try {
            const hits = await manager.search(query, k);
            const texts = await Promise.all(hits.map((x) => manager.expand(x.id)));
            return E.right(texts.filter((t): t is string => t !== undefined));
          } catch (e) {
            return E.left(`${s.name}: ${label} search: ${e instanceof Error ? e.message : String(e)}`);
          }
        },
        close: async () => undefined,
      };
    },
  };
}
