/**
 * Pure text analysis shared by every index backend: one tokenizer for documents and queries, so
 * the three backends agree on what a term is, plus safe query builders and a snippet maker.
 *
 * User-typed search text is data, never syntax: it is reduced to plain terms (letters, digits,
 * combining marks, underscores inside identifiers) before a backend sees it, so FTS5 operators (`AND`, `NEAR`, `*`, `:`, quotes,
 * parentheses) and tsquery operators (`&`, `|`, `!`, `<->`) cannot reach the engine.
 *
 * @module search/query
 */
import { searchable } from "./lossless.js";

/** Longest term kept, in code points (longer runs are cut). */
export const MAX_TERM_LENGTH = 64;
/** Most distinct terms taken from one query. */
export const MAX_QUERY_TERMS = 32;
/** Most distinct terms indexed per field of one entry. */
export const MAX_FIELD_TERMS = 20_000;
/**
 * Most bytes of distinct terms indexed per field of one entry (UTF-8 bytes of each term plus 5
 * for its position and alignment in a tsvector): two fields stay well under PostgreSQL's 1 MB
 * tsvector limit, and every backend indexes the same terms. The stored entry is never cut.
 */
export const MAX_FIELD_TERM_BYTES = 256 * 1024;

/** UTF-8 length of a string (a lone surrogate counts 3, as U+FFFD). */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const COMPOUND = /[\p{L}\p{N}\p{M}]+(?:_+[\p{L}\p{N}\p{M}]+)+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/u;
const CJK_SPLIT = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/u;

const ASCII = /^[ -~\t\n\r]*$/;
const ASCII_WORD = /[a-z0-9]+/g;
const ASCII_COMPOUND = /[a-z0-9]+(?:_+[a-z0-9]+)+/g;
const UNDERSCORES = /_+/;

/**
 * Appends the compound terms of an identifier joined by underscores (`handler_3_7` →
 * `handler_3_7`, `handler_3`, `3_7`): the whole identifier and, for three parts or more, each
 * adjacent pair. A part is often a digit or a common word (`3`, `module`) that every entry holds,
 * so only the compound tells `module_3` from `module_1`'s `handler_1_3`.
 */
function pushCompounds(identifier: string, out: string[]): void {
  out.push(cut(identifier));
  const parts = identifier.split(UNDERSCORES);
  if (parts.length > 2) for (let i = 0; i + 1 < parts.length; i++) out.push(cut(`${parts[i]!}_${parts[i + 1]!}`));
}

/** The same result as the general path for printable ASCII text (NFKC and CJK cannot apply), faster. */
function tokenizeAscii(text: string): string[] {
  const lower = text.toLowerCase();
  const out = lower.match(ASCII_WORD) ?? [];
  for (let i = 0; i < out.length; i++) if (out[i]!.length > MAX_TERM_LENGTH) out[i] = out[i]!.slice(0, MAX_TERM_LENGTH);
  if (lower.indexOf("_") >= 0) for (const m of lower.matchAll(ASCII_COMPOUND)) pushCompounds(m[0], out);
  return out;
}

function cut(term: string): string {
  if (term.length <= MAX_TERM_LENGTH) return term;
  return Array.from(term).slice(0, MAX_TERM_LENGTH).join("");
}

/** Overlapping character bigrams of a CJK run (a lone character stays a unigram). */
function bigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/**
 * Splits text into search terms, in order, with repeats: NFKC, lower case, runs of letters,
 * digits and marks (so `src/app.py` → `src app py`), CJK runs as overlapping bigrams; then the
 * identifiers joined by underscores, each as a term of its own (`parse_config` → `parse config
 * parse_config`; see `pushCompounds`), so a query for `module_3` or `SECRET_3` finds the entry
 * that holds it ahead of entries that merely hold `module` and `3`. Tokenises the searchable copy
 * of the text (lone surrogates → U+FFFD, NUL → space), so those, like punctuation, are separators.
 *
 * @example tokenize("Error in src/App.py") // ["error", "in", "src", "app", "py"]
 * @example tokenize("SECRET_3 = 3003") // ["secret", "3", "3003", "secret_3"]
 */
export function tokenize(text: string): string[] {
  if (ASCII.test(text)) return tokenizeAscii(text);
  const out: string[] = [];
  const normalized = searchable(text).normalize("NFKC").toLowerCase();
  for (const match of normalized.matchAll(WORD)) {
    const run = match[0];
    if (!CJK.test(run)) {
      out.push(cut(run));
      continue;
    }
    for (const part of run.split(CJK_SPLIT)) {
      if (part === "") continue;
      if (CJK.test(part)) out.push(...bigrams(part));
      else out.push(cut(part));
    }
  }
  if (normalized.indexOf("_") >= 0)
    for (const m of normalized.matchAll(COMPOUND)) if (!CJK.test(m[0])) pushCompounds(m[0], out);
  return out;
}

/** Distinct terms of `text` in first-seen order, at most `limit`. */
export function distinctTerms(text: string, limit: number): string[] {
  const seen = new Set<string>();
  for (const term of tokenize(text)) {
    if (seen.size >= limit) break;
    seen.add(term);
  }
  return [...seen];
}

/** The distinct terms of a user query (at most {@link MAX_QUERY_TERMS}); empty → no search. */
export function queryTerms(query: string): string[] {
  return distinctTerms(query, MAX_QUERY_TERMS);
}

/**
 * The distinct terms of a document field that every backend indexes, in first-seen order: at most
 * {@link MAX_FIELD_TERMS} terms and {@link MAX_FIELD_TERM_BYTES} bytes.
 */
export function indexedTerms(text: string): string[] {
  // Printable ASCII (nearly every field): terms are their own UTF-8 length, one tokenizer pass.
  const ascii = ASCII.test(text);
  const tokens = ascii ? tokenizeAscii(text) : tokenize(text);
  const seen = new Set<string>();
  let bytes = 0;
  for (const term of tokens) {
    if (seen.size >= MAX_FIELD_TERMS) break;
    if (seen.has(term)) continue;
    bytes += (ascii ? term.length : utf8Length(term)) + 5;
    if (bytes > MAX_FIELD_TERM_BYTES) break;
    seen.add(term);
  }
  return [...seen];
}

/** A document field as space-separated terms (the text the FTS engines index). */
export function indexedText(text: string): string {
  return indexedTerms(text).join(" ");
}

/**
 * A tsvector literal of distinct terms with positions (first occurrence, capped at 16383) and
 * an optional weight letter, for a `$1::tsvector` parameter: lexemes are taken verbatim.
 */
export function tsvectorLiteral(terms: readonly string[], weight: "A" | "B" | "C" | "" = ""): string {
  return terms
    .map((t, i) => `'${t.replaceAll("\\", "\\\\").replaceAll("'", "''")}':${Math.min(i + 1, 16383)}${weight}`)
    .join(" ");
}

/**
 * An FTS5 MATCH expression that ORs the terms, each as a quoted string (`"a" OR "b"`), so no
 * operator in user text is ever interpreted. Terms hold no quotes; quotes are doubled anyway.
 */
export function fts5Match(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
}

/**
 * A tsquery literal that ORs the terms as quoted lexemes (`'a' | 'b'`), for a `$1::tsquery`
 * parameter: lexemes are taken verbatim, never parsed as operators.
 */
export function tsqueryLiteral(terms: readonly string[]): string {
  return terms.map((t) => `'${t.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`).join(" | ");
}

/** Options of {@link snippet}. */
export interface SnippetOptions {
  /** Characters of context around the first match (default 80). */
  readonly width?: number;
  /** Marker placed before and after each matched term (default `**`). */
  readonly mark?: string;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

let lastTerms: readonly string[] = [];
let lastPattern: RegExp | undefined;

/** The match pattern of a term list; the last one is reused (a search snippets every hit with the same terms). */
function patternOf(terms: readonly string[]): RegExp | undefined {
  if (terms === lastTerms) return lastPattern;
  const wanted = terms.filter((t) => t.length > 0);
  lastTerms = terms;
  lastPattern = wanted.length === 0 ? undefined : new RegExp(wanted.map(escapeRegExp).join("|"), "giu");
  return lastPattern;
}

/**
 * A short excerpt of `text` around the first occurrence of any term, with matched terms
 * marked; the start of the text when nothing matches. Never splits a surrogate pair.
 *
 * @example snippet("a long line with ParseError inside", ["parseerror"]) // "…with **ParseError** inside"
 */
export function snippet(text: string, terms: readonly string[], options: SnippetOptions = {}): string {
  const width = options.width ?? 80;
  const mark = options.mark ?? "**";
  const pattern = patternOf(terms);
  const hit = pattern === undefined ? -1 : text.search(pattern);
  const from = hit < 0 ? 0 : Math.max(0, hit - Math.floor(width / 3));
  const chars = Array.from(text.slice(from, from + width * 2));
  const head = chars.slice(0, width).join("");
  const piece = head.length > 0 && isLowSurrogate(head.charCodeAt(0)) ? head.slice(1) : head;
  const prefix = from > 0 ? "…" : "";
  const suffix = from + piece.length < text.length ? "…" : "";
  const marked = pattern === undefined ? piece : piece.replace(pattern, (m) => `${mark}${m}${mark}`);
  return `${prefix}${marked}${suffix}`.replace(/\s+/g, " ").trim();
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The snippet of a hit: from the content when a term occurs in it, else from the summary, else
 * the start of the content.
 */
export function bestSnippet(
  summary: string,
  content: string,
  terms: readonly string[],
  options: SnippetOptions = {},
): string {
  const mark = options.mark ?? "**";
  const fromContent = snippet(content, terms, options);
  if (fromContent.includes(mark) || summary.length === 0) return fromContent;
  const fromSummary = snippet(summary, terms, options);
  return fromSummary.includes(mark) || content.length === 0 ? fromSummary : fromContent;
}
