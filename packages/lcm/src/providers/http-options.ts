/**
 * Options of the OpenAI-compatible HTTP provider: their type, codec, defaults and
 * {@link decodeHttpProviderOptions}, which rejects unknown keys (naming the closest known one),
 * NaN, infinities and out-of-range numbers without ever echoing the API key.
 *
 * @module providers/http-options
 */
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { ModelInfo } from "@cc/messages";
import type { Strength } from "@cc/messages/internal";
import { didYouMean, invalid, type InvalidOptions, type Problem } from "@cc/validate";
import { displayUrl, redactSecrets, urlSecrets } from "./redact.js";

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
  return new t.Type<number, number, unknown>(
    `Integer(${min}..${max})`,
    ok,
    (u, c) => (ok(u) ? t.success(u) : t.failure(u, c, `expected an integer in ${min}..${max}`)),
    t.identity,
  );
};
const nonNegativeNumber = new t.Type<number, number, unknown>(
  "NonNegativeNumber",
  (u): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0,
  (u, c) =>
    typeof u === "number" && Number.isFinite(u) && u >= 0
      ? t.success(u)
      : t.failure(u, c, "expected a finite number ≥ 0"),
  t.identity,
);
const nonEmptyString = new t.Type<string, string, unknown>(
  "NonEmptyString",
  (u): u is string => typeof u === "string" && u !== "",
  (u, c) => (typeof u === "string" && u !== "" ? t.success(u) : t.failure(u, c, "expected a non-empty string")),
  t.identity,
);
const headerSafe = (u: unknown): u is string => typeof u === "string" && u !== "" && !/[\r\n\0]/.test(u);
const ApiKey = new t.Type<string, string, unknown>(
  "ApiKey",
  headerSafe,
  (u, c) => (headerSafe(u) ? t.success(u) : t.failure(u, c, "expected a non-empty string without line breaks")),
  t.identity,
);
const urlProblem = (u: unknown): string | undefined => {
  if (typeof u !== "string") return "expected an http(s) URL string";
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return "expected an absolute http(s) URL such as http://127.0.0.1:8080/v1";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `expected an http(s) URL, not ${url.protocol}`;
  if (url.username !== "" || url.password !== "")
    return "credentials in the URL are never sent (fetch refuses them): pass the key as apiKey";
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
  (u, c) =>
    typeof u === "function" ? t.success(u as () => number) : t.failure(u, c, "expected a function returning epoch ms"),
  t.identity,
);
const StrengthCodec: t.Type<Strength, Strength, unknown> = t.keyof({
  very_low: null,
  low: null,
  average: null,
  high: null,
  very_high: null,
});
const ModelInfoCodec: t.Type<ModelInfo, ModelInfo, unknown> = t.intersection([
  t.type({ id: t.string }),
  t.partial({
    inputCostPerMTok: nonNegativeNumber,
    outputCostPerMTok: nonNegativeNumber,
    strength: StrengthCodec,
    contextWindow: intIn(1, Number.MAX_SAFE_INTEGER),
  }),
]);

/** io-ts codec of {@link HttpProviderOptions} (field by field; unknown keys are checked by {@link decodeHttpProviderOptions}). */
export const HttpProviderOptionsCodec = t.readonly(
  t.intersection([
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
  ]),
);

const optionKeys: readonly string[] = [
  "baseUrl",
  "apiKey",
  "timeoutMs",
  "maxRetries",
  "backoffMs",
  "maxBackoffMs",
  "maxTotalMs",
  "maxResponseBytes",
  "catalogue",
  "now",
  "name",
];

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
  const fail = (problems: readonly (string | Problem)[]): E.Either<InvalidProviderOptions, HttpProviderConfig> =>
    E.left(invalid("InvalidOptions", "provider options", problems));
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return fail([
      `options: expected an object such as { baseUrl: "http://127.0.0.1:8080/v1" }, got ${showValue(input, [])}`,
    ]);
  const record = input as Readonly<Record<string, unknown>>;
  const baseUrl = record["baseUrl"];
  const secrets = [
    typeof record["apiKey"] === "string" ? record["apiKey"] : undefined,
    ...(typeof baseUrl === "string" ? urlSecrets(baseUrl) : []),
  ];
  const problems: Problem[] = [];
  for (const key of Object.keys(record)) {
    if (optionKeys.includes(key)) continue;
    const near = didYouMean(key.replace(/[_-]/g, ""), optionKeys);
    const shown = redactSecrets(key, secrets);
    problems.push({
      path: shown,
      message: `${shown} is not an option${near === undefined ? ` (known: ${optionKeys.join(", ")})` : `; did you mean ${near}?`}`,
    });
  }
  // An explicit `undefined` means "the default", as an absent key does.
  const defined = Object.fromEntries(
    Object.entries(record).filter(([k, v]) => v !== undefined && optionKeys.includes(k)),
  );
  const decoded = HttpProviderOptionsCodec.decode(defined);
  if (E.isLeft(decoded)) {
    for (const error of decoded.left) {
      const field = error.context.map((c) => c.key).filter((k) => k !== "" && !/^\d+$/.test(k))[0] ?? "options";
      const shown =
        field === "baseUrl" && typeof error.value === "string"
          ? showValue(displayUrl(error.value), secrets)
          : showValue(error.value, secrets);
      const line =
        field === "apiKey"
          ? "apiKey: expected a non-empty string without line breaks"
          : `${field}: ${error.message ?? "invalid value"}, got ${shown}`;
      if (!problems.some((p) => p.message === line)) problems.push({ path: field, message: line });
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
