/**
 * Lossless storage of any JavaScript string, and the sanitised copy that search sees.
 *
 * A JavaScript string is a sequence of UTF-16 code units: it may hold NUL and lone surrogates
 * (binary tool output, an emoji cut in half). PostgreSQL `text` and `jsonb` cannot hold NUL, and
 * every UTF-8 store turns a lone surrogate into U+FFFD. So a database backend stores each string
 * through {@link encodeText}: unchanged when it is well-formed and NUL-free (nearly always),
 * otherwise as U+FFFF followed by its JSON string literal (JSON escapes NUL and lone surrogates
 * as `\u0000`, `\ud800`, so the stored text is plain). U+FFFF is a Unicode noncharacter; a
 * string that really starts with one is escaped too, which keeps the encoding injective: equal
 * stored text means equal strings, so `(namespace, id)` stays a key.
 *
 * Search and snippets use {@link searchable}: lone surrogates → U+FFFD, NUL → space.
 *
 * @module search/lossless
 */
import type { IndexEntry, Json } from "./contract.js";

/** First character of an escaped stored string (U+FFFF, a noncharacter). */
export const ESCAPED = "\uFFFF";

const SURROGATE_OR_MARK = /[\uD800-\uDFFF\uFFFF]/;
const SURROGATE = /[\uD800-\uDFFF]/;
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_ALL = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** True when `s` may need attention: it holds a NUL, a surrogate or U+FFFF. */
function suspect(s: string): boolean {
  return s.includes("\u0000") || SURROGATE_OR_MARK.test(s);
}

/** True when `s` has no NUL and no lone surrogate (a UTF-8 text column keeps it exactly). */
export function isPlainText(s: string): boolean {
  return !s.includes("\u0000") && !(SURROGATE.test(s) && LONE.test(s));
}

/**
 * The text search sees: lone surrogates → U+FFFD, NUL → space; other strings are returned as
 * they are (same length, so offsets agree with the original).
 *
 * @example searchable("a\u0000b\uD800") // "a b\uFFFD"
 */
export function searchable(s: string): string {
  if (!suspect(s)) return s;
  const noNul = s.includes("\u0000") ? s.replaceAll("\u0000", " ") : s;
  return SURROGATE.test(noNul) ? noNul.replace(LONE_ALL, "\uFFFD") : noNul;
}

/**
 * The stored form of a string: itself when plain, else U+FFFF + its JSON literal. Injective.
 *
 * @example encodeText("a\u0000") // "\uFFFF\"a\\u0000\""
 */
export function encodeText(s: string): string {
  if (!suspect(s)) return s;
  return s.startsWith(ESCAPED) || !isPlainText(s) ? ESCAPED + JSON.stringify(s) : s;
}

/** Inverse of {@link encodeText}. */
export function decodeText(stored: string): string {
  return stored.startsWith(ESCAPED) ? (JSON.parse(stored.slice(1)) as string) : stored;
}

/** True when no string in the JSON value (key or value) holds a NUL or a lone surrogate. */
export function isPlainJson(value: Json): boolean {
  if (typeof value === "string") return isPlainText(value);
  if (value === null || typeof value !== "object") return true;
  if (Array.isArray(value)) return value.every(isPlainJson);
  for (const [key, v] of Object.entries(value as { readonly [key: string]: Json })) {
    if (!isPlainText(key) || !isPlainJson(v)) return false;
  }
  return true;
}

/** The columns of a stored index row, strings in their stored (possibly escaped) form. */
export interface StoredEntryRow {
  readonly namespace: string;
  readonly id: string;
  readonly kind: string;
  readonly summary: string;
  readonly content: string;
  readonly token_cost: number;
  readonly created_at: number;
  readonly evicted_at: number;
}

/**
 * An entry from a stored row of any persistent backend: strings decoded (see {@link decodeText}),
 * metadata decoded by the backend (its column type differs).
 */
export function entryFromRow(r: StoredEntryRow, metadata: { readonly [key: string]: Json }): IndexEntry {
  return {
    id: decodeText(r.id),
    namespace: decodeText(r.namespace),
    kind: decodeText(r.kind),
    summary: decodeText(r.summary),
    content: decodeText(r.content),
    tokenCost: r.token_cost,
    createdAt: r.created_at,
    evictedAt: r.evicted_at,
    metadata,
  };
}
