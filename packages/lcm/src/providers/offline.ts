/**
 * The offline, deterministic extractive summariser: a {@link Provider} that needs no network and
 * no key. It keeps the lines a reader needs to pick up the thread — the first line of each
 * message, tool calls, error lines, file paths and identifiers — in their original order, within
 * the request's `maxTokens`. It is the embedded default.
 *
 * @module providers/offline
 */
import { estimateCounter, type TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { headOf } from "../clip.js";
import { TRANSCRIPT_CLOSE, TRANSCRIPT_OPEN } from "../transcript.js";
import type { Completion, CompletionRequest, ModelInfo, Provider, ProviderError } from "./provider.js";

/** Options of {@link offlineProvider}. */
export interface OfflineProviderOptions {
  /** Counts tokens to honour `maxTokens`. Default: the weighted estimate counter of `@cc/tokens`. */
  readonly counter?: TokenCounter;
  /** Output budget when a request sets no `maxTokens`. Default 1024. */
  readonly defaultMaxTokens?: number;
  /** Longest line kept, in characters (longer lines are cut with "…"). Default 240. */
  readonly maxLineChars?: number;
}

/** The model id the offline provider reports. */
export const OFFLINE_MODEL = "offline-extractive";

const ROLE_LABEL = /^\[(system|user|assistant|tool result[^\]]*)\]$/;
const ERROR_LINE = /\b(error|errors|exception|traceback|failed|failure|fatal|panic|assert(ion)?|cannot|denied|not found)\b/i;
const PATH = /(?:[\w.-]+\/)+[\w.-]+|\b[\w-]+\.(?:ts|tsx|js|mjs|py|go|rs|java|rb|c|h|cpp|md|json|ya?ml|toml|txt|sh|sql|html|css)\b/;
const IDENTIFIER = /\b[a-z]+[A-Z]\w*\b|\b[a-z]+_[a-z_]+\b|\b\w+\(\)/;
const TOOL_CALL = /^→ call /;

/** Priority of a line: higher is kept first; 0 is kept only when nothing scores. */
function priority(line: string, firstOfMessage: boolean): number {
  if (ERROR_LINE.test(line)) return 5;
  if (TOOL_CALL.test(line)) return 4;
  if (firstOfMessage) return 3;
  if (PATH.test(line)) return 2;
  if (IDENTIFIER.test(line)) return 1;
  return 0;
}

/** The text the summary is drawn from: the last delimited transcript, else every non-system message. */
function sourceText(request: CompletionRequest): string {
  const body = request.messages
    .filter((m) => m.role !== "system")
    .map((m) => m.content)
    .join("\n");
  const open = body.lastIndexOf(TRANSCRIPT_OPEN);
  const close = body.lastIndexOf(TRANSCRIPT_CLOSE);
  return open >= 0 && close > open ? body.slice(open + TRANSCRIPT_OPEN.length, close) : body;
}

interface Candidate {
  readonly order: number;
  readonly text: string;
  readonly priority: number;
}

/**
 * Extracts a summary of `source` within `maxTokens` (pure and deterministic).
 *
 * @example extractiveSummary("[user]\nfix src/a.ts\n[tool result]\nError: boom", 50, counter)
 * // "- fix src/a.ts\n- Error: boom"
 */
export function extractiveSummary(source: string, maxTokens: number, counter: TokenCounter, maxLineChars = 240): string {
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  let firstOfMessage = true;
  for (const raw of source.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    if (ROLE_LABEL.test(line)) {
      firstOfMessage = true;
      continue;
    }
    const text = line.length > maxLineChars ? `${headOf(line, maxLineChars)}…` : line;
    if (!seen.has(text)) {
      seen.add(text);
      candidates.push({ order: candidates.length, text: `- ${text}`, priority: priority(line, firstOfMessage) });
    }
    firstOfMessage = false;
  }
  const scored = candidates.some((c) => c.priority > 0) ? candidates.filter((c) => c.priority > 0) : candidates;
  const ranked = [...scored].sort((a, b) => b.priority - a.priority || a.order - b.order);
  const chosen: Candidate[] = [];
  let used = 0;
  for (const c of ranked) {
    const cost = counter.count(c.text) + 1;
    if (used + cost > maxTokens) continue;
    chosen.push(c);
    used += cost;
  }
  chosen.sort((a, b) => a.order - b.order);
  const lines = chosen.map((c) => c.text);
  while (lines.length > 0 && counter.count(lines.join("\n")) > maxTokens) lines.pop();
  return lines.join("\n");
}

/**
 * Creates the offline extractive summariser.
 *
 * @example
 * const provider = offlineProvider();
 * const r = await provider.complete({ model: OFFLINE_MODEL, messages: [{ role: "user", content: "Error: x" }], maxTokens: 50 })();
 * // right({ text: "- Error: x", usage: {...}, model: "offline-extractive" })
 */
export function offlineProvider(options: OfflineProviderOptions = {}): Provider {
  const counter = options.counter ?? estimateCounter();
  const defaultMax = options.defaultMaxTokens ?? 1024;
  const maxLineChars = options.maxLineChars ?? 240;
  const models: readonly ModelInfo[] = [{ id: OFFLINE_MODEL, inputCostPerMTok: 0, outputCostPerMTok: 0, strength: "very_low" }];
  return {
    name: "offline",
    complete: (request) => () => {
      if (request.signal?.aborted === true) return Promise.resolve(E.left<ProviderError, Completion>({ _tag: "ProviderAborted" }));
      const source = sourceText(request);
      const max = request.maxTokens !== undefined && Number.isFinite(request.maxTokens) ? Math.max(0, Math.floor(request.maxTokens)) : defaultMax;
      const text = extractiveSummary(source, max, counter, maxLineChars);
      const usage = { inputTokens: counter.count(source), outputTokens: counter.count(text) };
      return Promise.resolve(E.right<ProviderError, Completion>({ text, model: request.model, usage }));
    },
    listModels: () => TE.right(models),
  };
}
