/**
 * What a conversion to our message model yields, and the way back: every message we derive
 * remembers the index of the framework item it came from, so the items a compaction keeps are
 * returned as the very objects that came in, and only the summary note is new.
 *
 * @module convert/converted
 */
import type { Message } from "@cc/messages";

/** Marks a derived message that stands for no framework item (system messages we only count, a carried note). */
export const NO_ORIGIN = -1;

/**
 * Framework items converted to our messages: `origin[j]` is the index of the item `messages[j]`
 * was derived from ({@link NO_ORIGIN} for a message that maps back to nothing). The messages
 * derived from one item are contiguous and form one pair-safe unit.
 */
export interface Converted {
  readonly messages: readonly Message[];
  readonly origin: readonly number[];
}

/**
 * The framework items a compaction kept, in order, with the note (any output message that is not
 * one of the converted messages) turned into a new item by `makeNote` (left out when it returns `undefined`). An item is kept when every
 * message derived from it is kept; an item only partly kept is kept whole (never half an item).
 *
 * @example
 * const next = mapBack(prompt, converted, turn.messages, (text) => ({ role: "user", content: [{ type: "text", text }] }));
 */
export function mapBack<T>(items: readonly T[], converted: Converted, kept: readonly Message[], makeNote: (text: string, note: Message) => T | undefined): T[] {
  const where = new Map<Message, number>();
  converted.messages.forEach((m, j) => where.set(m, j));
  const keptItems = new Set<number>();
  for (const m of kept) {
    const j = where.get(m);
    if (j !== undefined && converted.origin[j]! >= 0) keptItems.add(converted.origin[j]!);
  }
  const out: T[] = [];
  const emitted = new Set<number>();
  for (const m of kept) {
    const j = where.get(m);
    if (j === undefined) {
      const note = makeNote(m.content, m);
      if (note !== undefined) out.push(note);
      continue;
    }
    const i = converted.origin[j]!;
    if (i < 0 || emitted.has(i) || !keptItems.has(i)) continue;
    emitted.add(i);
    out.push(items[i]!);
  }
  return out;
}

/** Stable JSON text of a value for counting and indexing (`undefined` and functions become ""). */
export function jsonText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}
