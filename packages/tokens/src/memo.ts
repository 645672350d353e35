/**
 * An LRU memo in front of any counter, keyed by a content hash and bounded by entries and bytes.
 *
 * @module memo
 */
import { hash } from "node:crypto";
import * as E from "fp-ts/lib/Either.js";
import { LRUCache } from "lru-cache";
import type { TokenCounter } from "./counter.js";
import { countMessagesWith } from "./messages.js";
import { decodeOptions, MemoOptionsCodec, type InvalidOptions } from "./options.js";
import { CcError } from "@cc/validate";

/** Bounds of a memo. */
export interface MemoOptions {
  /**
   * Most entries kept: an integer ≥ 1.
   * @default 10000
   */
  readonly maxEntries?: number;
  /**
   * Most bytes kept, as counted by {@link memoEntryBytes}: an integer ≥ 1.
   * @default 4194304 (4 MiB)
   */
  readonly maxBytes?: number;
}

/** Hit and size figures of a memo. */
export interface MemoStats {
  readonly hits: number;
  readonly misses: number;
  readonly entries: number;
  readonly bytes: number;
}

/** A {@link TokenCounter} that remembers counts; `dispose()` clears it and disposes the wrapped counter. */
export interface MemoCounter extends TokenCounter {
  /** Hits and misses since creation, current entries and bytes. */
  stats(): MemoStats;
}

/** Texts up to this many UTF-16 units are their own key; longer ones are keyed by SHA-256. */
export const inlineKeyChars = 64;

/** Fixed per-entry overhead charged on top of the key (map node, list links, the count). */
export const entryOverheadBytes = 64;

/**
 * The memo key of `text`: the text itself when short, else its length and the SHA-256 of its UTF-8
 * encoding. UTF-8 turns every lone surrogate into U+FFFD, exactly as the encoders receive it, so
 * texts that share a hash key also share their count.
 */
export function memoKey(text: string): string {
  return text.length <= inlineKeyChars ? `=${text}` : `#${text.length}:${hash("sha256", text, "base64")}`;
}

/** Bytes one entry is charged: its key as UTF-16 plus {@link entryOverheadBytes}. */
export function memoEntryBytes(key: string): number {
  return key.length * 2 + entryOverheadBytes;
}

/** Validates memo options from configuration (finite integers ≥ 1, no unknown key). */
export function decodeMemoOptions(input: unknown): E.Either<InvalidOptions, MemoOptions> {
  return decodeOptions(MemoOptionsCodec, input);
}

/**
 * Wraps `counter` with an LRU memo. Repeated texts (system prompts, tool schemas, re-counted
 * history) cost one hash instead of one BPE pass. Invalid bounds (NaN, ≤ 0, fractions) are a
 * programming error and throw a `CcError` (from @cc/validate, carrying the typed `InvalidOptions`) naming the field; use {@link decodeMemoOptions} to
 * validate untrusted configuration first.
 *
 * @example
 * const memo = memoCounter(tiktokenCounter(), { maxEntries: 1000 });
 * memo.count("hello"); memo.count("hello");
 * memo.stats(); // { hits: 1, misses: 1, entries: 1, bytes: 76 }
 * memo.dispose();
 */
export function memoCounter(counter: TokenCounter, options: MemoOptions = {}): MemoCounter {
  const decoded = decodeMemoOptions(options);
  if (E.isLeft(decoded)) throw new CcError({ ...decoded.left, message: `${"memoCounter: "}${decoded.left.message}` });
  const cache = new LRUCache<string, number>({
    max: decoded.right.maxEntries ?? 10_000,
    maxSize: decoded.right.maxBytes ?? 4 * 1024 * 1024,
    sizeCalculation: (_value, key) => memoEntryBytes(key),
  });
  let hits = 0;
  let misses = 0;
  const count = (text: string): number => {
    const key = memoKey(text);
    const known = cache.get(key);
    if (known !== undefined) {
      hits++;
      return known;
    }
    misses++;
    const n = counter.count(text);
    cache.set(key, n);
    return n;
  };
  return {
    encoding: counter.encoding,
    count,
    countMessages: (messages) => countMessagesWith(count, messages),
    stats: () => ({ hits, misses, entries: cache.size, bytes: cache.calculatedSize }),
    dispose: () => {
      cache.clear();
      counter.dispose();
    },
  };
}
