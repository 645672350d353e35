/**
 * An OpenAI-compatible HTTP provider on the global `fetch`: `/v1/chat/completions` and
 * `/v1/models`, with a per-attempt timeout, caller abort, retries with exponential backoff on
 * 429/5xx and network errors (honouring `Retry-After`) within a total time budget, response bodies
 * read up to a size bound, errors classified as auth, transient, request or invalid response, and
 * every error message passed through {@link redactSecrets}.
 *
 * @module providers/http
 */
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { toOpenAIMessages, type Completion, type CompletionRequest, type ModelInfo, type Provider, type ProviderError } from "@cc/messages";
import type { Strength } from "@cc/messages/internal";
import { invalid, type InvalidOptions } from "@cc/validate";
import { redactSecrets } from "./redact.js";

/** Options of {@link openAICompatibleProvider} (validated by {@link decodeHttpProviderOptions}). */
export interface HttpProviderOptions {
  /** Base URL including the version prefix, e.g. `https://api.openai.com/v1`; http or https, no credentials. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set; removed from every error message. */
  readonly apiKey?: string;
  /**
   * Timeout of one HTTP attempt in ms, body included (integer 1..600000).
   * @default 60000
   */
  readonly timeoutMs?: number;
  /**
   * Retries after the first attempt on transient failures (integer 0..20).
   * @default 3
   */
  readonly maxRetries?: number;
  /**
   * First backoff delay in ms, doubled each retry (integer 0..60000).
   * @default 500
   */
  readonly backoffMs?: number;
  /**
   * Longest delay between attempts in ms, `Retry-After` included (integer 0..600000).
   * @default 30000
   */
  readonly maxBackoffMs?: number;
  /**
   * Total time of one call in ms, every attempt and wait included (integer 1..3600000): no retry
   * starts after it, and the last attempt's timeout is cut to what remains.
   * @default 300000
   */
  readonly maxTotalMs?: number;
  /**
   * Largest response body read, in bytes (integer 1..1073741824); a longer body is cut off and
   * the call fails with `ProviderInvalidResponse` (never buffered whole).
   * @default 8388608 (8 MiB)
   */
  readonly maxResponseBytes?: number;
  /**
   * Prices and tiers merged into `listModels` by model id (the protocol carries none).
   * @default []
   */
  readonly catalogue?: readonly ModelInfo[];
  /**
   * Clock for HTTP-date `Retry-After` values and the total time budget.
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * Name in reports (non-empty).
   * @default "openai-compatible"
   */
  readonly name?: string;
}

/** {@link HttpProviderOptions} with every default applied. */
export interface HttpProviderConfig {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  readonly maxTotalMs: number;
  readonly maxResponseBytes: number;
  readonly catalogue: readonly ModelInfo[];
  readonly now: () => number;
  readonly name: string;
}

/** The defaults of {@link HttpProviderOptions}. */
export const httpProviderDefaults = {
  timeoutMs: 60_000,
  maxRetries: 3,
  backoffMs: 500,
  maxBackoffMs: 30_000,
  maxTotalMs: 300_000,
  maxResponseBytes: 8 * 1024 * 1024,
  name: "openai-compatible",
} as const;

/** Provider options were rejected; `problems` has one per field (secrets redacted). */
export type InvalidProviderOptions = InvalidOptions;

const intIn = (min: number, max: number): t.Type<number, number, unknown> => {
  const ok = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= min && u <= max;
  return new t.Type<number, number, unknown>(`Integer(${min}..${max})`, ok, (u, c) => (ok(u) ? t.success(u) : t.failure(u, c, `expected an integer in ${min}..${max}`)), t.identity);
};
const nonNegativeNumber = new t.Type<number, number, unknown>(
  "NonNegativeNumber",
  (u): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0,
  (u, c) => (typeof u === "number" && Number.isFinite(u) && u >= 0 ? t.success(u) : t.failure(u, c, "expected a finite number ≥ 0")),
  t.identity,
);
const nonEmptyString = new t.Type<string, string, unknown>(
  "NonEmptyString",
  (u): u is string => typeof u === "string" && u !== "",
  (u, c) => (typeof u === "string" && u !== "" ? t.success(u) : t.failure(u, c, "expected a non-empty string")),
  t.identity,
);
const headerSafe = (u: unknown): u is string => typeof u === "string" && u !== "" && !/[\r\n\0]/.test(u);
const ApiKey = new t.Type<string, string, unknown>("ApiKey", headerSafe, (u, c) => (headerSafe(u) ? t.success(u) : t.failure(u, c, "expected a non-empty string without line breaks")), t.identity);
const urlProblem = (u: unknown): string | undefined => {
  if (typeof u !== "string") return "expected an http(s) URL string";
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return "expected an absolute http(s) URL such as http://127.0.0.1:8080/v1";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `expected an http(s) URL, not ${url.protocol}`;
  if (url.username !== "" || url.password !== "") return "credentials in the URL are never sent (fetch refuses them): pass the key as apiKey";
  return undefined;
};
const BaseUrl = new t.Type<string, string, unknown>(
  "BaseUrl",
  (u): u is string => urlProblem(u) === undefined,
  (u, c) => {
    const problem = urlProblem(u);
    return problem === undefined ? t.success(u as string) : t.failure(u, c, problem);
  },
  t.identity,
);
const Clock = new t.Type<() => number, () => number, unknown>(
  "Clock",
  (u): u is () => number => typeof u === "function",
  (u, c) => (typeof u === "function" ? t.success(u as () => number) : t.failure(u, c, "expected a function returning epoch ms")),
  t.identity,
);
const StrengthCodec: t.Type<Strength, Strength, unknown> = t.keyof({ very_low: null, low: null, average: null, high: null, very_high: null });
const ModelInfoCodec: t.Type<ModelInfo, ModelInfo, unknown> = t.intersection([
  t.type({ id: t.string }),
  t.partial({ inputCostPerMTok: nonNegativeNumber, outputCostPerMTok: nonNegativeNumber, strength: StrengthCodec, contextWindow: intIn(1, Number.MAX_SAFE_INTEGER) }),
]);

/** io-ts codec of {@link HttpProviderOptions} (field by field; unknown keys are checked by {@link decodeHttpProviderOptions}). */
export const HttpProviderOptionsCodec = t.intersection([
  t.type({ baseUrl: BaseUrl }),
  t.partial({
    apiKey: ApiKey,
    timeoutMs: intIn(1, 600_000),
    maxRetries: intIn(0, 20),
    backoffMs: intIn(0, 60_000),
    maxBackoffMs: intIn(0, 600_000),
    maxTotalMs: intIn(1, 3_600_000),
    maxResponseBytes: intIn(1, 1024 * 1024 * 1024),
    catalogue: t.readonlyArray(ModelInfoCodec),
    now: Clock,
    name: nonEmptyString,
  }),
]);

const optionKeys: readonly string[] = ["baseUrl", "apiKey", "timeoutMs", "maxRetries", "backoffMs", "maxBackoffMs", "maxTotalMs", "maxResponseBytes", "catalogue", "now", "name"];

/** Edit distance (pure; small strings only). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[b.length]!;
}

/** The known option closest to `key`, when it is close enough to be a typo or a shortening. */
function nearest(key: string): string | undefined {
  const norm = (k: string): string => k.replace(/[_-]/g, "").toLowerCase();
  const k = norm(key);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const known of optionKeys) {
    const n = norm(known);
    let prefix = 0;
    while (prefix < Math.min(k.length, n.length) && k[prefix] === n[prefix]) prefix++;
    const d = distance(k, n);
    const close = d <= Math.max(2, Math.floor(k.length / 4)) || prefix >= Math.max(4, Math.ceil(0.75 * k.length));
    if (close && d < bestDistance) [best, bestDistance] = [known, d];
  }
  return best;
}

function showValue(u: unknown, secrets: readonly (string | undefined)[]): string {
  if (typeof u === "string") return redactSecrets(JSON.stringify(u.length > 80 ? `${u.slice(0, 80)}…` : u), secrets);
  if (typeof u === "number" || typeof u === "boolean" || u === null || u === undefined) return String(u);
  return typeof u === "function" ? "a function" : Array.isArray(u) ? "an array" : "an object";
}

/**
 * Validates provider options and applies the defaults: rejects unknown keys (naming the closest
 * known one), NaN, infinities, fractions and out-of-range numbers, and a base URL that is not
 * http(s) or carries credentials. Problems never contain the key.
 *
 * @example
 * decodeHttpProviderOptions({ baseUrl: "http://127.0.0.1:8080/v1", maxRetrys: 2, timeoutMs: 0 });
 * // left({ _tag: "InvalidOptions", subject: "provider options", problems: [
 * //   "maxRetrys is not an option; did you mean maxRetries?", "timeoutMs: expected an integer in 1..600000, got 0"] })
 */
export function decodeHttpProviderOptions(input: unknown): E.Either<InvalidProviderOptions, HttpProviderConfig> {
  const fail = (problems: readonly string[]): E.Either<InvalidProviderOptions, HttpProviderConfig> => E.left(invalid("InvalidOptions", "provider options", problems));
  if (typeof input !== "object" || input === null || Array.isArray(input)) return fail([`options: expected an object such as { baseUrl: "http://127.0.0.1:8080/v1" }, got ${showValue(input, [])}`]);
  const record = input as Readonly<Record<string, unknown>>;
  const secrets = [typeof record["apiKey"] === "string" ? record["apiKey"] : undefined];
  const problems: string[] = [];
  for (const key of Object.keys(record)) {
    if (optionKeys.includes(key)) continue;
    const near = nearest(key);
    problems.push(`${redactSecrets(key, secrets)} is not an option${near === undefined ? ` (known: ${optionKeys.join(", ")})` : `; did you mean ${near}?`}`);
  }
  // An explicit `undefined` means "the default", as an absent key does.
  const defined = Object.fromEntries(Object.entries(record).filter(([k, v]) => v !== undefined && optionKeys.includes(k)));
  const decoded = HttpProviderOptionsCodec.decode(defined);
  if (E.isLeft(decoded)) {
    for (const error of decoded.left) {
      const field = error.context.map((c) => c.key).filter((k) => k !== "" && !/^\d+$/.test(k))[0] ?? "options";
      const line = field === "apiKey" ? "apiKey: expected a non-empty string without line breaks" : `${field}: ${error.message ?? "invalid value"}, got ${showValue(error.value, secrets)}`;
      if (!problems.includes(line)) problems.push(line);
    }
  }
  if (problems.length > 0 || E.isLeft(decoded)) return fail(problems);
  const o = decoded.right;
  return E.right({
    baseUrl: o.baseUrl,
    ...(o.apiKey === undefined ? {} : { apiKey: o.apiKey }),
    timeoutMs: o.timeoutMs ?? httpProviderDefaults.timeoutMs,
    maxRetries: o.maxRetries ?? httpProviderDefaults.maxRetries,
    backoffMs: o.backoffMs ?? httpProviderDefaults.backoffMs,
    maxBackoffMs: o.maxBackoffMs ?? httpProviderDefaults.maxBackoffMs,
    maxTotalMs: o.maxTotalMs ?? httpProviderDefaults.maxTotalMs,
    maxResponseBytes: o.maxResponseBytes ?? httpProviderDefaults.maxResponseBytes,
    catalogue: o.catalogue ?? [],
    now: o.now ?? Date.now,
    name: o.name ?? httpProviderDefaults.name,
  });
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

/** Bytes of an error response read for its message (the message keeps 500 characters). */
const ERROR_BODY_BYTES = 16 * 1024;

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
 * const provider = openAICompatibleProvider({ baseUrl: "http://127.0.0.1:8080/v1", apiKey: process.env.KEY });
 * if (E.isLeft(provider)) console.error(provider.left.problems.join("\n"));
 */
export function openAICompatibleProvider(options: HttpProviderOptions): E.Either<InvalidProviderOptions, Provider> {
  const decoded = decodeHttpProviderOptions(options);
  return E.isLeft(decoded) ? decoded : E.right(httpProvider(decoded.right));
}

/** The provider over validated options. */
function httpProvider(config: HttpProviderConfig): Provider {
  const { timeoutMs, maxRetries, backoffMs, maxBackoffMs, maxTotalMs, maxResponseBytes, now } = config;
  const base = config.baseUrl.replace(/\/+$/, "");
  const redact = (text: string): string => redactSecrets(text, [config.apiKey]);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (config.apiKey !== undefined) headers["authorization"] = `Bearer ${config.apiKey}`;

  /** One HTTP attempt of at most `limitMs`: the parsed JSON body, or a classified error and the Retry-After delay. */
  async function once(path: string, init: { method: string; body?: string }, signal: AbortSignal | undefined, limitMs: number): Promise<{ result: Attempt<unknown>; retryAfter?: number }> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limitMs);
    try {
      const response = await fetch(`${base}${path}`, { ...init, headers, signal: controller.signal });
      if (!response.ok) {
        const body = await readBounded(response, ERROR_BODY_BYTES);
        const retryAfter = retryAfterMs(response.headers.get("retry-after"), now());
        return { result: E.left(classifyStatus(response.status, redact(body.text).slice(0, 500))), ...(retryAfter === undefined ? {} : { retryAfter }) };
      }
      const body = await readBounded(response, maxResponseBytes);
      if (body.truncated) return { result: E.left({ _tag: "ProviderInvalidResponse", message: `response body exceeds maxResponseBytes (${maxResponseBytes} bytes)` }) };
      try {
        return { result: E.right(JSON.parse(body.text) as unknown) };
      } catch {
        return { result: E.left({ _tag: "ProviderInvalidResponse", message: `response is not JSON: ${redact(body.text).slice(0, 120)}` }) };
      }
    } catch (e) {
      if (signal?.aborted === true) return { result: E.left({ _tag: "ProviderAborted" }) };
      if (timedOut) return { result: E.left({ _tag: "ProviderTimeout", timeoutMs: limitMs }) };
      return { result: E.left({ _tag: "ProviderTransientError", message: redact(`network error: ${e instanceof Error ? e.message : String(e)}`) }) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Attempts with retries on transient errors, all within `maxTotalMs`. */
  async function call(path: string, init: { method: string; body?: string }, signal: AbortSignal | undefined): Promise<Attempt<unknown>> {
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
