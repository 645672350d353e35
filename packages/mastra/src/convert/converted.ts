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
  /**
   * For an item that is split into several units (a stored assistant message holding several
   * tool steps), the indices of the item's parts each derived message stands for; absent (or
   * `undefined` for a message) when the item is one unit.
   */
  readonly parts?: readonly (readonly number[] | undefined)[];
}

/**
 * The framework items a compaction kept, in order, with the note (any output message that is not
 * one of the converted messages) turned into a new item by `makeNote` (left out when it returns `undefined`). An item is kept when every
 * message derived from it is kept; an item only partly kept is kept whole (never half an item).
 *
 * @example
 * import type { MastraDBMessage } from "@mastra/core/agent/message-list";
 * const next = mapBack(prompt, converted, kept, (text): MastraDBMessage => ({ id: "note-1", role: "user", createdAt: new Date(), content: { format: 2, parts: [{ type: "text", text }] } }));
 */
export function mapBack<T>(
  items: readonly T[],
  converted: Converted,
  kept: readonly Message[],
  makeNote: (text: string, note: Message) => T | undefined,
  partial?: (item: T, parts: readonly number[]) => T,
): T[] {
  const where = new Map<Message, number>();
  converted.messages.forEach((m, j) => where.set(m, j));
  const keptItems = new Set<number>();
  const keptMessages = new Set<number>();
  for (const m of kept) {
    const j = where.get(m);
    if (j !== undefined) keptMessages.add(j);
    if (j !== undefined && converted.origin[j]! >= 0) keptItems.add(converted.origin[j]!);
  }
  // An item split into units (see `Converted.parts`) of which only some are kept comes back as a
  // copy holding the parts of those units (`partial`); kept whole otherwise.
  const rebuilt = new Map<number, T>();
  if (partial !== undefined && converted.parts !== undefined) {
    const keptParts = new Map<number, number[]>();
    const partialItems = new Set<number>();
    converted.messages.forEach((_, j) => {
      const i = converted.origin[j]!;
      const ps = converted.parts?.[j];
      if (i < 0 || ps === undefined || !keptItems.has(i)) return;
      if (keptMessages.has(j)) keptParts.set(i, [...(keptParts.get(i) ?? []), ...ps]);
      else partialItems.add(i);
    });
    for (const i of partialItems)
      rebuilt.set(
        i,
        partial(
          items[i]!,
          [...new Set(keptParts.get(i) ?? [])].sort((a, b) => a - b),
        ),
      );
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
    out.push(rebuilt.get(i) ?? items[i]!);
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
