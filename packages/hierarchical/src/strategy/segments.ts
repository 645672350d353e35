/**
 * Turns a conversation into importance segments: one per message unit, with token costs from a
 * `TokenCounter`, the unit's turn (its position), synthetic timestamps when messages carry none,
 * and reuse counted from the agent's own references (see `strategy/reuse`).
 *
 * @module strategy/segments
 */
import type { Segment } from "@cc/importance";
import { createHash } from "node:crypto";
import { unitRelevance, workingSetTerms } from "./relevance.js";
import { agentReuse } from "./reuse.js";
import {
  leadingSystemCount,
  messageUnits,
  safeSplit,
  unitKind,
  unitText,
  type Message,
  type MessageUnit,
} from "@cc/messages";

/**
 * A segment that remembers which messages it stands for.
 *
 * @example
 * const [first] = buildSegments(history, { counter, now: Date.now(), preserveLast: 6 });
 * first?.unit.messages; // the messages this segment stands for
 */
export interface MessageSegment extends Segment {
  readonly unit: MessageUnit;
}

/** Options of {@link buildSegments}. */
export interface BuildOptions {
  /** Counts a chat request (a `TokenCounter` of @cc/tokens fits). */
  readonly counter: { countMessages(messages: readonly Message[]): number };
  /** The pass's clock reading (epoch ms). */
  readonly now: number;
  /** Trailing messages that stay verbatim (pinned), adjusted by the lcm safe split. */
  readonly preserveLast: number;
  /**
   * Spacing of synthetic timestamps for messages without one (ms per unit).
   * @default 60 000
   */
  readonly stepMs?: number;
  /**
   * Index of a message whose unit is pinned too (the task, see `planTaskPin`).
   * @default none
   */
  readonly pinIndex?: number;
  /**
   * Messages of the working set (the latest ones) each unit's `relevance` is measured against
   * (see `unitRelevance`); 0 or absent: no relevance.
   * @default 0
   */
  readonly relevanceWindow?: number;
}

/**
 * Builds one segment per unit (pure apart from the counter). Leading system messages and the
 * preserved tail are pinned. A message without `timestamp` is dated `now - stepMs × (units after it)`
 * so recency follows conversation order. `turn` is the unit's position; `accessCount` counts the
 * later assistant messages (text, reasoning, tool-call arguments) that mention a path, identifier
 * or error name first seen in the unit, and `lastAccessedTurn` / `lastAccessed` are those of the
 * last one — tool output and a result naming its own call id never make a unit "used".
 *
 * Ids are content-addressed — `u` + 32 hex digits (128 bits) of the SHA-256 of the unit's messages
 * (see {@link unitId}) — so the same unit gets the same id in every pass and every session, and an
 * id a note names always expands to the text it named: a later pass or another transcript can
 * never overwrite it with a different original. A unit whose content repeats within one
 * conversation gets `.2`, `.3`, ….
 *
 * @example
 * const segments = buildSegments(history, { counter: estimateCounter(), now: Date.now(), preserveLast: 6 });
 * segments[0]?.id; // "u" + 32 hex digits
 */
export function buildSegments(messages: readonly Message[], options: BuildOptions): readonly MessageSegment[] {
  const units = messageUnits(messages);
  const step = options.stepMs ?? 60_000;
  const sys = leadingSystemCount(messages);
  const tailFrom = safeSplit(messages, options.preserveLast);
  const base = options.counter.countMessages([]);
  const texts = units.map(unitText);
  const stats = agentReuse(units);
  const window = options.relevanceWindow ?? 0;
  const relevance = window > 0 ? unitRelevance(units, workingSetTerms(messages, window)) : undefined;
  const dated = units.map((u, i) => u.messages[0]?.timestamp ?? options.now - step * (units.length - 1 - i));
  const seen = new Map<string, number>();
  return units.map((unit, i): MessageSegment => {
    const s = stats[i]!;
    const addr = unitId(unit);
    const n = (seen.get(addr) ?? 0) + 1;
    seen.set(addr, n);
    return {
      id: n === 1 ? addr : `${addr}.${n}`,
      content: texts[i]!,
      tokenCost: Math.max(0, options.counter.countMessages(unit.messages) - base),
      createdAt: dated[i]!,
      turn: i,
      ...(s.lastTurn === undefined ? {} : { lastAccessed: dated[s.lastTurn]!, lastAccessedTurn: s.lastTurn }),
      accessCount: s.count,
      ...(relevance === undefined ? {} : { relevance: relevance[i]! }),
      pinned:
        unit.end <= sys ||
        unit.start >= tailFrom ||
        (options.pinIndex !== undefined && unit.start <= options.pinIndex && options.pinIndex < unit.end),
      kind: unitKind(unit),
      unit,
    };
  });
}

/** Hex digits of the SHA-256 a unit id keeps: 128 bits, so that finding two units with one id takes ~2^64 hashes. */
export const UNIT_ID_HEX_DIGITS = 32;

/**
 * The content address of a unit: `u` + the first 32 hex digits (128 bits) of the SHA-256 of its
 * messages' JSON. (Before, ids kept 16 digits — 64 bits, which a birthday search collides in ~2^32
 * hashes; entries and notes written under such ids stay readable and expandable.)
 *
 * @example unitId({ start: 0, end: 1, messages: [{ role: "user", content: "hi" }] }) // "u" + 32 hex digits
 */
export function unitId(unit: MessageUnit): string {
  return `u${createHash("sha256").update(JSON.stringify(unit.messages)).digest("hex").slice(0, UNIT_ID_HEX_DIGITS)}`;
}
