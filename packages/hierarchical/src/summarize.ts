/**
 * Summarisers: a deterministic extractive default (no network) that keeps what a later search
 * needs, and an adapter that asks an LLM `Provider` for the summary.
 *
 * @module summarize
 */
import type { Segment } from "@cc/importance";
import type { CompletionRequest, Provider, ProviderError } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";
import type { Summarizer } from "./compact.js";
import { decodeWith, objectCodec, positiveInt, type InvalidOptions } from "@cc/validate";
import * as t from "io-ts";

/**
 * Options of {@link extractiveSummary} and {@link extractiveSummarizer}.
 *
 * @example extractiveSummarizer({ maxChars: 200 } satisfies ExtractiveOptions)
 */
export interface ExtractiveOptions {
  /**
   * Longest summary in characters (minimum 40).
   * @default 480
   */
  readonly maxChars?: number;
}

const ERROR_LINE = /(?:error|exception|traceback|fail(?:ed|ure)?|fatal|panic|assert|denied|not found|cannot|segfault)/i;
const WORD = /[\w./-]{2,200}/g;
const CALL = /[A-Za-z_]\w{0,63}(?=\()/g;
const PATH =
  /^(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]+$|^[\w-]+\.(?:py|ts|tsx|js|jsx|mjs|go|rs|java|kt|c|h|cc|cpp|hpp|rb|php|cs|swift|sh|json|ya?ml|toml|ini|cfg|md|txt|sql|html|css|lock)$/;
const IDENT = /^(?:_*[a-z]+(?:_[a-z0-9]+)+|_+[a-z]\w*|[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)$/;
/** Content beyond this many characters is sampled (head and tail) for paths and identifiers. */
const SAMPLE = 40_000;

function clip(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length <= max ? s : `${chars.slice(0, Math.max(1, max - 1)).join("")}…`;
}

function distinct(items: Iterable<string>, limit: number): string[] {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.size >= limit) break;
    seen.add(item);
  }
  return [...seen];
}

/**
 * A deterministic summary that keeps what a later search needs: the first non-empty line, error
 * lines, file paths and code identifiers, within `maxChars`. Linear in the content length.
 *
 * @example
 * extractiveSummary("Traceback (most recent call last):\n  File \"src/app.py\", line 3\nValueError: bad")
 * // 'Traceback (most recent call last): | errors: ValueError: bad | paths: src/app.py'
 */
export function extractiveSummary(content: string, options: ExtractiveOptions = {}): string {
  const max = Math.max(40, options.maxChars ?? 480);
  const lines = content
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const first = lines[0];
  if (first === undefined) return "";
  const parts = [clip(first, Math.floor(max / 2))];
  const errors = distinct(
    lines
      .slice(1)
      .filter((l) => ERROR_LINE.test(l))
      .map((l) => clip(l, 120)),
    4,
  );
  const sample = content.length > SAMPLE ? `${content.slice(0, SAMPLE / 2)}\n${content.slice(-SAMPLE / 2)}` : content;
  const words = (sample.match(WORD) ?? []).map((w) => w.replace(/^[./-]+(?=\w)|[.,:;-]+$/g, ""));
  const paths = distinct(
    words.filter((w) => w.includes("/") || w.includes(".")).filter((w) => PATH.test(w)),
    8,
  );
  const parts2 = words.flatMap((w) => w.split(/[./-]/));
  const idents = distinct(
    [...(sample.match(CALL) ?? []), ...parts2.filter((w) => IDENT.test(w))].filter(
      (w) => !paths.some((p) => p.includes(w)),
    ),
    10,
  );
  if (errors.length > 0) parts.push(`errors: ${errors.join(" / ")}`);
  if (paths.length > 0) parts.push(`paths: ${paths.join(", ")}`);
  if (idents.length > 0) parts.push(`ids: ${idents.join(", ")}`);
  let out = "";
  for (const part of parts) {
    const next = out === "" ? part : `${out} | ${part}`;
    if (Array.from(next).length > max) break;
    out = next;
  }
  return out === "" ? clip(first, max) : out;
}

/**
 * The extractive summariser as a `Summarizer`, prefixed with the segment's kind when it has one.
 *
 * @example hierarchicalCompact(segments, { target: { maxTokens: 8000 }, scoring, summarize: extractiveSummarizer(), writer })
 */
export function extractiveSummarizer<S extends Segment>(options: ExtractiveOptions = {}): Summarizer<S> {
  // Closed options: a typo or a bad value fails every segment with InvalidOptions (reported per segment).
  const checked = decodeExtractive(options);
  return (segment) => {
    if (E.isLeft(checked)) return checked;
    const body = extractiveSummary(segment.content, options);
    return body === "" || segment.kind === undefined ? body : `[${segment.kind}] ${body}`;
  };
}

/**
 * Options of {@link providerSummarizer}. Decoded by a closed codec (subject "provider summarizer options").
 *
 * @example providerSummarizer(provider, { model: "gpt-4o-mini", maxTokens: 120 } satisfies ProviderSummarizerOptions)
 */
export interface ProviderSummarizerOptions {
  /** Model id passed to the provider. */
  readonly model: string;
  /**
   * Most tokens of the summary (integer ≥ 1).
   * @default 200
   */
  readonly maxTokens?: number;
  /**
   * Longest content sent, in characters; longer content keeps its head and tail (integer ≥ 1).
   * @default 24000
   */
  readonly maxInputChars?: number;
  /**
   * System prompt.
   * @default DEFAULT_SUMMARY_PROMPT (a terse, search-friendly summary instruction)
   */
  readonly prompt?: string;
}

const decodeExtractive = decodeWith(
  objectCodec("ExtractiveOptions", {}, { maxChars: positiveInt }, { expected: "an options object" }),
  "InvalidOptions",
  "extractive summarizer options",
);
const decodeProviderSummarizer = decodeWith(
  objectCodec(
    "ProviderSummarizerOptions",
    { model: t.string },
    { maxTokens: positiveInt, maxInputChars: positiveInt, prompt: t.string },
    { expected: "an options object" },
  ),
  "InvalidOptions",
  "provider summarizer options",
);

/** The default instruction for LLM summaries of evicted segments. */
export const DEFAULT_SUMMARY_PROMPT =
  "Summarise this context segment in at most three sentences for a search index. Keep file paths, " +
  "identifiers, commands, error messages and numbers verbatim. Output only the summary.";

function fitInput(content: string, max: number): string {
  if (content.length <= max) return content;
  const head = Math.floor(max * 0.75);
  const tail = max - head;
  return `${content.slice(0, head)}\n[… ${content.length - max} characters omitted …]\n${content.slice(content.length - tail)}`;
}

/**
 * A summariser backed by an LLM `Provider` (from @cc/messages). Provider failures come back as `Left`
 * (reported per segment by `hierarchicalCompact`), never as throws; the pass's abort signal is
 * forwarded to the request.
 *
 * @example const summarize = providerSummarizer(provider, { model: "gpt-4o-mini" });
 */
export function providerSummarizer<S extends Segment>(
  provider: Provider,
  options: ProviderSummarizerOptions,
): Summarizer<S> {
  const checked = decodeProviderSummarizer(options);
  const max = options.maxInputChars ?? 24_000;
  return async (segment, { signal }): Promise<E.Either<ProviderError | InvalidOptions, string>> => {
    if (E.isLeft(checked)) return checked;
    const request: CompletionRequest = {
      model: options.model,
      maxTokens: options.maxTokens ?? 200,
      temperature: 0,
      signal,
      messages: [
        { role: "system", content: options.prompt ?? DEFAULT_SUMMARY_PROMPT },
        {
          role: "user",
          content: `${segment.kind === undefined ? "" : `Kind: ${segment.kind}\n`}${fitInput(segment.content, max)}`,
        },
      ],
    };
    const r = await provider.complete(request)();
    return E.map((c: { readonly text: string }) => c.text.trim())(r);
  };
}
