/**
 * Turns a conversation into importance segments: one per message unit, with token costs from a
 * `TokenCounter`, synthetic timestamps when messages carry none, and re-access statistics.
 *
 * @module strategy/segments
 */
import type { Segment } from "@cc/importance";
import { leadingSystemCount, safeSplit, type Message } from "@cc/lcm";
import { reaccesses, references } from "./references.js";
import { messageUnits, unitKind, unitText, type MessageUnit } from "./units.js";

/** A segment that remembers which messages it stands for. */
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
  /** Spacing of synthetic timestamps for messages without one (ms per unit). Default 60 000. */
  readonly stepMs?: number;
}

/**
 * Builds one segment per unit (pure apart from the counter). Leading system messages and the
 * preserved tail are pinned. A message without `timestamp` is dated `now - stepMs × (units after it)`
 * so recency follows conversation order. Ids are `m<first message index>`: unique by construction.
 */
export function buildSegments(messages: readonly Message[], options: BuildOptions): readonly MessageSegment[] {
  const units = messageUnits(messages);
  const step = options.stepMs ?? 60_000;
  const sys = leadingSystemCount(messages);
  const tailFrom = safeSplit(messages, options.preserveLast);
  const base = options.counter.countMessages([]);
  const texts = units.map(unitText);
  const stats = reaccesses(texts.map(references));
  const dated = units.map((u, i) => u.messages[0]?.timestamp ?? options.now - step * (units.length - 1 - i));
  return units.map((unit, i): MessageSegment => {
    const s = stats[i]!;
    return {
      id: `m${unit.start}`,
      content: texts[i]!,
      tokenCost: Math.max(0, options.counter.countMessages(unit.messages) - base),
      createdAt: dated[i]!,
      ...(s.last === undefined ? {} : { lastAccessed: dated[s.last]! }),
      accessCount: s.count,
      pinned: unit.end <= sys || unit.start >= tailFrom,
      kind: unitKind(unit),
      unit,
    };
  });
}
