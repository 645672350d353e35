/**
 * References: the file paths and code identifiers a text mentions. A later message that mentions
 * a reference of an earlier segment counts as a re-access of that segment.
 *
 * @module strategy/references
 */

const PATH =
  /(?:[A-Za-z0-9_.-]+\/)+[A-Za-z0-9_.-]+|\b[A-Za-z0-9_-]+\.(?:py|ts|tsx|js|jsx|mjs|go|rs|java|rb|c|h|cpp|hpp|cs|md|json|ya?ml|toml|txt|cfg|ini|sh|sql|html|css)\b/g;
const IDENT =
  /\b(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g;
/** Most references taken from one text (bounds the work on huge tool outputs). */
export const MAX_REFERENCES = 64;
/** Text scanned per segment: the head and tail, each this many characters. */
export const SCAN_CHARS = 8192;
/** Longest run of path characters looked into; longer runs (base64, minified code, hashes) name nothing. */
export const MAX_WORD_CHARS = 256;
const WORD = /[A-Za-z0-9_./-]+/g;

/**
 * Distinct paths (with their last component) and identifiers (snake_case, camelCase, PascalCase,
 * CONSTANT_CASE) in `text`, at most {@link MAX_REFERENCES}, paths first, each in order of first
 * appearance. Linear in the text: the patterns run only inside runs of path characters of at most
 * {@link MAX_WORD_CHARS} (a long run would make the path pattern quadratic).
 *
 * @example references("edit src/app/models.py: fix load_config") // ["src/app/models.py", "models.py", "load_config"]
 */
export function references(text: string): readonly string[] {
  const sample = text.length > 2 * SCAN_CHARS ? `${text.slice(0, SCAN_CHARS)}\n${text.slice(-SCAN_CHARS)}` : text;
  const words = [...sample.matchAll(WORD)].map((m) => m[0]).filter((w) => w.length >= 3 && w.length <= MAX_WORD_CHARS);
  const out = new Set<string>();
  for (const m of words.flatMap((w) => [...w.matchAll(PATH)])) {
    const p = m[0].replace(/^\.\/|[.]+$/g, "");
    if (p.length < 3 || !/[A-Za-z]/.test(p)) continue;
    out.add(p);
    const last = p.split("/").pop()!;
    if (last !== p && /\.\w+$/.test(last)) out.add(last);
    if (out.size >= MAX_REFERENCES) return [...out];
  }
  for (const m of words.flatMap((w) => [...w.matchAll(IDENT)])) {
    if (m[0].length < 4) continue;
    out.add(m[0]);
    if (out.size >= MAX_REFERENCES) break;
  }
  return [...out];
}

/**
 * Re-access statistics (pure): for each item, how many later items mention one of its references,
 * and the index of the last one that did (or `undefined`).
 *
 * @example reaccesses([["a.py"], ["b.py"], ["a.py", "x_y"]]) // [{ count: 1, last: 2 }, { count: 0 }, { count: 0 }]
 */
export function reaccesses(
  refs: readonly (readonly string[])[],
): readonly { readonly count: number; readonly last?: number }[] {
  const owners = new Map<string, number[]>();
  const stats = refs.map(() => ({ count: 0, last: undefined as number | undefined }));
  refs.forEach((mine, j) => {
    const hit = new Set<number>();
    for (const r of mine) for (const i of owners.get(r) ?? []) if (i !== j) hit.add(i);
    for (const i of hit) {
      stats[i]!.count++;
      stats[i]!.last = j;
    }
    for (const r of mine) {
      const list = owners.get(r);
      if (list === undefined) owners.set(r, [j]);
      else if (list[list.length - 1] !== j) list.push(j);
    }
  });
  return stats.map((s) => (s.last === undefined ? { count: s.count } : { count: s.count, last: s.last }));
}
