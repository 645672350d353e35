// The HTTP provider against a real loopback server speaking /v1/chat/completions and /v1/models.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chooseCompactionModel } from "../src/model-choice.js";
import {
  classifyStatus,
  decodeHttpProviderOptions,
  openAICompatibleProvider,
  retryAfterMs,
  type HttpProviderOptions,
} from "../src/providers/http.js";
import type { Provider } from "@cc/messages";
import { exposedRun, SECRET_FORMS, showSecret } from "./secret-forms.js";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let server: Server;
let base = "";
let handlers: Handler[] = [];
const seen: { path: string; auth: string | undefined; body: string }[] = [];

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};
const ok =
  (content: string): Handler =>
  (_q, _b, res) =>
    json(res, 200, {
      choices: [{ message: { content } }],
      usage: { prompt_tokens: 11, completion_tokens: 3 },
      model: "m",
    });

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ path: req.url ?? "", auth: req.headers.authorization, body });
      const next = handlers.shift();
      if (next === undefined) json(res, 500, { error: "no handler" });
      else next(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);
beforeEach(() => {
  handlers = [];
  seen.length = 0;
});

const made = (options: HttpProviderOptions): Provider => {
  const r = openAICompatibleProvider(options);
  if (E.isLeft(r)) throw new Error(r.left.message);
  return r.right;
};
const provider = (extra: Partial<HttpProviderOptions> = {}) =>
  made({ baseUrl: base, apiKey: "k", backoffMs: 1, timeoutMs: 500, ...extra });
const request = { model: "m", messages: [{ role: "user" as const, content: "hi" }], maxTokens: 5, temperature: 0 };

describe("openAICompatibleProvider on loopback", () => {
  it("completes and sends the OpenAI wire format with the bearer key", async () => {
    handlers = [ok("hello")];
    const r = await provider().complete(request)();
    expect(r).toEqual(E.right({ text: "hello", model: "m", usage: { inputTokens: 11, outputTokens: 3 } }));
    expect(seen[0]?.path).toBe("/v1/chat/completions");
    expect(seen[0]?.auth).toBe("Bearer k");
    expect(JSON.parse(seen[0]!.body)).toEqual({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 5,
      temperature: 0,
    });
  });
  it("retries 429 and 503, honouring Retry-After", async () => {
    handlers = [
      (_q, _b, res) => json(res, 429, { error: "slow down" }, { "retry-after": "0" }),
      (_q, _b, res) => json(res, 503, "down"),
      ok("finally"),
    ];
    const r = await provider().complete(request)();
    expect(E.isRight(r) && r.right.text).toBe("finally");
    expect(seen).toHaveLength(3);
  });
  it("gives up after maxRetries with a transient error", async () => {
    handlers = Array.from(
      { length: 5 },
      () => (_q: IncomingMessage, _b: string, res: ServerResponse) => json(res, 502, "bad gateway"),
    );
    const r = await provider({ maxRetries: 2 }).complete(request)();
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "ProviderTransientError", status: 502 });
    expect(seen).toHaveLength(3);
  });
  it("classifies 401 as auth and 400 as a request error, without retrying", async () => {
    handlers = [(_q, _b, res) => json(res, 401, "no"), (_q, _b, res) => json(res, 400, "bad")];
    expect(await provider().complete(request)()).toMatchObject(E.left({ _tag: "ProviderAuthError", status: 401 }));
    expect(await provider().complete(request)()).toMatchObject(E.left({ _tag: "ProviderRequestError", status: 400 }));
    expect(seen).toHaveLength(2);
  });
  it("reports malformed JSON and wrong shapes as invalid responses", async () => {
    handlers = [
      (_q, _b, res) => json(res, 200, "{not json"),
      (_q, _b, res) => json(res, 200, { choices: [] }),
      (_q, _b, res) => json(res, 200, { nope: 1 }),
    ];
    for (let i = 0; i < 3; i++) expect(E.isLeft(await provider().complete(request)())).toBe(true);
  });
  it("times out a hanging server", async () => {
    handlers = [() => undefined];
    const r = await provider({ timeoutMs: 50, maxRetries: 0 }).complete(request)();
    expect(r).toEqual(E.left({ _tag: "ProviderTimeout", timeoutMs: 50 }));
  });
  it("honours a caller abort", async () => {
    handlers = [() => undefined];
    const controller = new AbortController();
    const pending = provider({ timeoutMs: 5000 }).complete({ ...request, signal: controller.signal })();
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toEqual(E.left({ _tag: "ProviderAborted" }));
  });
  it("reports a refused connection as transient", async () => {
    const r = await made({ baseUrl: "http://127.0.0.1:1/v1", maxRetries: 0 }).complete(request)();
    expect(E.isLeft(r) && r.left._tag).toBe("ProviderTransientError");
  });
  it("lists models with prices and picks the cheapest by output cost", async () => {
    const models = {
      data: [
        { id: "big", pricing: { prompt: "0.000003", completion: "0.000015" } },
        { id: "small", pricing: { prompt: 0.0000001, completion: 0.0000004 } },
        { id: "unpriced" },
      ],
    };
    handlers = [(_q, _b, res) => json(res, 200, models), (_q, _b, res) => json(res, 200, models)];
    const listed = await provider({
      catalogue: [{ id: "unpriced", outputCostPerMTok: 100, strength: "very_high" }],
    }).listModels()();
    expect(E.isRight(listed) && listed.right.map((m) => [m.id, m.outputCostPerMTok])).toEqual([
      ["big", 15],
      ["small", 0.4],
      ["unpriced", 100],
    ]);
    expect(await chooseCompactionModel(provider(), "")()).toEqual(E.right("small"));
  });
});

describe("provider options", () => {
  const problems = (input: unknown): readonly string[] => {
    const r = decodeHttpProviderOptions(input);
    return E.isLeft(r) ? r.left.problems.map((p) => p.message) : [];
  };

  it("rejects NaN, infinities, fractions and out-of-range numbers with a typed error, before any request", () => {
    const bad: [keyof HttpProviderOptions, number][] = [
      ["maxRetries", Number.NaN],
      ["maxRetries", Infinity],
      ["maxRetries", -1],
      ["maxRetries", 21],
      ["maxRetries", 1.5],
      ["timeoutMs", Number.NaN],
      ["timeoutMs", 0],
      ["timeoutMs", -1],
      ["timeoutMs", 600_001],
      ["timeoutMs", -Infinity],
      ["backoffMs", Number.NaN],
      ["backoffMs", -5],
      ["maxBackoffMs", Infinity],
      ["maxTotalMs", 0],
      ["maxResponseBytes", 0],
      ["maxResponseBytes", Number.NaN],
    ];
    for (const [field, value] of bad) {
      const r = openAICompatibleProvider({ baseUrl: base, [field]: value });
      expect(r, `${field}=${value}`).toMatchObject(
        E.left({
          _tag: "InvalidOptions",
          subject: "provider options",
          problems: [
            {
              message: expect.stringMatching(
                new RegExp(`^${field}: expected an integer in \\d+\\.\\.\\d+, got ${String(value)}$`),
              ),
            },
          ],
        }),
      );
    }
    expect(seen).toHaveLength(0);
  });

  it("accepts the bounds and applies the defaults", () => {
    const r = decodeHttpProviderOptions({ baseUrl: base, maxRetries: 0, timeoutMs: 600_000, apiKey: undefined });
    expect(E.isRight(r) && { ...r.right, now: undefined }).toEqual({
      baseUrl: base,
      maxRetries: 0,
      timeoutMs: 600_000,
      backoffMs: 500,
      maxBackoffMs: 30_000,
      maxTotalMs: 300_000,
      maxResponseBytes: 8 * 1024 * 1024,
      catalogue: [],
      now: undefined,
      name: "openai-compatible",
    });
    expect(problems({ baseUrl: base, maxRetries: 20, timeoutMs: 1 })).toEqual([]);
  });

  it("rejects unknown keys, naming the closest known one", () => {
    expect(problems({ baseUrl: base, maxRetry: 2, timeout: 5, retries: 1, wibble: true })).toEqual([
      "maxRetry is not an option; did you mean maxRetries?",
      "timeout is not an option; did you mean timeoutMs?",
      "retries is not an option; did you mean maxRetries?",
      "wibble is not an option (known: baseUrl, apiKey, timeoutMs, maxRetries, backoffMs, maxBackoffMs, maxTotalMs, maxResponseBytes, catalogue, now, name)",
    ]);
    expect(problems({ baseUrl: base, base_url: "x" })).toEqual(["base_url is not an option; did you mean baseUrl?"]);
  });

  it("rejects a base URL that is not http(s) or carries credentials, without echoing them", () => {
    expect(problems({ baseUrl: "ftp://127.0.0.1/v1" })).toEqual([
      expect.stringContaining("baseUrl: expected an http(s) URL"),
    ]);
    expect(problems({ baseUrl: "not a url" })).toEqual([
      expect.stringContaining("baseUrl: expected an absolute http(s) URL"),
    ]);
    expect(problems(null)).toEqual([expect.stringContaining("options: expected an object")]);
    const leaked = problems({ baseUrl: "http://user:hunter2-secret@127.0.0.1/v1" });
    expect(leaked).toEqual([expect.stringContaining("credentials in the URL are never sent")]);
    expect(leaked.join("")).not.toContain("hunter2-secret");
    expect(problems({ baseUrl: base, apiKey: "sk-abcdefghijkl\nx" }).join("")).not.toContain("abcdefghijkl");
  });
});

describe("provider bounds on loopback", () => {
  it("stops retrying when the total time budget (maxTotalMs) is spent", async () => {
    handlers = Array.from(
      { length: 30 },
      () => (_q: IncomingMessage, _b: string, res: ServerResponse) => json(res, 503, "down"),
    );
    let clock = 0;
    const now = (): number => (clock += 100); // every reading of the clock is 100 ms later
    const r = await provider({ maxRetries: 20, backoffMs: 1, maxBackoffMs: 1, maxTotalMs: 1000, now }).complete(
      request,
    )();
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "ProviderTransientError", status: 503 });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeLessThan(21);
  });

  it("cuts an attempt's timeout to what remains of maxTotalMs", async () => {
    handlers = [() => undefined];
    const r = await provider({ timeoutMs: 600_000, maxTotalMs: 80, maxRetries: 0 }).complete(request)();
    expect(E.isLeft(r) && r.left._tag).toBe("ProviderTimeout");
    expect(E.isLeft(r) && r.left._tag === "ProviderTimeout" && r.left.timeoutMs).toBeLessThanOrEqual(80);
  });

  it("reads at most maxResponseBytes of a streamed body and drops the connection", async () => {
    const total = 50 * 1024 * 1024;
    let sent = 0;
    const finished = new Promise<void>((resolve) => {
      handlers = [
        (_q, _b, res) => {
          res.writeHead(200, { "content-type": "application/json" });
          const chunk = Buffer.alloc(64 * 1024, 0x61);
          res.on("close", () => resolve());
          const pump = (): void => {
            while (sent < total && !res.destroyed) {
              sent += chunk.length;
              if (!res.write(chunk)) {
                res.once("drain", pump);
                return;
              }
            }
            res.end();
          };
          pump();
        },
      ];
    });
    const r = await provider({ maxResponseBytes: 1024 * 1024, timeoutMs: 30_000 }).complete(request)();
    await finished;
    expect(r).toEqual(
      E.left({ _tag: "ProviderInvalidResponse", message: "response body exceeds maxResponseBytes (1048576 bytes)" }),
    );
    expect(sent).toBeLessThan(total / 2);
  });

  it("refuses a declared Content-Length above the bound without reading it", async () => {
    handlers = [(_q, _b, res) => json(res, 200, { choices: [{ message: { content: "x".repeat(5000) } }] })];
    const r = await provider({ maxResponseBytes: 1000 }).complete(request)();
    expect(r).toEqual(
      E.left({ _tag: "ProviderInvalidResponse", message: "response body exceeds maxResponseBytes (1000 bytes)" }),
    );
    handlers = [ok("small")];
    expect(await provider({ maxResponseBytes: 1000 }).complete(request)()).toMatchObject(E.right({ text: "small" }));
  });

  it("never puts the key into an error message, even when the server echoes it", async () => {
    const key = "sk-test-0123456789abcdefXYZ";
    handlers = [
      (q, _b, res) => json(res, 401, { error: `invalid api key ${key}`, header: q.headers.authorization }),
      (_q, _b, res) => json(res, 200, `not json ${key}`),
      (_q, _b, res) => json(res, 404, { detail: "Authorization: Bearer other.token-value_123" }),
    ];
    const p = provider({ apiKey: key, maxRetries: 0 });
    const results = [await p.complete(request)(), await p.complete(request)(), await p.complete(request)()];
    expect(results.map((r) => E.isLeft(r) && r.left._tag)).toEqual([
      "ProviderAuthError",
      "ProviderInvalidResponse",
      "ProviderRequestError",
    ]);
    const text = JSON.stringify(results);
    expect(text).not.toContain(key);
    expect(text).not.toContain("other.token-value_123");
    expect(text).toContain("invalid api key ***");
  });

  it("never puts the key, or 8 characters of it in a row, into an error message in any form the server echoes", async () => {
    const key = "sk-proj-Q7w9E2r4T6y8U0iPaSdFgHjK";
    for (const form of SECRET_FORMS) {
      for (const cut of [0.1, 0.5, 0.9]) {
        const shown = showSecret(key, form, cut);
        handlers = [
          (_q, _b, res) =>
            json(
              res,
              401,
              `{"error":{"message":"Incorrect API key provided: ${shown}","type":"invalid_request_error"}}`,
            ),
          (_q, _b, res) => json(res, 400, { error: { message: `bad request for key ${shown}` } }),
          (_q, _b, res) => json(res, 200, `<html>key: ${shown}</html>`),
        ];
        const p = provider({ apiKey: key, maxRetries: 0 });
        const results = [await p.complete(request)(), await p.complete(request)(), await p.listModels()()];
        expect(results.map((r) => E.isLeft(r) && r.left._tag)).toEqual([
          "ProviderAuthError",
          "ProviderRequestError",
          "ProviderInvalidResponse",
        ]);
        for (const r of results) {
          const message = E.isLeft(r) && "message" in r.left ? r.left.message : "";
          expect(exposedRun(message, key), `${form} ${cut}: ${message}`).toBeUndefined();
        }
        expect(JSON.stringify(results[0])).toContain("Incorrect API key provided: ");
      }
    }
  });

  it("keeps the base URL's query on every request and never shows it or a credential in it", async () => {
    const secret = "AIzaSyD-query-key-4242";
    handlers = [
      (q, _b, res) =>
        json(res, 403, { error: `denied for ${q.url ?? ""} (key ${secret}, ${encodeURIComponent(secret)})` }),
      ok("fine"),
    ];
    const p = made({
      baseUrl: `${base}/?api-version=2024-06-01&key=${secret}&access_token=tok-${secret}`,
      maxRetries: 0,
      backoffMs: 1,
      timeoutMs: 500,
    });
    const denied = await p.complete(request)();
    expect(seen[0]?.path).toBe(`/v1/chat/completions?api-version=2024-06-01&key=${secret}&access_token=tok-${secret}`);
    expect(E.isLeft(denied) && denied.left._tag).toBe("ProviderAuthError");
    const message = E.isLeft(denied) && "message" in denied.left ? denied.left.message : "";
    expect(message).toContain("denied for /v1/chat/completions?");
    expect(exposedRun(message, secret)).toBeUndefined();
    expect(message).not.toContain("api-version");
    expect(await p.complete(request)()).toMatchObject(E.right({ text: "fine" }));
  });

  it("a malformed base URL is refused without showing its query or credentials", () => {
    for (const baseUrl of [
      "http://[::1/v1?api_key=QQ-secret-value-77",
      "127.0.0.1:8080/v1?token=QQ-secret-value-77",
      "ftp://u:QQ-secret-value-77@h/v1",
      "http://u:QQ-secret-value-77@[::1/v1",
    ]) {
      const r = decodeHttpProviderOptions({ baseUrl, apiKey: "sk-irrelevant-key-0000" });
      const shown = JSON.stringify(r);
      expect(shown, baseUrl).not.toContain("QQ-secret");
      expect(shown, baseUrl).not.toContain("secret-value");
      expect(shown, baseUrl).toContain('"_tag":"InvalidOptions"');
    }
  });
});

describe("HTTP helpers", () => {
  it("parses Retry-After seconds and dates", () => {
    expect(retryAfterMs("2", 0)).toBe(2000);
    expect(retryAfterMs("Thu, 01 Jan 1970 00:00:05 GMT", 1000)).toBe(4000);
    expect(retryAfterMs("soon", 0)).toBeUndefined();
    expect(retryAfterMs(null, 0)).toBeUndefined();
  });
  it("classifies statuses", () => {
    expect(classifyStatus(403, "")._tag).toBe("ProviderAuthError");
    expect(classifyStatus(429, "")._tag).toBe("ProviderTransientError");
    expect(classifyStatus(500, "")._tag).toBe("ProviderTransientError");
    expect(classifyStatus(404, "")._tag).toBe("ProviderRequestError");
  });
});
