/**
 * Replays one transcript turn by turn through a context manager (the orchestration entry point)
 * and accounts every request it would send: tokens, cache hits, input cost under each price
 * sheet, compactions, decisions and retention.
 */
import { createContextManager, type PolicyOptions, type PriceSheet, type TurnResult } from "@cc/context";
import { inputCost } from "@cc/context/internal";
import { memoryIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import type { TokenCounter } from "@cc/tokens";
import { findReaccesses } from "../retention/reaccess.js";
import { billOf, keyOf, scoreTurn, turnsOf } from "./accounting.js";

/** How a replay runs the manager. */
export interface ReplayPolicy {
  readonly name: string;
  /** Absent: the manager without a policy, fed its last prompt plus the new turn (as the demo does). */
  readonly policy?: PolicyOptions;
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
}

/**
 * Replays `messages` with a budget of `budgetShare` of the whole transcript's tokens.
 *
 * @example const f = await replay(session.messages, { name: "hermes", policy: { kind: "hermes" } }, counter, 0.5, sheets);
 */
export async function replay(messages: readonly Message[], p: ReplayPolicy, counter: TokenCounter, budgetShare: number, sheets: Readonly<Record<string, PriceSheet>>, threshold?: number): Promise<ReplayFigures> {
  const tokensOf = (m: Message): number => counter.countMessages([m]);
  const total = messages.reduce((s, m) => s + tokensOf(m), 0);
  const maxTokens = Math.max(2000, Math.floor(total * budgetShare));
  const manager = createContextManager({ maxTokens, counter, index: memoryIndex(), namespace: "bench", now: () => 1_700_000_000_000, ...(threshold === undefined ? {} : { threshold }), ...(p.policy === undefined ? {} : { policy: p.policy }) });
  const keys = messages.map(keyOf);
  const refs = findReaccesses(messages);
  const turns = turnsOf(messages);
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
    const input = p.policy === undefined ? [...sent, ...t] : messages.slice(0, at);
    const r: TurnResult = await manager.compact(input);
    sent = r.messages;
    const current = sent.map(keyOf);
    const bill = billOf(previous, current, sent.map(tokensOf));
    previous = current;
    tokensSent += bill.cachedTokens + bill.uncachedTokens;
    cachedTokens += bill.cachedTokens;
    for (const [k, sheet] of Object.entries(sheets)) cost[k] = (cost[k] ?? 0) + inputCost(bill, sheet);
    if (r.compacted) compactions++;
    if (!r.budgetMet) budgetMisses++;
    const tag = r.decision === undefined ? (r.compacted ? "Compacted" : "Waited") : `${r.decision._tag}${"reason" in r.decision ? `:${r.decision.reason}` : ""}`;
    decisions[tag] = (decisions[tag] ?? 0) + 1;
    const s = scoreTurn(refs, from, at, keys, new Set(current));
    kept += s.kept;
    scored += s.total;
  }
  return { turns: turns.length, maxTokens, tokensSent, cachedTokens, cost, compactions, decisions, budgetMisses, reaccessKept: kept, reaccessTotal: scored };
}
