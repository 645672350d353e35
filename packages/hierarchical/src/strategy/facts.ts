/**
 * Key facts of a tool output: the literals an agent acts on next — error lines, `path:line`
 * locations, paths, code identifiers, hex strings and long numbers — ranked and cut to a token
 * allowance. A masked output keeps them in its stub, so the agent can still name what it saw.
 *
 * @module strategy/facts
 */

/** Text scanned for facts: the head and the tail, each this many characters. */
export const FACT_SCAN_CHARS = 16_384;
/** Longest error line kept in a stub (characters, `…` marks a cut). */
export const ERROR_LINE_CHARS = 160;

const ERROR_LINE =
  /\b(?:[A-Z]\w*(?:Error|Exception|Warning|Failure)|Traceback|FAILED|FAIL|ERROR|fatal|panic)\b|\berror(?:\[\w+\])?:/;
const LOCATION = /((?:[\w.-]+\/)*[\w.-]+\.[A-Za-z]{1,5})(?:", line |:)(\d{1,6})\b/g;
const PATH =
  /(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]*\w|\b[\w-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|c|h|cc|cpp|hpp|rb|php|cs|swift|sh|json|ya?ml|toml|ini|cfg|md|rst|txt|sql|html|css|lock|xml|csv)\b/g;
const IDENT =
  /\b(?:_*[a-z][a-z0-9]*(?:_[a-z0-9]+)+|__\w+__|[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\b/g;
const HEX = /\b(?:0x[0-9a-fA-F]{4,}|[0-9a-f]{7,40})\b/g;
const NUMBER = /\b\d{3,}(?:\.\d+)?\b/g;

function sample(text: string): string {
  return text.length > 2 * FACT_SCAN_CHARS
    ? `${text.slice(0, FACT_SCAN_CHARS)}\n${text.slice(-FACT_SCAN_CHARS)}`
    : text;
}

function clip(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join("")}…`;
}

/** Candidates of one pattern, most frequent first, ties by first appearance. */
function byFrequency(text: string, pattern: RegExp, minLength: number): string[] {
  const seen = new Map<string, { n: number; first: number }>();
  let order = 0;
  for (const m of text.matchAll(pattern)) {
    const w = m[0].replace(/^\.\//, "");
    if (w.length < minLength || w.length > 200) continue;
    const s = seen.get(w);
    if (s === undefined) seen.set(w, { n: 1, first: order++ });
    else s.n++;
  }
  return [...seen.entries()].sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first).map(([w]) => w);
}

/**
 * The key facts of `text`, in the order a stub lists them (pure): the last error lines (the
 * exception a traceback ends with first), then `path:line` locations, paths, identifiers, hex
 * strings and numbers of three or more digits — each distinct, each kind most frequent first,
 * none of `known` (what the context already says, e.g. the call's arguments) and none contained
 * in a fact listed before it.
 *
 * @example keyFacts('Traceback …\n  File "src/io.py", line 42, in load_cfg\nKeyError: \'port\'')
 * // ["KeyError: 'port'", "Traceback …", "src/io.py:42", "src/io.py", "load_cfg", …]
 */
export function keyFacts(text: string, known = ""): readonly string[] {
  const s = sample(text);
  const out: string[] = [];
  const add = (f: string): void => {
    if (f === "" || known.includes(f) || out.some((o) => o.includes(f))) return;
    out.push(f);
  };
  const errors = s
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && ERROR_LINE.test(l));
  for (const l of errors.slice(-3).reverse()) add(clip(l, ERROR_LINE_CHARS));
  const locations = new Set<string>();
  for (const m of s.matchAll(LOCATION)) locations.add(`${m[1]!}:${m[2]!}`);
  for (const l of locations) add(l);
  for (const p of byFrequency(s, PATH, 3)) if (/[A-Za-z]/.test(p)) add(p);
  for (const w of byFrequency(s, IDENT, 4)) add(w);
  for (const h of byFrequency(s, HEX, 7)) if (/\d/.test(h)) add(h);
  for (const n of byFrequency(s, NUMBER, 3)) add(n);
  return out;
}

/**
 * The facts of `facts` that fit `allowance` tokens when joined by `" · "` (pure apart from the
 * counter), in order; a fact that does not fit is skipped and later, shorter ones still tried.
 * The joined text never exceeds the allowance by the counter's measure.
 *
 * @example fitFacts(["KeyError: 'port'", "src/io.py:42"], 8, (text) => counter.count(text)) // ["KeyError: 'port'"]
 */
export function fitFacts(
  facts: readonly string[],
  allowance: number,
  count: (text: string) => number,
): readonly string[] {
  const kept: string[] = [];
  let used = 0;
  for (const f of facts) {
    const cost = count(f) + (kept.length === 0 ? 0 : 1);
    if (used + cost > allowance) continue;
    kept.push(f);
    used += cost;
  }
  // Per-fact costs are an estimate of the joined text's; drop from the end until it really fits.
  while (kept.length > 0 && count(kept.join(" · ")) > allowance) kept.pop();
  return kept;
}

const WORD_PATH = /(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]*\w|\b[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}\b/g;
const FACT_NUMBER = /(?<![\w.])\d{2,}(?![\d.])/g;

/**
 * The literals of `text` a journal's fact line lists (pure): paths, code identifiers (and error
 * names), hex strings and numbers of two or more digits (line numbers), each once, most frequent
 * first, ties by first appearance; none longer than 80 characters, none containing a space.
 * Unlike {@link keyFacts} it keeps no error lines and no short numbers are dropped: it is the
 * vocabulary an agent acts on (`sed -n 120,140p`, a name to grep), not a stub's headline.
 *
 * @example journalFacts("1262:  output_field.replace(...)\n  File \"src/io.py\", line 42, in load_cfg")
 * // ["1262", "output_field.replace", "src/io.py", "42", "load_cfg"]
 */
export function journalFacts(text: string): readonly string[] {
  const s = sample(text);
  const seen = new Map<string, { n: number; first: number }>();
  const found: { w: string; at: number }[] = [];
  for (const pattern of [WORD_PATH, IDENT, HEX, FACT_NUMBER]) {
    for (const m of s.matchAll(pattern)) {
      const w = m[0].replace(/^\.\//, "");
      if (w.length < 2 || w.length > 80 || !/[\p{L}\p{N}]/u.test(w)) continue;
      if (pattern === WORD_PATH && !/[A-Za-z]/.test(w)) continue;
      if (pattern === HEX && !/\d/.test(w)) continue;
      found.push({ w, at: m.index });
    }
  }
  found.sort((a, b) => a.at - b.at);
  let order = 0;
  for (const { w } of found) {
    const v = seen.get(w);
    if (v === undefined) seen.set(w, { n: 1, first: order++ });
    else v.n++;
  }
  return [...seen.entries()].sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first).map(([w]) => w);
}

/**
 * The facts of a journal's fact line (pure): `fresh` (newest first) then `earlier` (a fact line
 * carried from an earlier note), each once, none in `known` (what the prompt already holds), cut
 * so that the line — the facts joined by single spaces — takes at most `allowance` tokens by
 * `count`. A fact that does not fit is skipped and later, shorter ones are still tried.
 *
 * @example factLine(["1262", "_rstrip_inplace"], ["fitsrec.py"], new Set(["fitsrec.py"]), 10, (t) => counter.count(t)) // ["1262", "_rstrip_inplace"]
 */
export function factLine(
  fresh: readonly string[],
  earlier: readonly string[],
  known: ReadonlySet<string>,
  allowance: number,
  count: (text: string) => number,
): readonly string[] {
  if (allowance <= 0) return [];
  const kept: string[] = [];
  const taken = new Set<string>();
  let used = 0;
  for (const f of [...fresh, ...earlier]) {
    if (allowance - used < 1) break;
    if (f === "" || /\s/.test(f) || taken.has(f) || known.has(f)) continue;
    taken.add(f);
    const cost = count(` ${f}`);
    if (used + cost > allowance) continue;
    kept.push(f);
    used += cost;
  }
  while (kept.length > 0 && count(kept.join(" ")) > allowance) kept.pop();
  return kept;
}
