/**
 * The synthetic journal the search benchmark indexes (the shape of `bench/hierarchical.bench.ts`
 * since its first version): a 5,000-word skewed vocabulary, a 12-word summary and a 50-word
 * content per entry, a path `src/modM/fileI.py` in every content (so `src` and `py` are in
 * every entry), 10 % of entries in namespace "other", and three query shapes.
 */
import type { IndexEntry } from "@cc/search";
import { entry } from "@cc/search";

/** A small deterministic PRNG (32-bit outputs). */
export function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const r = mulberry32(42);
const syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "za", "po", "qu", "xe", "di", "fa", "gu", "he"];
const vocab = Array.from({ length: 5000 }, () =>
  Array.from({ length: 2 + (r() % 3) }, () => syllables[r() % syllables.length]!).join(""),
);

/** `n` words of the skewed vocabulary. */
export const words = (n: number): string =>
  Array.from({ length: n }, () => vocab[Math.floor((r() % vocab.length) * ((r() % 1000) / 1000) ** 2)]!).join(" ");

/** `n` entries; entry i has id `s<i>`. */
export function makeEntries(n: number): IndexEntry[] {
  return Array.from({ length: n }, (_, i) =>
    entry({
      id: `s${i}`,
      namespace: i % 10 === 0 ? "other" : "main",
      kind: i % 3 === 0 ? "file" : "tool_result",
      summary: words(12),
      content: `src/mod${i % 97}/file${i}.py ${words(50)}`,
      tokenCost: 80,
      createdAt: i,
      evictedAt: i,
    }),
  );
}

/** The query shapes: vocabulary words (OR), a file name (`py` matches every entry), a full path (`src` and `py` do). */
export type Shape = "words" | "file" | "path";
export const SHAPES: readonly Shape[] = ["words", "file", "path"];

/** `count` queries per shape, interleaved. */
export function makeQueries(n: number, count: number): { readonly shape: Shape; readonly text: string }[] {
  const out: { shape: Shape; text: string }[] = [];
  for (let j = 0; j < count; j++) {
    const shape = SHAPES[j % SHAPES.length]!;
    const i = r() % n;
    out.push({
      shape,
      text:
        shape === "words" ? words(1 + (r() % 3)) : shape === "file" ? `file${i}.py` : `src/mod${i % 97}/file${i}.py`,
    });
  }
  return out;
}
