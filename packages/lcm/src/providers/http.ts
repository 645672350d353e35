/**
 * An OpenAI-compatible HTTP provider on the global `fetch`: `/v1/chat/completions` and
 * `/v1/models`, with a per-attempt timeout, caller abort, retries with exponential backoff on
 * 429/5xx and network errors (honouring `Retry-After`) within a total time budget, response bodies
 * read up to a size bound, errors classified as auth, transient, request or invalid response, and
 * every error message passed through one redactor built from the key and the credential-named
 * parameters of the base URL (see {@link createRedactor}).
 *
 * @module providers/http
 */
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import {
  toOpenAIMessages,
  type Completion,
  type CompletionRequest,
  type ModelInfo,
  type Provider,
  type ProviderError,
} from "@cc/messages";
import {
  decodeHttpProviderOptions,
  type HttpProviderConfig,
  type HttpProviderOptions,
  type InvalidProviderOptions,
} from "./http-options.js";
import { createRedactor, urlSecrets } from "./redact.js";

export {
  decodeHttpProviderOptions,
  httpProviderDefaults,
  HttpProviderOptionsCodec,
  type HttpProviderConfig,
  type HttpProviderOptions,
  type InvalidProviderOptions,
} from "./http-options.js";

const ChatResponse = t.type({
  choices: t.array(t.type({ message: t.type({ content: t.union([t.string, t.null]) }) })),
  usage: t.union([t.undefined, t.null, t.partial({ prompt_tokens: t.number, completion_tokens: t.number })]),
  model: t.union([t.undefined, t.string]),
});

const ModelsResponse = t.type({
  data: t.array(
    t.intersection([
      t.type({ id: t.string }),
      t.partial({
        pricing: t.partial({ prompt: t.union([t.string, t.number]), completion: t.union([t.string, t.number]) }),
        context_length: t.number,
      }),
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
  if (status === 408 || status === 409 || status === 425 || status === 429 || status >= 500)
    return { _tag: "ProviderTransientError", status, message };
  return { _tag: "ProviderRequestError", status, message };
}

function perMTok(price: string | number | undefined): number | undefined {
  if (price === undefined) return undefined;
  const n = typeof price === "number" ? price : Number(price);
  // Per-token prices (strings in OpenRouter-style listings) to per million, rounded to a micro-dollar.
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 1e12) / 1e6 : undefined;
}

/** Bytes of an error response read for its message. */
const ERROR_BODY_BYTES = 16 * 1024;
/** Characters of a (redacted) error body kept in the message. */
const ERROR_MESSAGE_CHARS = 500;

/**
 * The URL of `path` under `baseUrl` (pure): the path is appended to the base URL's path, its
 * query (e.g. `?api-version=…`) kept after it.
 */
function endpoint(baseUrl: string, path: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}${path}`;
  return url.href;
}

/** A body read up to a bound: the text, and whether more was there. */
interface BoundedBody {
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * Reads at most `limit` bytes of `response`'s body and cancels the rest (the connection is
 * dropped, nothing beyond the bound is buffered). A `Content-Length` above the bound is refused
 * before reading.
 */
async function readBounded(response: Response, limit: number): Promise<BoundedBody> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    return { text: "", truncated: true };
  }
  if (response.body === null) return { text: "", truncated: false };
  const reader = response.body.getReader();
  // Decoded chunk by chunk: no copy of the raw bytes is kept beside the text.
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      parts.push(decoder.decode(value.subarray(0, limit - size), { stream: true }));
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    parts.push(decoder.decode(value, { stream: true }));
    size += value.byteLength;
  }
  parts.push(decoder.decode());
  return { text: parts.join(""), truncated };
}

/**
 * Creates the HTTP provider, or says which options are wrong (see {@link decodeHttpProviderOptions}).
 *
 * @example
 * const provider = openAICompatibleProvider({ baseUrl: "http://127.0.0.1:8080/v1", apiKey: process.env["KEY"] ?? "" });
 * if (E.isLeft(provider)) console.error(provider.left.problems.join("\n"));
 */
export function openAICompatibleProvider(options: HttpProviderOptions): E.Either<InvalidProviderOptions, Provider> {
  const decoded = decodeHttpProviderOptions(options);
  return E.isLeft(decoded) ? decoded : E.right(httpProvider(decoded.right));
}

/** The provider over validated options. */
function httpProvider(config: HttpProviderConfig): Provider {
  const { timeoutMs, maxRetries, backoffMs, maxBackoffMs, maxTotalMs, maxResponseBytes, now } = config;
  const redact = createRedactor([config.apiKey, ...urlSecrets(config.baseUrl)]);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (config.apiKey !== undefined) headers["authorization"] = `Bearer ${config.apiKey}`;

  /** One HTTP attempt of at most `limitMs`: the parsed JSON body, or a classified error and the Retry-After delay. */
  async function once(
    path: string,
    init: { method: string; body?: string },
    signal: AbortSignal | undefined,
    limitMs: number,
  ): Promise<{ result: Attempt<unknown>; retryAfter?: number }> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limitMs);
    try {
      const response = await fetch(endpoint(config.baseUrl, path), { ...init, headers, signal: controller.signal });
      if (!response.ok) {
        const body = await readBounded(response, ERROR_BODY_BYTES);
        const retryAfter = retryAfterMs(response.headers.get("retry-after"), now());
        return {
          result: E.left(classifyStatus(response.status, redact(body.text).slice(0, ERROR_MESSAGE_CHARS))),
          ...(retryAfter === undefined ? {} : { retryAfter }),
        };
      }
      const body = await readBounded(response, maxResponseBytes);
      if (body.truncated)
        return {
          result: E.left({
            _tag: "ProviderInvalidResponse",
            message: `response body exceeds maxResponseBytes (${maxResponseBytes} bytes)`,
          }),
        };
      try {
        return { result: E.right(JSON.parse(body.text) as unknown) };
      } catch {
        return {
          result: E.left({
            _tag: "ProviderInvalidResponse",
            message: `response is not JSON: ${redact(body.text.slice(0, ERROR_BODY_BYTES)).slice(0, 120)}`,
          }),
        };
      }
    } catch (e) {
      if (signal?.aborted === true) return { result: E.left({ _tag: "ProviderAborted" }) };
      if (timedOut) return { result: E.left({ _tag: "ProviderTimeout", timeoutMs: limitMs }) };
      return {
        result: E.left({
          _tag: "ProviderTransientError",
          message: redact(`network error: ${e instanceof Error ? e.message : String(e)}`),
        }),
      };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Attempts with retries on transient errors, all within `maxTotalMs`. */
  async function call(
    path: string,
    init: { method: string; body?: string },
    signal: AbortSignal | undefined,
  ): Promise<Attempt<unknown>> {
    const deadline = now() + maxTotalMs;
    let last: Attempt<unknown> | undefined;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted === true) return E.left({ _tag: "ProviderAborted" });
      const remaining = deadline - now();
      if (last !== undefined && remaining <= 0) return last;
      const { result, retryAfter } = await once(path, init, signal, Math.max(1, Math.min(timeoutMs, remaining)));
      if (E.isRight(result) || result.left._tag !== "ProviderTransientError" || attempt >= maxRetries) return result;
      last = result;
      const delay = Math.min(maxBackoffMs, retryAfter ?? backoffMs * 2 ** attempt);
      // No retry that could not even start before the deadline.
      if (now() + delay >= deadline) return result;
      if (!(await sleep(delay, signal))) return E.left({ _tag: "ProviderAborted" });
    }
  }

  const complete =
    (request: CompletionRequest): TaskEither<ProviderError, Completion> =>
    async () => {
      const body = JSON.stringify({
        model: request.model,
        messages: toOpenAIMessages(request.messages),
        ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      });
      const raw = await call("/chat/completions", { method: "POST", body }, request.signal);
      if (E.isLeft(raw)) return raw;
      const decoded = ChatResponse.decode(raw.right);
      if (E.isLeft(decoded))
        return E.left({ _tag: "ProviderInvalidResponse", message: "expected { choices: [{ message: { content } }] }" });
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
    const known = new Map(config.catalogue.map((m) => [m.id, m]));
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

  return { name: config.name, complete, listModels };
}
