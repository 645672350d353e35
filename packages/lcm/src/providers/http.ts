/**
 * An OpenAI-compatible HTTP provider on the global `fetch`: `/v1/chat/completions` and
 * `/v1/models`, with a per-attempt timeout, caller abort, retries with exponential backoff on
 * 429/5xx and network errors (honouring `Retry-After`), and errors classified as auth,
 * transient, request or invalid response.
 *
 * @module providers/http
 */
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { toOpenAIMessages } from "@cc/messages";
import type { Completion, CompletionRequest, ModelInfo, Provider, ProviderError } from "@cc/messages";

/** Options of {@link openAICompatibleProvider}. */
export interface HttpProviderOptions {
  /** Base URL including the version prefix, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  readonly apiKey?: string;
  /** Timeout of one HTTP attempt in ms. Default 60000. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt on transient failures. Default 3. */
  readonly maxRetries?: number;
  /** First backoff delay in ms (doubled each retry). Default 500. */
  readonly backoffMs?: number;
  /** Longest delay between attempts in ms, `Retry-After` included. Default 30000. */
  readonly maxBackoffMs?: number;
  /** Prices and tiers merged into `listModels` by model id (the protocol carries none). */
  readonly catalogue?: readonly ModelInfo[];
  /** Clock for HTTP-date `Retry-After` values. Default `Date.now`. */
  readonly now?: () => number;
  /** Name in reports. Default "openai-compatible". */
  readonly name?: string;
}

const ChatResponse = t.type({
  choices: t.array(t.type({ message: t.type({ content: t.union([t.string, t.null]) }) })),
  usage: t.union([t.undefined, t.null, t.partial({ prompt_tokens: t.number, completion_tokens: t.number })]),
  model: t.union([t.undefined, t.string]),
});

const ModelsResponse = t.type({
  data: t.array(
    t.intersection([
      t.type({ id: t.string }),
      t.partial({ pricing: t.partial({ prompt: t.union([t.string, t.number]), completion: t.union([t.string, t.number]) }), context_length: t.number }),
    ]),
  ),
});

type Attempt<A> = E.Either<ProviderError, A>;

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<boolean> =>
  new Promise((resolve) => {
    if (signal?.aborted === true) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** Parses `Retry-After` (seconds or an HTTP date) to milliseconds (pure). */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** Classifies an HTTP status (pure): 401/403 auth; 408, 409, 425, 429, 5xx transient; other 4xx request. */
export function classifyStatus(status: number, message: string): ProviderError {
  if (status === 401 || status === 403) return { _tag: "ProviderAuthError", status, message };
  if (status === 408 || status === 409 || status === 425 || status === 429 || status >= 500) return { _tag: "ProviderTransientError", status, message };
  return { _tag: "ProviderRequestError", status, message };
}

function perMTok(price: string | number | undefined): number | undefined {
  if (price === undefined) return undefined;
  const n = typeof price === "number" ? price : Number(price);
  // Per-token prices (strings in OpenRouter-style listings) to per million, rounded to a micro-dollar.
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 1e12) / 1e6 : undefined;
}

/**
 * Creates the HTTP provider.
 *
 * @example
 * const provider = openAICompatibleProvider({ baseUrl: "http://127.0.0.1:8080/v1", apiKey: process.env.KEY });
 */
export function openAICompatibleProvider(options: HttpProviderOptions): Provider {
  const base = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = Math.max(0, options.maxRetries ?? 3);
  const backoffMs = options.backoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const now = options.now ?? Date.now;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (options.apiKey !== undefined) headers["authorization"] = `Bearer ${options.apiKey}`;

  /** One HTTP attempt: the parsed JSON body, or a classified error and the Retry-After delay. */
  async function once(path: string, init: { method: string; body?: string }, signal: AbortSignal | undefined): Promise<{ result: Attempt<unknown>; retryAfter?: number }> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await fetch(`${base}${path}`, { ...init, headers, signal: controller.signal });
      const text = await response.text();
      if (!response.ok) {
        const retryAfter = retryAfterMs(response.headers.get("retry-after"), now());
        return { result: E.left(classifyStatus(response.status, text.slice(0, 500))), ...(retryAfter === undefined ? {} : { retryAfter }) };
      }
      try {
        return { result: E.right(JSON.parse(text) as unknown) };
      } catch {
        return { result: E.left({ _tag: "ProviderInvalidResponse", message: `response is not JSON: ${text.slice(0, 120)}` }) };
      }
    } catch (e) {
      if (signal?.aborted === true) return { result: E.left({ _tag: "ProviderAborted" }) };
      if (timedOut) return { result: E.left({ _tag: "ProviderTimeout", timeoutMs }) };
      return { result: E.left({ _tag: "ProviderTransientError", message: `network error: ${e instanceof Error ? e.message : String(e)}` }) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Attempts with retries on transient errors. */
  async function call(path: string, init: { method: string; body?: string }, signal: AbortSignal | undefined): Promise<Attempt<unknown>> {
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted === true) return E.left({ _tag: "ProviderAborted" });
      const { result, retryAfter } = await once(path, init, signal);
      if (E.isRight(result) || result.left._tag !== "ProviderTransientError" || attempt >= maxRetries) return result;
      const delay = Math.min(maxBackoffMs, retryAfter ?? backoffMs * 2 ** attempt);
      if (!(await sleep(delay, signal))) return E.left({ _tag: "ProviderAborted" });
    }
  }

  const complete = (request: CompletionRequest): TaskEither<ProviderError, Completion> => async () => {
    const body = JSON.stringify({
      model: request.model,
      messages: toOpenAIMessages(request.messages),
      ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    });
    const raw = await call("/chat/completions", { method: "POST", body }, request.signal);
    if (E.isLeft(raw)) return raw;
    const decoded = ChatResponse.decode(raw.right);
    if (E.isLeft(decoded)) return E.left({ _tag: "ProviderInvalidResponse", message: "expected { choices: [{ message: { content } }] }" });
    const first = decoded.right.choices[0];
    if (first === undefined) return E.left({ _tag: "ProviderInvalidResponse", message: "choices is empty" });
    const usage = decoded.right.usage ?? {};
    return E.right({
      text: first.message.content ?? "",
      model: decoded.right.model ?? request.model,
      usage: { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 },
    });
  };

  const listModels = (): TaskEither<ProviderError, readonly ModelInfo[]> => async () => {
    const raw = await call("/models", { method: "GET" }, undefined);
    if (E.isLeft(raw)) return raw;
    const decoded = ModelsResponse.decode(raw.right);
    if (E.isLeft(decoded)) return E.left({ _tag: "ProviderInvalidResponse", message: "expected { data: [{ id }] }" });
    const known = new Map((options.catalogue ?? []).map((m) => [m.id, m]));
    return E.right(
      decoded.right.data.map((d): ModelInfo => {
        const input = perMTok(d.pricing?.prompt);
        const output = perMTok(d.pricing?.completion);
        return {
          id: d.id,
          ...(input === undefined ? {} : { inputCostPerMTok: input }),
          ...(output === undefined ? {} : { outputCostPerMTok: output }),
          ...(d.context_length === undefined ? {} : { contextWindow: d.context_length }),
          ...known.get(d.id),
        };
      }),
    );
  };

  return { name: options.name ?? "openai-compatible", complete, listModels };
}
