/**
 * Replays one transcript turn by turn through a context manager (the orchestration entry point)
 * and accounts every request it would send: tokens, cache hits, input cost under each price
 * sheet, compactions, decisions and retention.
 */
import { createContextManager, type PolicyOptions, type PriceSheet, type TurnResult } from "@cc/context";
import { inputCost } from "@cc/test-support/context";
import { memoryIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import type { TokenCounter } from "@cc/tokens";
import { ruleKinds, type MetricMessage } from "../retention/metrics.js";
import { factLiterals, heldText, neededFacts } from "../retention/needed.js";
import { findReaccesses } from "../retention/reaccess.js";
import { billOf, keyOf, scoreTurn, turnsOf } from "./accounting.js";
import { clearToolUses, type ClearSettings } from "./clearing.js";

/** How a replay builds each prompt. */
export interface ReplayPolicy {
  readonly name: string;
  /** The manager's policy; the manager is fed the full history every turn. */
  readonly policy?: PolicyOptions;
  /** Instead of the manager: tool-result clearing (shares of `maxTokens` for `trigger` and `clearAtLeast`) on the last prompt plus the new turn. */
  readonly clearing?: Omit<ClearSettings, "maxTokens" | "trigger" | "clearAtLeast"> & {
    readonly trigger: number;
    readonly clearAtLeast: number;
  };
}

/** What one replay measured. */
export interface ReplayFigures {
  readonly turns: number;
  readonly maxTokens: number;
  readonly tokensSent: number;
  readonly cachedTokens: number;
  /** Input cost (USD) under each sheet, by sheet name. */
  readonly cost: Readonly<Record<string, number>>;
  readonly compactions: number;
  readonly decisions: Readonly<Record<string, number>>;
  readonly budgetMisses: number;
  readonly reaccessKept: number;
  readonly reaccessTotal: number;
  /** Needed facts (bench/retention/needed.ts) held by the prompt the agent saw when it wrote the action needing them. */
  readonly neededKept: number;
  readonly neededTotal: number;
}

/**
 * Replays `messages` with a fixed budget of `maxTokens` (chosen before the run: no figure of the
 * transcript's future, such as its final length or its peak, sets it).
 *
 * @example const f = await replay(session.messages, { name: "hermes", policy: { kind: "hermes" } }, counter, 16_000, sheets);
 */
export async function replay(
  messages: readonly Message[],
  p: ReplayPolicy,
  counter: TokenCounter,
  maxTokens: number,
  sheets: Readonly<Record<string, PriceSheet>>,
  threshold?: number,
): Promise<ReplayFigures> {
  const tokensOf = (m: Message): number => counter.countMessages([m]);
  const manager = createContextManager({
    maxTokens,
    counter,
    index: memoryIndex(),
    namespace: "bench",
    now: () => 1_700_000_000_000,
    ...(threshold === undefined ? {} : { threshold }),
    ...(p.policy === undefined ? {} : { policy: p.policy }),
  });
  const keys = messages.map(keyOf);
  const refs = findReaccesses(messages);
  const turns = turnsOf(messages);
  const facts = neededFacts(messages as readonly MetricMessage[], ruleKinds(messages as readonly MetricMessage[]));
  const literals = new WeakMap<Message, ReadonlySet<string>>();
  const literalsOf = (m: Message): ReadonlySet<string> => {
    const hit = literals.get(m);
    if (hit !== undefined) return hit;
    const l = factLiterals(heldText(m as MetricMessage));
    literals.set(m, l);
    return l;
  };
  let neededKept = 0;
  const cost: Record<string, number> = Object.fromEntries(Object.keys(sheets).map((k) => [k, 0]));
  const decisions: Record<string, number> = {};
  let previous: readonly string[] = [];
  let sent: readonly Message[] = [];
  let at = 0;
  let tokensSent = 0;
  let cachedTokens = 0;
  let compactions = 0;
  let budgetMisses = 0;
  let kept = 0;
  let scored = 0;
  for (const t of turns) {
    const from = at;
    at += t.length;
    // The agent wrote message `from` having seen the prompt of the turn before (`sent`).
    for (const f of facts) if (f.at === from && sent.some((m) => literalsOf(m).has(f.literal))) neededKept++;
    const clearing = p.clearing;
    const r: Pick<TurnResult, "messages" | "compacted" | "budgetMet" | "decision"> =
      clearing === undefined
        ? await manager.compact(messages.slice(0, at))
        : ((): Pick<TurnResult, "messages" | "compacted" | "budgetMet" | "decision"> => {
            const before = [...sent, ...t];
            const next = clearToolUses(
              before,
              {
                ...clearing,
                trigger: Math.ceil(clearing.trigger * maxTokens),
                clearAtLeast: Math.floor(clearing.clearAtLeast * maxTokens),
                maxTokens,
              },
              tokensOf,
            );
            const changed = next.length !== before.length || next.some((m, i) => m !== before[i]);
            return {
              messages: next,
              compacted: changed,
              budgetMet: next.reduce((a, m) => a + tokensOf(m), 0) <= maxTokens,
            };
          })();
    sent = r.messages;
    const current = sent.map(keyOf);
    const bill = billOf(previous, current, sent.map(tokensOf));
    previous = current;
    tokensSent += bill.cachedTokens + bill.uncachedTokens;
    cachedTokens += bill.cachedTokens;
    for (const [k, sheet] of Object.entries(sheets)) cost[k] = (cost[k] ?? 0) + inputCost(bill, sheet);
    if (r.compacted) compactions++;
    if (!r.budgetMet) budgetMisses++;
    const tag =
      r.decision === undefined
        ? r.compacted
          ? "Compacted"
          : "Waited"
        : `${r.decision._tag}${"reason" in r.decision ? `:${r.decision.reason}` : ""}`;
    decisions[tag] = (decisions[tag] ?? 0) + 1;
    const s = scoreTurn(refs, from, at, keys, new Set(current));
    kept += s.kept;
    scored += s.total;
  }
  return {
    turns: turns.length,
    maxTokens,
    tokensSent,
    cachedTokens,
    cost,
    compactions,
    decisions,
    budgetMisses,
    reaccessKept: kept,
    reaccessTotal: scored,
    neededKept,
    neededTotal: facts.length,
  };
}
