/**
 * Message-prefix hashing and a small LRU of compacted prefixes: the same prefix of messages always
 * maps to the same compacted messages, without compacting again.
 *
 * @module internal/prefix
 */
import { createHash } from "node:crypto";

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

/** JSON of a value with binary data (Uint8Array, ArrayBuffer) hashed instead of spelled out. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Uint8Array) return { $bytes: createHash("sha256").update(v).digest("hex") };
    if (v instanceof ArrayBuffer) return { $bytes: createHash("sha256").update(new Uint8Array(v)).digest("hex") };
    if (typeof v === "bigint") return { $bigint: v.toString() };
    return v;
  });
}

/**
 * Hashes of messages, memoised per object (a message object is never mutated by the SDK once it
 * is in the history). A value JSON cannot spell (a cycle) gets a hash unique to its object.
 *
 * @example new MessageHasher().chain(messages).at(-1) // identifies the whole list
 */
export class MessageHasher {
  readonly #memo = new WeakMap<object, string>();
  #unique = 0;

  /** The hash of one message. */
  hash(message: object): string {
    const known = this.#memo.get(message);
    if (known !== undefined) return known;
    let h: string;
    try {
      h = sha(stableJson(message));
    } catch {
      h = `unique:${++this.#unique}`;
    }
    this.#memo.set(message, h);
    return h;
  }

  /** `chain[i]` identifies `messages.slice(0, i)` (`chain[0]` is the empty prefix). */
  chain(messages: readonly object[]): readonly string[] {
    const out: string[] = [""];
    let acc = "";
    for (const m of messages) {
      acc = sha(`${acc}\n${this.hash(m)}`);
      out.push(acc);
    }
    return out;
  }
}

/**
 * A least-recently-used map with a fixed capacity.
 *
 * @example const lru = new Lru<number>(2); lru.set("a", 1); lru.get("a") // 1
 */
export class Lru<V> {
  readonly #map = new Map<string, V>();
  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.capacity) {
      const oldest = this.#map.keys().next();
      if (oldest.done === true) break;
      this.#map.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#map.size;
  }
}
